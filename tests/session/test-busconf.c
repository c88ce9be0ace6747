/* The desktop's bus configuration (issue 22.12): it listens only on <state>/bus, whatever bytes
 * the profile's directory holds, and only in a directory of ours that nobody else may enter. */
#include "session-test.h"

#include "busconf.h"

static void escapes_every_special_byte(void **state)
{
	(void)state;
	char buf[128];
	assert_int_equal(busconf_escape("/home/a b/x,y;z=<&>\"'\n.-_*\\", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/a%20b/x%2cy%3bz%3d%3c%26%3e%22%27%0a.-_*\\");
	assert_int_equal(busconf_escape("/\xc3\xa9", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/%c3%a9");
	/* The terminator counts. */
	assert_int_equal(busconf_escape("abc", buf, 4), 0);
	assert_int_equal(busconf_escape("abcd", buf, 4), -ENAMETOOLONG);
	assert_int_equal(busconf_escape("a b", buf, 5), -ENAMETOOLONG);
}

static void listens_only_in_the_private_directory(void **state)
{
	(void)state;
	char *dir = unit_mkdtemp();
	assert_int_equal(chmod(dir, 0700), 0);
	char path[256];
	struct error err = {0};
	assert_int_equal(busconf_write(dir, path, sizeof(path), &err), 0);
	assert_string_equal(path, st_path(dir, BUSCONF_FILE));
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	char *text = st_read(dir, BUSCONF_FILE);
	char want[512];
	snprintf(want, sizeof(want), "<listen>unix:path=%s/bus</listen>", dir);
	assert_non_null(strstr(text, want));
	/* One listen only: the system's would add the socket in /tmp back. */
	assert_ptr_equal(strstr(strstr(text, "<listen>") + 1, "<listen>"), NULL);
	assert_null(strstr(text, "tmpdir"));
	assert_null(strstr(text, "session.conf<"));
	/* The accessibility bus's launcher from our own service directory, listed before the
	 * system's, with its socket in the private directory (issue 27). */
	if (busconf_a11y_launcher()) {
		snprintf(want, sizeof(want), "<servicedir>%s/" BUSCONF_A11Y_DIR "</servicedir>",
			 dir);
		char *mine = strstr(text, want);
		assert_non_null(mine);
		assert_true(mine < strstr(text, "<standard_session_servicedirs/>"));
		char *svc = st_read(dir, BUSCONF_A11Y_DIR "/org.a11y.Bus.service");
		snprintf(want, sizeof(want), "Exec=/usr/bin/env XDG_RUNTIME_DIR=%s %s\n", dir,
			 busconf_a11y_launcher());
		assert_non_null(strstr(svc, "Name=org.a11y.Bus\n"));
		assert_non_null(strstr(svc, want));
		free(svc);
	}
	free(text);
	busconf_remove(dir);
	assert_int_equal(access(st_path(dir, BUSCONF_A11Y_DIR), F_OK), -1);
	assert_int_equal(access(path, F_OK), -1);

	/* A directory others may enter is refused, naming it. */
	assert_int_equal(chmod(dir, 0711), 0);
	assert_int_equal(busconf_write(dir, path, sizeof(path), &err), -EPERM);
	assert_non_null(strstr(err.msg, dir));
	assert_non_null(strstr(err.msg, "0711"));
	assert_int_equal(access(st_path(dir, BUSCONF_FILE), F_OK), -1);
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes_every_special_byte),
		cmocka_unit_test(listens_only_in_the_private_directory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
