/* Claiming a display number: the abstract socket as the atomic claim, the path socket, and X's
 * lock file written and removed only while it is ours. Uses the host's real /tmp/.X11-unix with a
 * number far above any band. */
#include "session-test.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "claim.h"
#include "idle.h"
#include "supervisor.h"
#include "xlock.h"

struct fixture {
	char *locks; /* first: unit_fixture's scratch directory */
	unsigned n;
};

static int setup(void **state)
{
	struct fixture *f = unit_fixture(sizeof(*f));
	/* A free number: the first this claim gets. */
	for (unsigned n = 6000 + (unsigned)getpid() % 2000; n < 9000; n++) {
		struct claim c;
		claim_init(&c);
		struct error err = {0};
		int r = claim_sockets(&c, XSOCKET_DIR, n, &err);
		claim_release(&c);
		if (r == 0) {
			f->n = n;
			break;
		}
	}
	assert_true(f->n != 0);
	*state = f;
	return 0;
}

static void test_parse_lock(void **state)
{
	pid_t pid;
	assert_int_equal(xlock_parse("      1234\n", &pid), 0);
	assert_int_equal(pid, 1234);
	assert_int_equal(xlock_parse("1234", &pid), 0);
	assert_int_equal(xlock_parse("", &pid), -EINVAL);
	assert_int_equal(xlock_parse("      12x4\n", &pid), -EINVAL);
	assert_int_equal(xlock_parse("         0\n", &pid), -EINVAL);
	assert_int_equal(xlock_parse("         1\n", &pid), -EINVAL);
	assert_true(xlock_parse("99999999999999999999\n", &pid) < 0);
	assert_int_equal(xlock_parse("1234\n5678\n", &pid), -EINVAL);
}

