#include "unit.h"

#include <errno.h>

#include "settings.h"

static const char *const vars[] = {
	"BOTDESK_STATE_DIR",       "BOTDESK_LAUNCHER",   "BOTDESK_X_LOCK_DIR",
	"BOTDESK_X_UNIX_TABLE",    "BOTDESK_ALLOC_LOCK", "BOTDESK_DISPLAY_BAND",
	"BOTDESK_MIN_FREE_MB",     "BOTDESK_MEMINFO",    "BOTDESK_CGROUP_ROOT",
	"BOTDESK_GEOMETRY",        "BOTDESK_HELPER",     "BOTDESK_BROWSER",
	"BOTDESK_PACKAGE_MANAGER", "XDG_STATE_HOME",     "XDG_CONFIG_HOME",
	"XDG_RUNTIME_DIR",         "XDG_CACHE_HOME",     "BOTDESK_IDLE_STOP_MINUTES",
	"BOTDESK_VIEW_GROUP",      "BOTDESK_VIEW_DIR",
};

static char *home;

static int setup(void **state)
{
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		unsetenv(vars[i]);
	}
	home = unit_mkdtemp();
	setenv("HOME", home, 1);
	return 0;
}

static int teardown(void **state)
{
	unit_rm_rf(home);
	return 0;
}

static void defaults(void **state)
{
	struct settings s;
	struct error err = {{0}};
	assert_int_equal(settings_load(&s, &err), 0);
	char want[4200];
	snprintf(want, sizeof(want), "%s/.local/state/botdesk", home);
	assert_string_equal(s.state_root, want);
	snprintf(want, sizeof(want), "%s/.cache/botdesk/alloc.lock", home);
	assert_string_equal(s.alloc_lock, want);
	assert_string_equal(s.x_lock_dir, "/tmp");
	assert_string_equal(s.x_unix_table, "/proc/net/unix");
	assert_int_equal(s.band_lo, 20);
	assert_int_equal(s.band_hi, 89);
	assert_true(s.min_free_mb == 1536);
	assert_string_equal(s.geometry, "1440x900");
	assert_true(s.launcher_is_default);
	settings_free(&s);

	setenv("XDG_RUNTIME_DIR", "/run/user/4242", 1);
	setenv("XDG_STATE_HOME", "/xdg/state", 1);
	assert_int_equal(settings_load(&s, &err), 0);
	assert_string_equal(s.alloc_lock, "/run/user/4242/botdesk-alloc.lock");
	assert_string_equal(s.state_root, "/xdg/state/botdesk");
	settings_free(&s);
	/* A relative XDG directory is ignored, as the spec says. */
	setenv("XDG_RUNTIME_DIR", "relative", 1);
	assert_int_equal(settings_load(&s, &err), 0);
	assert_null(strstr(s.alloc_lock, "relative"));
	assert_int_equal(strncmp(s.alloc_lock, home, strlen(home)), 0);
	settings_free(&s);
}

