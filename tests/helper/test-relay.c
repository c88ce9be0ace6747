/* What the runner prints of the helper's output: no control character of any kind reaches the
 * terminal, C1 included, while valid UTF-8 (apt's own progress text) stays intact. */
#include "../unit.h"
#include "installrelay.h"
#include "util.h"

static void assert_sanitized(const char *in, bool utf8, const char *want)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", in);
	install_sanitize(buf, utf8);
	assert_string_equal(buf, want);
}

static void test_c0_and_del(void **state)
{
	assert_sanitized("a\033[2Jb\x7f\tc\r", true, "a?[2Jb?\tc?");
	assert_sanitized("a\033[2Jb\x7f\tc\r", false, "a?[2Jb?\tc?");
}

static void test_c1_bytes(void **state)
{
	/* CSI, OSC, DCS, ST as single bytes: controls to a terminal not in UTF-8 mode. */
	assert_sanitized("x\x9b"
			 "2Jy\x9d"
			 "0;t\x9c\x90\x80",
			 true, "x?2Jy?0;t???");
	assert_sanitized("x\x9b"
			 "2Jy\x9d"
			 "0;t\x9c\x90\x80",
			 false, "x?2Jy?0;t???");
}

static void test_c1_encoded(void **state)
{
	/* U+009B as UTF-8: xterm and others treat C1 code points as controls in UTF-8 mode too. */
	assert_sanitized("a\xc2\x9b"
			 "2J",
			 true, "a??2J");
	assert_sanitized("a\xc2\x85z", true, "a??z");
}

static void test_utf8_kept(void **state)
{
	/* é, the en dash and a quote whose last bytes are 0x80 and 0x9b, U+10348. */
	const char *text = "caf\xc3\xa9 \xe2\x80\x93 \xe2\x80\x9b \xf0\x90\x8d\x88 \xc2\xa0";
	assert_sanitized(text, true, text);
	/* Not a UTF-8 locale: those continuation bytes could be C1 controls, so none survive. */
	assert_sanitized("caf\xc3\xa9 \xe2\x80\x9b", false, "caf?? ???");
}

static void test_utf8_invalid(void **state)
{
	/* Overlong, surrogate, beyond U+10FFFF, truncated at the end, stray continuation. */
	assert_sanitized("\xc0\xaf|\xe0\x80\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x80", true,
			 "??|???|???|????|??");
	assert_sanitized("\xa9z\xe2\x28\xa1", true, "?z?(?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c0_and_del),   cmocka_unit_test(test_c1_bytes),
		cmocka_unit_test(test_c1_encoded),   cmocka_unit_test(test_utf8_kept),
		cmocka_unit_test(test_utf8_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