static void test_second_claim_collides(void **state)
{
	struct fixture *f = *state;
	struct claim a, b;
	claim_init(&a);
	claim_init(&b);
	struct error err = {0};
	assert_int_equal(claim_sockets(&a, XSOCKET_DIR, f->n, &err), 0);
	struct stat st;
	assert_int_equal(lstat(a.path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	/* Owner-only: connect() needs write permission on the socket file. */
	assert_int_equal(st.st_mode & 0777, 0700);
	/* The abstract name is held but refuses connections: any uid may connect to an abstract
	 * socket, so a listening one would let a stranger use up the server's client slots. */
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int len = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, XSOCKET_DIR "/X%u", f->n);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(
		connect(fd, (struct sockaddr *)&sa,
			(socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len)),
		-1);
	assert_int_equal(errno, ECONNREFUSED);
	close(fd);
	struct error err2 = {0};
	assert_int_equal(claim_sockets(&b, XSOCKET_DIR, f->n, &err2), -EADDRINUSE);
	assert_non_null(strstr(err2.msg, "cannot claim X display"));
	claim_release(&b);
	/* The loser never touched the winner's path socket. */
	struct stat st2;
	assert_int_equal(lstat(a.path, &st2), 0);
	assert_int_equal(st2.st_ino, st.st_ino);
	claim_release(&a);
	assert_int_equal(lstat(a.path, &st2), -1);
}

/* Claims the fixture's number in a (its sockets, then X's lock for us) and checks that the lock,
 * whose name it leaves in name, holds our pid. */
static void claim_ours(const struct fixture *f, struct claim *a, char name[static 64])
{
	claim_init(a);
	struct error err = {0};
	assert_int_equal(claim_sockets(a, XSOCKET_DIR, f->n, &err), 0);
	assert_int_equal(claim_lock(a, f->locks, getpid(), &err), 0);
	snprintf(name, 64, ".X%u-lock", f->n);
	char want[32];
	snprintf(want, sizeof(want), "%10d\n", (int)getpid());
	char *t = st_read(f->locks, name);
	assert_string_equal(t, want);
	free(t);
}

static void test_lock_written_and_released(void **state)
{
	struct fixture *f = *state;
	struct claim a;
	char name[64];
	claim_ours(f, &a, name);
	struct stat st;
	assert_int_equal(stat(st_path(f->locks, name), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0444);

	/* A second claimant sees a live lock. */
	struct claim b;
	claim_init(&b);
	b.display = f->n;
	struct error err2 = {0};
	assert_int_equal(claim_lock(&b, f->locks, getpid(), &err2), -EADDRINUSE);
	claim_release(&b);
	assert_int_equal(stat(st_path(f->locks, name), &st), 0);

	claim_release(&a);
	assert_int_equal(stat(st_path(f->locks, name), &st), -1);
	/* No temporary is left behind. */
	char cmd[8192];
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s')\"", f->locks);
	assert_int_equal(system(cmd), 0);
}

static pid_t dead_pid(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	return pid;
}

static void test_stale_lock_replaced(void **state)
{
	struct fixture *f = *state;
	char name[64], stale[32];
	snprintf(name, sizeof(name), ".X%u-lock", f->n);
	snprintf(stale, sizeof(stale), "%10d\n", (int)dead_pid());
	st_write(f->locks, name, stale, 0444);
	struct claim a;
	claim_ours(f, &a, name);
	claim_release(&a);
}

/* A lock somebody else put in place after ours is theirs: release leaves it. */
static void test_release_only_ours(void **state)
{
	struct fixture *f = *state;
	struct claim a;
	char name[64];
	claim_ours(f, &a, name);
	unlink(st_path(f->locks, name));
	st_write(f->locks, name, "      4242\n", 0444);
	claim_release(&a);
	char *t = st_read(f->locks, name);
	assert_string_equal(t, "      4242\n");
	free(t);
	unlink(st_path(f->locks, name));
}

/* A dead socket file at the path is cleared; a live listener there (a server with no abstract
 * socket) is somebody's claim. */
static void test_path_socket(void **state)
{
	struct fixture *f = *state;
	char path[64];
	snprintf(path, sizeof(path), XSOCKET_DIR "/X%u", f->n);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(fd, 1), 0);
	struct claim a;
	claim_init(&a);
	struct error err = {0};
	assert_int_equal(claim_sockets(&a, XSOCKET_DIR, f->n, &err), -EADDRINUSE);
	claim_release(&a);
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	/* Closed without unlinking: a stale socket file, as a killed server leaves. */
	close(fd);
	claim_init(&a);
	assert_int_equal(claim_sockets(&a, XSOCKET_DIR, f->n, &err), 0);
	claim_release(&a);
	assert_int_equal(lstat(path, &st), -1);
}

/* A keymap file of ours left by a killed server is cleared; the claim never follows a link. */
static void test_keymap_stale_ours(void **state)
{
	struct fixture *f = *state;
	char name[64];
	snprintf(name, sizeof(name), "server-%u.xkm", f->n);
	st_write(f->locks, name, "stale", 0644);
	struct claim a;
	claim_init(&a);
	a.display = f->n;
	struct error err = {0};
	assert_int_equal(claim_keymap(&a, f->locks, &err), 0);
	struct stat st;
	assert_int_equal(lstat(st_path(f->locks, name), &st), -1);
	assert_int_equal(claim_keymap(&a, f->locks, &err), 0);
	claim_release(&a);
}

/* Issue 13: the destructors of what was never set up close nothing (fd 0 stays open). */
static void test_release_unclaimed(void **state)
{
	if (fcntl(0, F_GETFD) < 0) {
		assert_int_equal(open("/dev/null", O_RDONLY), 0);
	}
	struct claim c = CLAIM_INIT;
	claim_release(&c);
	claim_release(&c);
	struct idle i = IDLE_INIT;
	idle_close(&i);
	struct supervisor sv = SUPERVISOR_INIT;
	supervisor_done(&sv);
	assert_true(fcntl(0, F_GETFD) >= 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_lock),
		cmocka_unit_test(test_release_unclaimed),
		cmocka_unit_test_setup_teardown(test_second_claim_collides, setup,
						unit_fixture_free),
		cmocka_unit_test_setup_teardown(test_lock_written_and_released, setup,
						unit_fixture_free),
		cmocka_unit_test_setup_teardown(test_stale_lock_replaced, setup, unit_fixture_free),
		cmocka_unit_test_setup_teardown(test_release_only_ours, setup, unit_fixture_free),
		cmocka_unit_test_setup_teardown(test_path_socket, setup, unit_fixture_free),
		cmocka_unit_test_setup_teardown(test_keymap_stale_ours, setup, unit_fixture_free),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
