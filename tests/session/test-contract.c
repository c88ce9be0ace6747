/* The launcher contract's variables, validated. */
#include "session-test.h"

#include <errno.h>
#include <signal.h>

#include "contract.h"
#include "notify.h"
#include "session.h"
#include "util.h"
#include "xsocket.h"

static const char *const *table;

static const char *fake_getenv(const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; table[i]; i++) {
		if (strncmp(table[i], name, len) == 0 && table[i][len] == '=') {
			return table[i] + len + 1;
		}
	}
	return NULL;
}

static const char *const full[] = {
	"BOTDESK_PROFILE=work",
	"BOTDESK_DISPLAY_NUM=23",
	"BOTDESK_SOCKET=/s/work/rfb.sock",
	"BOTDESK_XAUTH=/s/work/Xauthority",
	"BOTDESK_ENV_FILE=/s/work/env",
	"BOTDESK_CONFIG_HOME=/s/work/xdg",
	"BOTDESK_GEOMETRY=1280x800",
	"BOTDESK_X_LOCK_DIR=/tmp",
	"PATH=/usr/bin",
	NULL,
};

static int load_with(const char *const *t, bool seed_only, struct session_config *c,
		     struct error *err)
{
	table = t;
	return contract_load(fake_getenv, seed_only, c, err);
}

static void test_full(void **state)
{
	struct session_config c;
	struct error err = {0};
	assert_int_equal(load_with(full, false, &c, &err), 0);
	assert_string_equal(c.profile, "work");
	assert_int_equal(c.display, 23);
	assert_string_equal(c.socket_path, "/s/work/rfb.sock");
	assert_int_equal(c.width, 1280);
	assert_int_equal(c.height, 800);
	assert_null(c.browser);
	/* Beside rfb.sock: Xvnc's private socket and the watchers' door. */
	assert_string_equal(c.state_dir, "/s/work");
	assert_string_equal(c.xvnc_socket_path, "/s/work/xvnc.sock");
	assert_string_equal(c.view_socket_path, "/s/work/view.sock");
	assert_false(c.view_group);
	assert_true(c.idle_stop_ms == 0);
	assert_int_equal(c.wait_ms, 0); /* unset: the session's own default */
	char *cache;
	assert_int_equal(contract_cache_home(&c, &cache), 0);
	assert_string_equal(cache, "/s/work/xdg/.cache");
	free(cache);
}

/* Each bad value is named in the message. */
static void expect_refused(const char *var, const char *value, const char *msg_part)
{
	const char *t[16];
	char over[256];
	size_t n = 0;
	snprintf(over, sizeof(over), "%s=%s", var, value);
	for (size_t i = 0; full[i]; i++) {
		if (strncmp(full[i], var, strlen(var)) != 0 || full[i][strlen(var)] != '=') {
			t[n++] = full[i];
		}
	}
	if (value) {
		t[n++] = over;
	}
	t[n] = NULL;
	struct session_config c;
	struct error err = {0};
	assert_true(load_with(t, false, &c, &err) < 0);
	assert_non_null(strstr(err.msg, msg_part));
}

static void test_refusals(void **state)
{
	expect_refused("BOTDESK_DISPLAY_NUM", "x1", "BOTDESK_DISPLAY_NUM");
	expect_refused("BOTDESK_DISPLAY_NUM", "65536", "BOTDESK_DISPLAY_NUM");
	expect_refused("BOTDESK_DISPLAY_NUM", "", "BOTDESK_DISPLAY_NUM");
	expect_refused("BOTDESK_GEOMETRY", "1440x900;rm", "BOTDESK_GEOMETRY");
	expect_refused("BOTDESK_GEOMETRY", "10x10", "BOTDESK_GEOMETRY");
	expect_refused("BOTDESK_GEOMETRY", "1440X900", "BOTDESK_GEOMETRY");
	expect_refused("BOTDESK_SOCKET", "rel/rfb.sock", "absolute");
	expect_refused("BOTDESK_SOCKET", NULL, "BOTDESK_SOCKET is not set");
	expect_refused("BOTDESK_ENV_FILE", "/s/env\nDISPLAY=:0", "control characters");
	expect_refused("BOTDESK_PROFILE", "a\nb", "control characters");
	char long_path[200];
	memset(long_path, 'a', sizeof(long_path) - 1);
	long_path[0] = '/';
	long_path[sizeof(long_path) - 1] = '\0';
	expect_refused("BOTDESK_SOCKET", long_path, "longer than a unix socket path");
	expect_refused("BOTDESK_WAIT_MS", "0", "BOTDESK_WAIT_MS");
	expect_refused("BOTDESK_WAIT_MS", "-5", "BOTDESK_WAIT_MS");
	expect_refused("BOTDESK_WAIT_MS", "12.5", "BOTDESK_WAIT_MS");
	expect_refused("BOTDESK_WAIT_MS", "99999999999", "BOTDESK_WAIT_MS");
}

