/* The desktop programs' environment and the env file. */
#include "session-test.h"

#include <errno.h>

#include "childenv.h"

static const struct desktop_vars vars = {
	.display = ":21",
	.xauthority = "/s/p/Xauthority",
	.dbus = "unix:path=/tmp/dbus-x,guid=1",
	.config_home = "/s/p/xdg",
	.cache_home = "/s/p/xdg/.cache",
	.data_home = "/s/p/xdg/.local-share",
};

static const char *get(const struct strv *e, const char *key)
{
	long i = strv_find_env(e, key);
	return i < 0 ? NULL : strchr(e->v[i], '=') + 1;
}

static void test_foreign_desktop_dropped(void **state)
{
	char *base[] = {
		(char[]){"HOME=/home/u"},
		(char[]){"PATH=/usr/bin:/bin"},
		(char[]){"DISPLAY=:0"},
		(char[]){"XAUTHORITY=/home/u/.Xauthority"},
		(char[]){"WAYLAND_DISPLAY=wayland-0"},
		(char[]){"DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1/bus"},
		(char[]){"SESSION_MANAGER=local/host:@/tmp/.ICE-unix/1"},
		(char[]){"BOTDESK_SOCKET=/s/p/rfb.sock"},
		(char[]){"LISTEN_FDS=2"},
		(char[]){"XDG_CURRENT_DESKTOP=GNOME"},
		(char[]){"LANG=de_DE.UTF-8"},
		(char[]){"NO_AT_BRIDGE=1"},
		NULL,
	};
	struct strv e = {0};
	assert_int_equal(childenv_build(base, &vars, &e), 0);
	assert_string_equal(get(&e, "HOME"), "/home/u");
	assert_string_equal(get(&e, "PATH"), "/usr/bin:/bin");
	assert_string_equal(get(&e, "DISPLAY"), ":21");
	assert_string_equal(get(&e, "XAUTHORITY"), "/s/p/Xauthority");
	assert_string_equal(get(&e, "DBUS_SESSION_BUS_ADDRESS"), "unix:path=/tmp/dbus-x,guid=1");
	assert_string_equal(get(&e, "XDG_CONFIG_HOME"), "/s/p/xdg");
	assert_string_equal(get(&e, "XDG_CURRENT_DESKTOP"), "XFCE");
	assert_string_equal(get(&e, "GDK_BACKEND"), "x11");
	/* Accessibility on: applications publish their tree (issue 27). */
	assert_null(get(&e, "NO_AT_BRIDGE"));
	assert_null(get(&e, "GTK_A11Y"));
	assert_string_equal(get(&e, "ACCESSIBILITY_ENABLED"), "1");
	assert_string_equal(get(&e, "LANG"), "de_DE.UTF-8");
	assert_null(get(&e, "WAYLAND_DISPLAY"));
	assert_null(get(&e, "SESSION_MANAGER"));
	assert_null(get(&e, "BOTDESK_SOCKET"));
	assert_null(get(&e, "LISTEN_FDS"));
	/* Each variable once. */
	size_t displays = 0;
	for (size_t i = 0; i < e.n; i++) {
		displays += strncmp(e.v[i], "DISPLAY=", 8) == 0;
	}
	assert_int_equal(displays, 1);
	strv_free(&e);
}

/* Issue 8.7: an allowlist. Credentials under any name stay out; the benign fixed list and the
 * names the user passes come through; names the desktop sets itself never do. */