static void malformed_values_name_the_variable(void **state)
{
	static const char *const cases[][2] = {
		{"BOTDESK_DISPLAY_BAND", "89-20"},  {"BOTDESK_DISPLAY_BAND", "20"},
		{"BOTDESK_GEOMETRY", "big"},        {"BOTDESK_GEOMETRY", "1x1"},
		{"BOTDESK_MIN_FREE_MB", "-1"},      {"BOTDESK_MIN_FREE_MB", "lots"},
		{"BOTDESK_X_LOCK_DIR", "tmp"},      {"BOTDESK_LAUNCHER", "launcher.sh"},
		{"BOTDESK_PACKAGE_MANAGER", "yum"}, {"BOTDESK_STATE_DIR", "state"},
		{"BOTDESK_GEOMETRY", ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		setenv(cases[i][0], cases[i][1], 1);
		struct settings s;
		struct error err = {{0}};
		assert_int_equal(settings_load(&s, &err), -EINVAL);
		assert_non_null(strstr(err.msg, cases[i][0]));
		unsetenv(cases[i][0]);
	}
}

static void config_file_and_environment_wins(void **state)
{
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/.config/botdesk", home);
	char cmd[4300];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	assert_int_equal(system(cmd), 0);
	unit_write(dir, "botdesk.conf",
		   "# comment\n\ngeometry = 800x600\n display_band=30-31 \nmin_free_mb = 0\n");
	struct settings s;
	struct error err = {{0}};
	assert_int_equal(settings_load(&s, &err), 0);
	assert_string_equal(s.geometry, "800x600");
	assert_int_equal(s.band_lo, 30);
	assert_true(s.min_free_mb == 0);
	settings_free(&s);
	setenv("BOTDESK_GEOMETRY", "1024x768", 1);
	assert_int_equal(settings_load(&s, &err), 0);
	assert_string_equal(s.geometry, "1024x768");
	settings_free(&s);
	unsetenv("BOTDESK_GEOMETRY");

	unit_write(dir, "botdesk.conf", "geometry = 800x600\nbogus = 1\n");
	assert_int_equal(settings_load(&s, &err), -EINVAL);
	char want[4400];
	snprintf(want, sizeof(want), "%s/botdesk.conf:2: unknown setting 'bogus'", dir);
	assert_string_equal(err.msg, want);
	memset(&err, 0, sizeof(err));
	/* The line number counts the comment and blank lines, and a CRLF ending is no value. */
	unit_write(dir, "botdesk.conf", "# c\r\n\r\ngeometry = 800x600\r\njust words\r\n");
	assert_int_equal(settings_load(&s, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s/botdesk.conf:4: expected 'key = value'", dir);
	assert_string_equal(err.msg, want);
	memset(&err, 0, sizeof(err));
	unit_write(dir, "botdesk.conf", "geometry = huge\n");
	assert_int_equal(settings_load(&s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "botdesk.conf: geometry = 'huge'"));
}

/* The flight recorder: off by default, always or off only, a limit of at least 1 MB, absolute
 * paths for its programs. */
static void record_settings(void **state)
{
	struct settings s;
	struct error err = {{0}};
	assert_int_equal(settings_load(&s, &err), 0);
	assert_false(s.record_always);
	assert_true(s.record_max_mb == 1024);
	assert_string_equal(s.ffmpeg, "/usr/bin/ffmpeg");
	settings_free(&s);
	setenv("BOTDESK_RECORD", "always", 1);
	setenv("BOTDESK_RECORD_MAX_MB", "5", 1);
	assert_int_equal(settings_load(&s, &err), 0);
	assert_true(s.record_always);
	assert_true(s.record_max_mb == 5);
	settings_free(&s);
	static const char *const bad[][2] = {
		{"BOTDESK_RECORD", "yes"},
		{"BOTDESK_RECORD_MAX_MB", "0"},
		{"BOTDESK_RECORD_MAX_MB", "-1"},
		{"BOTDESK_FFMPEG", "ffmpeg"},
		{"BOTDESK_RECORDER", "botdesk-record"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *keep = getenv(bad[i][0]);
		char *saved = keep ? strdup(keep) : NULL;
		setenv(bad[i][0], bad[i][1], 1);
		memset(&err, 0, sizeof(err));
		assert_int_equal(settings_load(&s, &err), -EINVAL);
		assert_non_null(strstr(err.msg, bad[i][0]));
		if (saved) {
			setenv(bad[i][0], saved, 1);
		} else {
			unsetenv(bad[i][0]);
		}
		free(saved);
	}
	unsetenv("BOTDESK_RECORD");
	unsetenv("BOTDESK_RECORD_MAX_MB");
}

/* The idle stop in minutes (fractions for tests), the view group and its directory. */
static void idle_stop_and_view_group(void **state)
{
	struct settings s;
	struct error err = {{0}};
	assert_int_equal(settings_load(&s, &err), 0);
	assert_true(s.idle_stop_ms == 30 * 60 * 1000);
	assert_false(s.view_group);
	assert_null(s.view_dir);
	settings_free(&s);
	setenv("BOTDESK_IDLE_STOP_MINUTES", "0.034", 1);
	assert_int_equal(settings_load(&s, &err), 0);
	assert_true(s.idle_stop_ms == 2040);
	settings_free(&s);
	setenv("BOTDESK_IDLE_STOP_MINUTES", "0", 1);
	assert_int_equal(settings_load(&s, &err), 0);
	assert_true(s.idle_stop_ms == 0);
	settings_free(&s);
	setenv("BOTDESK_IDLE_STOP_MINUTES", "-1", 1);
	assert_int_equal(settings_load(&s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "BOTDESK_IDLE_STOP_MINUTES"));
	unsetenv("BOTDESK_IDLE_STOP_MINUTES");
	/* A group needs a directory it can reach: the profile's is private. */
	err = (struct error){{0}};
	setenv("BOTDESK_VIEW_GROUP", "12345", 1);
	assert_int_equal(settings_load(&s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "BOTDESK_VIEW_DIR"));
	setenv("BOTDESK_VIEW_DIR", "/srv/view", 1);
	assert_int_equal(settings_load(&s, &err), 0);
	assert_true(s.view_group);
	assert_int_equal(s.view_gid, 12345);
	assert_string_equal(s.view_dir, "/srv/view");
	settings_free(&s);
	err = (struct error){{0}};
	setenv("BOTDESK_VIEW_GROUP", "0", 1);
	assert_int_equal(settings_load(&s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "root"));
	err = (struct error){{0}};
	setenv("BOTDESK_VIEW_GROUP", "no-such-group-here", 1);
	assert_int_equal(settings_load(&s, &err), -EINVAL);
	unsetenv("BOTDESK_VIEW_GROUP");
	unsetenv("BOTDESK_VIEW_DIR");
}

/* A shell that inherited a desktop's XDG_CONFIG_HOME (<profile dir>/xdg) still gets the user's
 * botdesk.conf; any other XDG_CONFIG_HOME is honoured. */
static void desktop_config_home_is_not_ours(void **state)
{
	char dir[4200], cmd[8600];
	snprintf(dir, sizeof(dir), "%s/.config/botdesk", home);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s/p/xdg/botdesk' '%s/other/botdesk'", dir, home,
		 home);
	assert_int_equal(system(cmd), 0);
	unit_write(dir, "botdesk.conf", "geometry = 800x600\n");
	snprintf(dir, sizeof(dir), "%s/p/xdg/botdesk", home);
	unit_write(dir, "botdesk.conf", "geometry = 640x480\n");
	snprintf(dir, sizeof(dir), "%s/other/botdesk", home);
	unit_write(dir, "botdesk.conf", "geometry = 1024x768\n");

	struct settings s;
	struct error err = {{0}};
	/* Not yet a profile's directory (no start.lock beside xdg/): an ordinary XDG dir. */
	snprintf(dir, sizeof(dir), "%s/p/xdg", home);
	setenv("XDG_CONFIG_HOME", dir, 1);
	assert_int_equal(settings_load(&s, &err), 0);
	assert_string_equal(s.geometry, "640x480");
	settings_free(&s);
	/* A profile's directory: the desktop's config is not botdesk's. */
	snprintf(dir, sizeof(dir), "%s/p", home);
	unit_write(dir, "start.lock", "");
	snprintf(dir, sizeof(dir), "%s/p/xdg/", home);
	setenv("XDG_CONFIG_HOME", dir, 1);
	assert_int_equal(settings_load(&s, &err), 0);
	assert_string_equal(s.geometry, "800x600");
	snprintf(cmd, sizeof(cmd), "%s/.config/botdesk/botdesk.conf", home);
	assert_string_equal(s.config_file, cmd);
	settings_free(&s);
	/* The desktop's XDG_CACHE_HOME (xdg/.cache) is not where the user's allocation lock is. */
	snprintf(dir, sizeof(dir), "%s/p/xdg/.cache", home);
	setenv("XDG_CACHE_HOME", dir, 1);
	assert_int_equal(settings_load(&s, &err), 0);
	snprintf(cmd, sizeof(cmd), "%s/.cache/botdesk/alloc.lock", home);
	assert_string_equal(s.alloc_lock, cmd);
	settings_free(&s);
	snprintf(dir, sizeof(dir), "%s/other/.cache", home);
	setenv("XDG_CACHE_HOME", dir, 1);
	assert_int_equal(settings_load(&s, &err), 0);
	snprintf(cmd, sizeof(cmd), "%s/other/.cache/botdesk/alloc.lock", home);
	assert_string_equal(s.alloc_lock, cmd);
	settings_free(&s);
	unsetenv("XDG_CACHE_HOME");
	/* Any other XDG_CONFIG_HOME is the user's choice. */
	snprintf(dir, sizeof(dir), "%s/other", home);
	setenv("XDG_CONFIG_HOME", dir, 1);
	assert_int_equal(settings_load(&s, &err), 0);
	assert_string_equal(s.geometry, "1024x768");
	settings_free(&s);
	unsetenv("XDG_CONFIG_HOME");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(malformed_values_name_the_variable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(config_file_and_environment_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(idle_stop_and_view_group, setup, teardown),
		cmocka_unit_test_setup_teardown(desktop_config_home_is_not_ours, setup, teardown),
		cmocka_unit_test_setup_teardown(record_settings, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