/* Issue 12, defect 3: the runner's deadline reaches the session, whose stages share it. */
static void test_wait(void **state)
{
	const char *t[16];
	size_t n = 0;
	for (size_t i = 0; full[i]; i++) {
		t[n++] = full[i];
	}
	t[n++] = "BOTDESK_WAIT_MS=120000";
	t[n] = NULL;
	struct session_config c;
	struct error err = {0};
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_int_equal(c.wait_ms, 120000);
	/* Well past the old fixed 10 s per stage, a second short of the runner's own deadline. */
	assert_int_equal(session_deadline(1000, 120000), 1000 + 119000);
	assert_int_equal(session_deadline(1000, 3000), 1000 + 2700);
	assert_int_equal(session_deadline(0, 0), SESSION_DEFAULT_WAIT_MS - 1000);
}

/* Issue 13: one meaning for BOTDESK_X_LOCK_DIR on both sides, the X directory: the lock and
 * keymap files in it, the path socket in its .X11-unix. */
static void test_x_dir(void **state)
{
	struct session_config c;
	struct error err = {0};
	assert_int_equal(load_with(full, false, &c, &err), 0);
	assert_string_equal(c.x_lock_dir, "/tmp");
	assert_string_equal(c.x_socket_dir, XSOCKET_DIR);
	const char *t[16];
	size_t n = 0;
	for (size_t i = 0; full[i]; i++) {
		if (!startswith(full[i], "BOTDESK_X_LOCK_DIR=")) {
			t[n++] = full[i];
		}
	}
	t[n + 1] = NULL;
	t[n] = "BOTDESK_X_LOCK_DIR=/scratch/x";
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_string_equal(c.x_lock_dir, "/scratch/x");
	assert_string_equal(c.x_socket_dir, "/scratch/x/.X11-unix");
	t[n] = NULL; /* unset: the default */
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_string_equal(c.x_socket_dir, XSOCKET_DIR);
	expect_refused("BOTDESK_X_LOCK_DIR", "rel/x",
		       "BOTDESK_X_LOCK_DIR must be an absolute path");
}

static void test_doors_and_idle(void **state)
{
	const char *t[16];
	size_t n = 0;
	for (size_t i = 0; full[i]; i++) {
		t[n++] = full[i];
	}
	t[n++] = "BOTDESK_VIEW_SOCKET=/srv/view/work.sock";
	t[n++] = "BOTDESK_VIEW_GID=1234";
	t[n++] = "BOTDESK_IDLE_STOP_MS=1800000";
	t[n] = NULL;
	struct session_config c;
	struct error err = {0};
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_true(c.record_max_mb == 0); /* no recorder unless asked */
	/* The flight recorder (issue 28): always, with its limit. */
	t[n++] = "BOTDESK_RECORD=always";
	t[n++] = "BOTDESK_RECORD_MAX_MB=64";
	t[n] = NULL;
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_true(c.record_max_mb == 64);
	expect_refused("BOTDESK_RECORD", "yes", "BOTDESK_RECORD");
	assert_string_equal(c.view_socket_path, "/srv/view/work.sock");
	assert_true(c.view_group);
	assert_int_equal(c.view_gid, 1234);
	assert_true(c.idle_stop_ms == 1800000);
	expect_refused("BOTDESK_VIEW_GID", "0", "BOTDESK_VIEW_GID");
	expect_refused("BOTDESK_VIEW_GID", "staff", "BOTDESK_VIEW_GID");
	expect_refused("BOTDESK_VIEW_SOCKET", "rel.sock", "absolute");
	expect_refused("BOTDESK_IDLE_STOP_MS", "1e3", "BOTDESK_IDLE_STOP_MS");
	expect_refused("BOTDESK_IDLE_STOP_MS", "604800001", "BOTDESK_IDLE_STOP_MS");
}

