#include "unit.h"

#include <errno.h>

#include "parse.h"

static void u64_accepts_plain_digits(void **state)
{
	uint64_t v;
	assert_int_equal(parse_u64("0", 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_u64("0042", 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(parse_u64("18446744073709551615", UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
}

static void u64_refuses_everything_else(void **state)
{
	static const char *const bad[] = {"",     " 1",  "1 ", "+1",  "-1", "1.0",
					  "0x10", "1e3", "١",  "12a", "\n"};
	uint64_t v = 7;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_u64(bad[i], UINT64_MAX, &v), -EINVAL);
	}
	assert_int_equal(parse_u64(NULL, 1, &v), -EINVAL);
	assert_int_equal(v, 7); /* untouched on failure */
}

static void u64_overflow_and_range(void **state)
{
	uint64_t v;
	assert_int_equal(parse_u64("18446744073709551616", UINT64_MAX, &v), -ERANGE);
	assert_int_equal(parse_u64("9999999999999999999999999999999999999999", UINT64_MAX, &v),
			 -ERANGE);
	/* Garbage after an overflowing prefix is still garbage. */
	assert_int_equal(parse_u64("99999999999999999999999x", UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_u64("11", 10, &v), -ERANGE);
	assert_int_equal(parse_u64_n("123", 2, 100, &v), 0);
	assert_int_equal(v, 12);
}

static void seconds(void **state)
{
	uint64_t ms;
	assert_int_equal(parse_seconds_ms("30", 3600000, &ms), 0);
	assert_int_equal(ms, 30000);
	assert_int_equal(parse_seconds_ms("0.05", 3600000, &ms), 0);
	assert_int_equal(ms, 50);
	assert_int_equal(parse_seconds_ms("1.5", 3600000, &ms), 0);
	assert_int_equal(ms, 1500);
	assert_int_equal(parse_seconds_ms("1.", 3600000, &ms), -EINVAL);
	assert_int_equal(parse_seconds_ms(".5", 3600000, &ms), -EINVAL);
	assert_int_equal(parse_seconds_ms("1.2345", 3600000, &ms), -EINVAL);
	assert_int_equal(parse_seconds_ms("-1", 3600000, &ms), -EINVAL);
	assert_int_equal(parse_seconds_ms("3601", 3600000, &ms), -ERANGE);
}

static void geometry_and_range(void **state)
{
	unsigned w, h, lo, hi;
	assert_int_equal(parse_geometry("1440x900", 64, 8192, &w, &h), 0);
	assert_int_equal(w, 1440);
	assert_int_equal(h, 900);
	assert_int_equal(parse_geometry("1440X900", 64, 8192, &w, &h), -EINVAL);
	assert_int_equal(parse_geometry("1440x", 64, 8192, &w, &h), -EINVAL);
	assert_int_equal(parse_geometry("10x900", 64, 8192, &w, &h), -ERANGE);
	assert_int_equal(parse_geometry("1440x900x2", 64, 8192, &w, &h), -EINVAL);
	assert_int_equal(parse_range("20-89", 32767, &lo, &hi), 0);
	assert_int_equal(lo, 20);
	assert_int_equal(hi, 89);
	assert_int_equal(parse_range("89-20", 32767, &lo, &hi), -ERANGE);
	assert_int_equal(parse_range("20", 32767, &lo, &hi), -EINVAL);
	assert_int_equal(parse_range("20-99999", 32767, &lo, &hi), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(u64_accepts_plain_digits),
		cmocka_unit_test(u64_refuses_everything_else),
		cmocka_unit_test(u64_overflow_and_range),
		cmocka_unit_test(seconds),
		cmocka_unit_test(geometry_and_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
