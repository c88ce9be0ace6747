#include "unit.h"

#include <errno.h>

#include "pathjoin.h"

static void joins_what_fits(void **state)
{
	char buf[16];
	assert_int_equal(path_join(buf, sizeof(buf), "/tmp", "x"), 0);
	assert_string_equal(buf, "/tmp/x");
	/* Exactly full: 15 characters and the NUL. */
	assert_int_equal(path_join(buf, sizeof(buf), "/abcdefghi", "jkll"), 0);
	assert_string_equal(buf, "/abcdefghi/jkll");
	assert_int_equal(path_format(buf, sizeof(buf), "%s/.X%u-lock", "/tmp", 10u), 0);
	assert_string_equal(buf, "/tmp/.X10-lock");
}

/* A cut path could name another file: ".../X1" is not ".../X10". Nothing is left in buf. */
static void refuses_what_does_not_fit(void **state)
{
	char buf[8] = "junk";
	assert_int_equal(path_format(buf, sizeof(buf), "/t/X%u", 10000u), -ENAMETOOLONG);
	assert_string_equal(buf, "");
	assert_int_equal(path_join(buf, sizeof(buf), "/abcdef", "g"), -ENAMETOOLONG);
	assert_string_equal(buf, "");
	assert_int_equal(path_join(buf, 0, "a", "b"), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(joins_what_fits),
		cmocka_unit_test(refuses_what_does_not_fit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