/* The lean desktop unless BOTDESK_DESKTOP_PROFILE says full; anything else is refused. */
static void test_desktop_profile(void **state)
{
	const char *t[16];
	size_t n = 0;
	for (size_t i = 0; full[i]; i++) {
		t[n++] = full[i];
	}
	t[n] = NULL;
	struct session_config c;
	struct error err = {0};
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_false(c.full);
	t[n++] = "BOTDESK_DESKTOP_PROFILE=full";
	t[n] = NULL;
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_true(c.full);
	t[n - 1] = "BOTDESK_DESKTOP_PROFILE=lean";
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_false(c.full);
	expect_refused("BOTDESK_DESKTOP_PROFILE", "Full", "neither lean nor full");
}

/* Issue 13, item 6: the handshake's fd, optional, a plain number from 3 up. */
static void test_notify_fd(void **state)
{
	struct session_config c;
	struct error err = {0};
	assert_int_equal(load_with(full, false, &c, &err), 0);
	assert_int_equal(c.notify_fd, -1); /* unset: run by hand, or by an older runner */
	const char *t[16];
	size_t n = 0;
	for (size_t i = 0; full[i]; i++) {
		t[n++] = full[i];
	}
	t[n] = "BOTDESK_NOTIFY_FD=3";
	t[n + 1] = NULL;
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_int_equal(c.notify_fd, 3);
	t[n] = "BOTDESK_NOTIFY_FD=2147483647";
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_int_equal(c.notify_fd, 2147483647);
	t[n] = "BOTDESK_NOTIFY_FD=";
	assert_int_equal(load_with(t, false, &c, &err), 0);
	assert_int_equal(c.notify_fd, -1);
	/* Seeding never talks to the runner. */
	t[n] = "BOTDESK_NOTIFY_FD=3";
	assert_int_equal(load_with(t, true, &c, &err), 0);
	assert_int_equal(c.notify_fd, -1);
	static const char *const bad[] = {"0",    "1",   "2",          "-1",
					  "+3",   " 3",  "3 ",         "03x",
					  "3.0",  "0x3", "2147483648", "99999999999999999999",
					  "three"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		expect_refused("BOTDESK_NOTIFY_FD", bad[i], "BOTDESK_NOTIFY_FD");
	}
}

/* The session's side of the fd: close-on-exec at once, and only a pipe's write end. */
static void test_notify_take(void **state)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(notify_take(p[1]), 0);
	assert_true(fcntl(p[1], F_GETFD) & FD_CLOEXEC);
	assert_int_equal(notify_take(p[0]), -EINVAL); /* the read end */
	int fd = p[1];
	notify_finish(&fd, LAUNCHER_NOTIFY_READY);
	assert_int_equal(fd, -1);
	char buf[16] = {0};
	assert_int_equal(read(p[0], buf, sizeof(buf)), 6);
	assert_string_equal(buf, "ready\n");
	assert_int_equal(read(p[0], buf, sizeof(buf)), 0); /* closed: EOF */
	/* A runner gone: the write fails, the fd goes, nothing dies (SIGPIPE ignored as the
	 * supervisor does). */
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	fd = p[1];
	notify_send(&fd, "claimed 5");
	assert_int_equal(fd, -1);
	signal(SIGPIPE, SIG_DFL);
	assert_int_equal(notify_take(-1), 0);
	assert_int_equal(notify_take(p[1]), -EBADF); /* closed by notify_send */
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(notify_take(fd), -EINVAL);
	close(fd);
	fd = -1;
	notify_send(&fd, "ready"); /* no handshake: nothing to do */
	(void)state;
}

/* Seeding needs only the config home. */
static void test_seed_only(void **state)
{
	const char *const t[] = {"BOTDESK_CONFIG_HOME=/s/p/xdg", NULL};
	struct session_config c;
	struct error err = {0};
	assert_int_equal(load_with(t, true, &c, &err), 0);
	assert_string_equal(c.profile, "default");
	assert_int_equal(c.width, 1440);
	assert_int_equal(c.height, 900);
	assert_true(load_with(t, false, &c, &err) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full),           cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_wait),           cmocka_unit_test(test_seed_only),
		cmocka_unit_test(test_doors_and_idle), cmocka_unit_test(test_desktop_profile),
		cmocka_unit_test(test_x_dir),          cmocka_unit_test(test_notify_fd),
		cmocka_unit_test(test_notify_take),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
