#include "unit.h"

#include <errno.h>

#include "envfile.h"

static void parses_lines(void **state)
{
	char text[] = "\xef\xbb\xbf"
		      "DISPLAY=:21\n"
		      "  XAUTHORITY=/s/Xauthority  \r\n"
		      "\n"
		      "# a comment\n"
		      "DBUS_SESSION_BUS_ADDRESS=unix:path=/tmp/x,guid=1=2\n"
		      "DISPLAY=:22";
	struct envfile e;
	assert_int_equal(envfile_parse(text, &e), 0);
	assert_int_equal(e.n, 4);
	assert_string_equal(envfile_get(&e, "DISPLAY"), ":22"); /* the last one wins */
	assert_string_equal(envfile_get(&e, "XAUTHORITY"), "/s/Xauthority");
	assert_string_equal(envfile_get(&e, "DBUS_SESSION_BUS_ADDRESS"),
			    "unix:path=/tmp/x,guid=1=2");
	assert_null(envfile_get(&e, "HOME"));
}

static void refuses_malformed(void **state)
{
	static const char *const bad[] = {"NOEQUALS\n", "1X=2\n", "A B=1\n", "=x\n", "A-B=1\n"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char buf[64];
		snprintf(buf, sizeof(buf), "%s", bad[i]);
		struct envfile e;
		assert_int_equal(envfile_parse(buf, &e), -EINVAL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_lines),
		cmocka_unit_test(refuses_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