static void test_allowlist(void **state)
{
	char *base[] = {
		(char[]){"HOME=/home/u"},
		(char[]){"USER=u"},
		(char[]){"LOGNAME=u"},
		(char[]){"SHELL=/bin/bash"},
		(char[]){"TZ=Europe/Paris"},
		(char[]){"LC_TIME=fr_FR.UTF-8"},
		(char[]){"PGPASSWORD=p1"},
		(char[]){"DATABASE_URL=postgres://u:p2@h/db"},
		(char[]){"AWS_SECRET_KEY=p3"},
		(char[]){"SECRET_KEY=p4"},
		(char[]){"github_token=p5"},
		(char[]){"OPENAI_KEY=p6"},
		(char[]){"API_KEY=p7"},
		(char[]){"AZURE_OPENAI_KEY=p8"},
		(char[]){"GH_PAT=p9"},
		(char[]){"MYSQL_PWD=p10"},
		(char[]){"SSH_AUTH_SOCK=/tmp/ssh-x/agent.1"},
		(char[]){"HTTPS_PROXY=http://proxy:3128"},
		(char[]){"NO_PROXY=localhost"},
		(char[]){"DISPLAY=:0"},
		NULL,
	};
	struct desktop_vars v = vars;
	v.pass = "HTTPS_PROXY, NO_PROXY,DISPLAY";
	struct strv e = {0};
	assert_int_equal(childenv_build(base, &v, &e), 0);
	static const char *const gone[] = {
		"PGPASSWORD",   "DATABASE_URL", "AWS_SECRET_KEY", "SECRET_KEY",
		"github_token", "OPENAI_KEY",   "API_KEY",        "AZURE_OPENAI_KEY",
		"GH_PAT",       "MYSQL_PWD",    "SSH_AUTH_SOCK",
	};
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++) {
		assert_null(get(&e, gone[i]));
	}
	assert_string_equal(get(&e, "USER"), "u");
	assert_string_equal(get(&e, "LOGNAME"), "u");
	assert_string_equal(get(&e, "SHELL"), "/bin/bash");
	assert_string_equal(get(&e, "TZ"), "Europe/Paris");
	assert_string_equal(get(&e, "LC_TIME"), "fr_FR.UTF-8");
	assert_string_equal(get(&e, "HTTPS_PROXY"), "http://proxy:3128");
	assert_string_equal(get(&e, "NO_PROXY"), "localhost");
	/* Passing DISPLAY cannot point the desktop at another display. */
	assert_string_equal(get(&e, "DISPLAY"), ":21");
	strv_free(&e);
	/* Without a pass list, a proxy setting is dropped like anything else. */
	v.pass = NULL;
	assert_int_equal(childenv_build(base, &v, &e), 0);
	assert_null(get(&e, "HTTPS_PROXY"));
	strv_free(&e);
}

static void test_locale_default_and_no_bus(void **state)
{
	char *base[] = {(char[]){"HOME=/h"}, NULL};
	struct desktop_vars v = vars;
	v.dbus = NULL;
	struct strv e = {0};
	assert_int_equal(childenv_build(base, &v, &e), 0);
	assert_string_equal(get(&e, "LANG"), "C.UTF-8");
	assert_null(get(&e, "DBUS_SESSION_BUS_ADDRESS"));
	strv_free(&e);
}

static void test_env_file(void **state)
{
	char *text;
	size_t len;
	assert_int_equal(childenv_format_file(&vars, &text, &len), 0);
	assert_string_equal(text, "DISPLAY=:21\n"
				  "XAUTHORITY=/s/p/Xauthority\n"
				  "DBUS_SESSION_BUS_ADDRESS=unix:path=/tmp/dbus-x,guid=1\n"
				  "XDG_CONFIG_HOME=/s/p/xdg\n"
				  "XDG_CACHE_HOME=/s/p/xdg/.cache\n"
				  "XDG_DATA_HOME=/s/p/xdg/.local-share\n"
				  "ACCESSIBILITY_ENABLED=1\n"
				  "GNOME_ACCESSIBILITY=1\n"
				  "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1\n");
	assert_int_equal(len, strlen(text));
	free(text);
	/* A value that would break a line is refused, not written. */
	struct desktop_vars v = vars;
	v.config_home = "/s/p\nDISPLAY=:0";
	assert_int_equal(childenv_format_file(&v, &text, &len), -EINVAL);
	v = vars;
	v.dbus = NULL;
	assert_int_equal(childenv_format_file(&v, &text, &len), -EINVAL);
}

static void test_publish(void **state)
{
	char *dir = unit_mkdtemp();
	char path[8192];
	snprintf(path, sizeof(path), "%s/env", dir);
	assert_int_equal(childenv_publish(path, "DISPLAY=:1\n", 11), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	char *t = st_read(dir, "env");
	assert_string_equal(t, "DISPLAY=:1\n");
	free(t);
	/* A symlink planted at the name is replaced, its target untouched. */
	unlink(path);
	st_write(dir, "target", "keep\n", 0600);
	assert_int_equal(symlink(st_path(dir, "target"), path), 0);
	assert_int_equal(childenv_publish(path, "DISPLAY=:2\n", 11), 0);
	t = st_read(dir, "target");
	assert_string_equal(t, "keep\n");
	free(t);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_foreign_desktop_dropped),
		cmocka_unit_test(test_allowlist),
		cmocka_unit_test(test_locale_default_and_no_bus),
		cmocka_unit_test(test_env_file),
		cmocka_unit_test(test_publish),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
