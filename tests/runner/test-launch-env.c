#include "unit.h"

#include "launch.h"

static const char *find(char **env, const char *name)
{
	size_t n = strlen(name);
	for (char **e = env; *e; e++) {
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=') {
			return *e + n + 1;
		}
	}
	return NULL;
}

static void launcher_environment_is_scrubbed(void **state)
{
	const char *const envp[] = {
		"HOME=/home/u",
		"PATH=/usr/bin",
		"LANG=C.UTF-8",
		"AWS_REGION=eu-west-1",
		"DISPLAY=:0",
		"XAUTHORITY=/home/u/.Xauthority",
		"WAYLAND_DISPLAY=wayland-0",
		"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1/bus",
		"SESSION_MANAGER=local/x",
		"OPENAI_API_KEY=sk-1",
		"GITHUB_TOKEN=ghp",
		"DB_PASSWORD=pw",
		"CLIENT_SECRET=s",
		"AWS_ACCESS_KEY_ID=AKIA",
		"AWS_SECRET_ACCESS_KEY=x",
		"AWS_SESSION_TOKEN=t",
		"BOTDESK_DISPLAY_NUM=99",
		"TOKENIZER=pass-me",
		"PGPASSWORD=p1",
		"DATABASE_URL=postgres://u:p2@h/db",
		"SSH_AUTH_SOCK=/tmp/ssh-x/agent.1",
		"github_token=p5",
		"BOTDESK_DEBUG=1",
		NULL,
	};
	static char tmp[] = "/tmp", dir[] = "/st/work", pass[] = "TOKENIZER,DISPLAY",
		    root[] = "/st";
	struct settings s = {.geometry = "800x600",
			     .x_lock_dir = tmp,
			     .browser = NULL,
			     .pass_env = pass,
			     .state_root = root};
	struct profile p = {.name = "work", .dir = dir, .dirfd = -1};
	char **env = launch_environment(envp, &s, &p, 42, 120000);
	assert_non_null(env);
	assert_string_equal(find(env, "HOME"), "/home/u");
	assert_string_equal(find(env, "LANG"), "C.UTF-8");
	/* Named in the pass list: passed on; a name the desktop sets itself never is. */
	assert_string_equal(find(env, "TOKENIZER"), "pass-me");
	assert_string_equal(find(env, "BOTDESK_PASS_ENV"), "TOKENIZER,DISPLAY");
	assert_string_equal(find(env, "BOTDESK_DEBUG"), "1");
	static const char *const gone[] = {
		"AWS_REGION",        "PGPASSWORD",
		"DATABASE_URL",      "SSH_AUTH_SOCK",
		"github_token",      "DISPLAY",
		"XAUTHORITY",        "WAYLAND_DISPLAY",
		"SESSION_MANAGER",   "DBUS_SESSION_BUS_ADDRESS",
		"OPENAI_API_KEY",    "GITHUB_TOKEN",
		"DB_PASSWORD",       "CLIENT_SECRET",
		"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
		"AWS_SESSION_TOKEN", "BOTDESK_BROWSER",
	};
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++) {
		assert_null(find(env, gone[i]));
	}
	assert_string_equal(find(env, "BOTDESK_PROFILE"), "work");
	assert_string_equal(find(env, "BOTDESK_DISPLAY_NUM"), "42"); /* ours, not the caller's */
	assert_string_equal(find(env, "BOTDESK_SOCKET"), "/st/work/rfb.sock");
	assert_string_equal(find(env, "BOTDESK_XAUTH"), "/st/work/Xauthority");
	assert_string_equal(find(env, "BOTDESK_ENV_FILE"), "/st/work/env");
	assert_string_equal(find(env, "BOTDESK_CONFIG_HOME"), "/st/work/xdg");
	assert_string_equal(find(env, "BOTDESK_GEOMETRY"), "800x600");
	assert_string_equal(find(env, "BOTDESK_X_LOCK_DIR"), "/tmp");
	/* The start's deadline reaches the session (issue 12, defect 3), and the marker that finds
	 * the desktop again without its state directory (defect 1). */
	assert_string_equal(find(env, "BOTDESK_WAIT_MS"), "120000");
	char marker[64];
	snprintf(marker, sizeof(marker), "%u:work:/st", (unsigned)geteuid());
	assert_string_equal(find(env, "BOTDESK_DESKTOP"), marker);
	size_t n = 0;
	for (char **e = env; *e; e++) {
		n += strncmp(*e, "BOTDESK_DISPLAY_NUM=", 20) == 0;
	}
	assert_int_equal(n, 1);
	launch_environment_free(env);
}

/* record = always reaches the session with its limit; the caller's own BOTDESK_RECORD never
 * does (off is the setting's, not the environment's word). */
static void record_reaches_the_session(void **state)
{
	const char *const envp[] = {"BOTDESK_RECORD=always", "BOTDESK_RECORD_MAX_MB=1", NULL};
	static char tmp[] = "/tmp", dir[] = "/st/work", root[] = "/st";
	struct settings s = {.geometry = "800x600", .x_lock_dir = tmp, .state_root = root};
	struct profile p = {.name = "work", .dir = dir, .dirfd = -1};
	char **env = launch_environment(envp, &s, &p, 42, 0);
	assert_null(find(env, "BOTDESK_RECORD"));
	assert_null(find(env, "BOTDESK_RECORD_MAX_MB"));
	launch_environment_free(env);
	s.record_always = true;
	s.record_max_mb = 64;
	env = launch_environment(envp, &s, &p, 42, 0);
	assert_string_equal(find(env, "BOTDESK_RECORD"), "always");
	assert_string_equal(find(env, "BOTDESK_RECORD_MAX_MB"), "64");
	size_t n = 0;
	for (char **e = env; *e; e++) {
		n += strncmp(*e, "BOTDESK_RECORD=", 15) == 0;
	}
	assert_int_equal(n, 1);
	launch_environment_free(env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(launcher_environment_is_scrubbed),
		cmocka_unit_test(record_reaches_the_session),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
