/* Xvnc's command line and the choice of server binary. */
#include "session-test.h"

#include "strv.h"
#include "xserver.h"

static const char *arg_after(const struct strv *v, const char *opt)
{
	for (size_t i = 0; i + 1 < v->n; i++) {
		if (strcmp(v->v[i], opt) == 0) {
			return v->v[i + 1];
		}
	}
	return NULL;
}

static bool has_arg(const struct strv *v, const char *arg)
{
	for (size_t i = 0; i < v->n; i++) {
		if (strcmp(v->v[i], arg) == 0) {
			return true;
		}
	}
	return false;
}

static struct strv build_glx(const char *profile, bool glx)
{
	struct xserver_args a = {
		.server = "/usr/bin/Xtigervnc",
		.profile = profile,
		.display = 42,
		.displayfd = 5,
		.xauth_path = "/state/p/Xauthority",
		.socket_path = "/state/p/rfb.sock",
		.width = 1440,
		.height = 900,
		.glx = glx,
	};
	struct strv v = {0};
	assert_int_equal(xserver_argv(&a, &v), 0);
	return v;
}

static struct strv build(const char *profile)
{
	return build_glx(profile, false);
}

/* The lean desktop's server loads no Mesa; the full one keeps GLX. */
static void test_glx(void **state)
{
	struct strv v = build_glx("p", false);
	assert_string_equal(arg_after(&v, "-extension"), "GLX");
	strv_free(&v);
	v = build_glx("p", true);
	assert_false(has_arg(&v, "-extension"));
	assert_false(has_arg(&v, "GLX"));
	strv_free(&v);
}

static void test_unix_socket_only(void **state)
{
	struct strv v = build("p");
	assert_string_equal(v.v[0], "/usr/bin/Xtigervnc");
	assert_string_equal(v.v[1], ":42");
	assert_string_equal(arg_after(&v, "-rfbport"), "-1");
	assert_string_equal(arg_after(&v, "-nolisten"), "tcp");
	assert_string_equal(arg_after(&v, "-rfbunixpath"), "/state/p/rfb.sock");
	assert_string_equal(arg_after(&v, "-rfbunixmode"), "0600");
	assert_string_equal(arg_after(&v, "-SecurityTypes"), "None");
	assert_string_equal(arg_after(&v, "-displayfd"), "5");
	assert_string_equal(arg_after(&v, "-auth"), "/state/p/Xauthority");
	strv_free(&v);
}

static void test_clipboard_and_display(void **state)
{
	struct strv v = build("p");
	assert_true(has_arg(&v, "-SendCutText=0"));
	assert_true(has_arg(&v, "-AcceptCutText=1"));
	assert_string_equal(arg_after(&v, "-MaxCutText"), "262144");
	assert_string_equal(arg_after(&v, "-AllowOverride"), "desktop");
	assert_true(has_arg(&v, "-AlwaysShared"));
	assert_true(has_arg(&v, "-AcceptSetDesktopSize=1"));
	/* The gate is one address to Xvnc: its blacklist would lock every door. */
	assert_true(has_arg(&v, "-UseBlacklist=0"));
	/* Each viewer costs the log a line or two, not 600 bytes. */
	assert_string_equal(arg_after(&v, "-Log"), "*:stderr:10");
	assert_string_equal(arg_after(&v, "-FrameRate"), "30");
	assert_string_equal(arg_after(&v, "-depth"), "24");
	assert_string_equal(arg_after(&v, "-dpi"), "96");
	assert_string_equal(arg_after(&v, "-geometry"), "1440x900");
	assert_string_equal(arg_after(&v, "-desktop"), "botdesk:p");
	strv_free(&v);
}

/* A hostile profile name stays one argument: it cannot add an option. */
static void test_odd_profile_is_one_argument(void **state)
{
	struct strv v = build("x -rfbport 5900 -SecurityTypes VncAuth");
	assert_string_equal(arg_after(&v, "-desktop"),
			    "botdesk:x -rfbport 5900 -SecurityTypes VncAuth");
	assert_string_equal(arg_after(&v, "-rfbport"), "-1");
	size_t ports = 0;
	for (size_t i = 0; i < v.n; i++) {
		ports += strcmp(v.v[i], "-rfbport") == 0;
	}
	assert_int_equal(ports, 1);
	strv_free(&v);
}

static void test_help_text(void **state)
{
	const char tiger[] = "-rfbport port\n-rfbunixpath path\n";
	const char other[] = "Xvnc: RealVNC\n-rfbport port\n";
	assert_true(xserver_help_has_unix_path(tiger, sizeof(tiger) - 1));
	assert_false(xserver_help_has_unix_path(other, sizeof(other) - 1));
}

enum fake { FAKE_OTHER, FAKE_TIGER, FAKE_TIGER_HELP_ONLY };

static void write_server(const char *dir, const char *name, enum fake kind)
{
	static const char *const help[] = {
		[FAKE_OTHER] = "echo '-rfbport port' >&2",
		/* The option's name is in the file itself: found without running it. */
		[FAKE_TIGER] = "echo '-rfbunixpath path' >&2",
		/* Only what -help prints names it: found by running the server. */
		[FAKE_TIGER_HELP_ONLY] = "echo \"-rfbunix$(echo path) path\" >&2",
	};
	char text[512];
	snprintf(text, sizeof(text), "#!/bin/sh\n%s\nexit 1\n", help[kind]);
	st_write(dir, name, text, 0755);
}

static void test_find_prefers_xtigervnc(void **state)
{
	char *dir = unit_mkdtemp();
	write_server(dir, "Xvnc", FAKE_TIGER);
	write_server(dir, "Xtigervnc", FAKE_TIGER);
	char *path = NULL;
	struct error err = {0};
	assert_int_equal(xserver_find(dir, &path, &err), 0);
	assert_string_equal(path, st_path(dir, "Xtigervnc"));
	free(path);
	unit_rm_rf(dir);
}

static void test_find_refuses_another_vendor(void **state)
{
	char *dir = unit_mkdtemp();
	write_server(dir, "Xvnc", FAKE_OTHER);
	char *path = NULL;
	struct error err = {0};
	assert_int_equal(xserver_find(dir, &path, &err), -ENOEXEC);
	assert_non_null(strstr(err.msg, "not TigerVNC"));
	assert_non_null(strstr(err.msg, "tigervnc-standalone-server"));
	assert_non_null(strstr(err.msg, "tigervnc-x11-server"));
	unit_rm_rf(dir);
}

static void test_find_asks_help(void **state)
{
	char *dir = unit_mkdtemp();
	write_server(dir, "Xvnc", FAKE_TIGER_HELP_ONLY);
	char *path = NULL;
	struct error err = {0};
	assert_int_equal(xserver_find(dir, &path, &err), 0);
	assert_string_equal(path, st_path(dir, "Xvnc"));
	free(path);
	unit_rm_rf(dir);
}

static void test_find_none(void **state)
{
	char *dir = unit_mkdtemp();
	char *path = NULL;
	struct error err = {0};
	assert_int_equal(xserver_find(dir, &path, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "tigervnc-standalone-server"));
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unix_socket_only),
		cmocka_unit_test(test_glx),
		cmocka_unit_test(test_clipboard_and_display),
		cmocka_unit_test(test_odd_profile_is_one_argument),
		cmocka_unit_test(test_help_text),
		cmocka_unit_test(test_find_prefers_xtigervnc),
		cmocka_unit_test(test_find_refuses_another_vendor),
		cmocka_unit_test(test_find_asks_help),
		cmocka_unit_test(test_find_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
