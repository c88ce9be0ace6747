/* The model picture's size (act/modelpic.c): the exact answers the API's own resize gives for
 * common screens, and over many screen sizes the invariants that make clicks land: the aspect
 * kept within a pixel, both limits held, and maximal (one more pixel of width breaks a limit). */
#include "unit.h"

#include "modelpic.h"
#include "util.h"

static unsigned tiles(unsigned w, unsigned h)
{
	return ((w + 27) / 28) * ((h + 27) / 28);
}

/* Every invariant, for one screen. */
static void check(unsigned sw, unsigned sh)
{
	unsigned w, h;
	modelpic_size(sw, sh, &w, &h);
	assert_true(w >= 1 && h >= 1);
	assert_true(w <= sw && h <= sh);
	/* Both limits, counted here independently of modelpic_fits(). */
	assert_true(w <= 1568 && h <= 1568);
	assert_true(tiles(w, h) <= 1568);
	if (w == sw && h == sh) {
		return;
	}
	/* The aspect: h is w * sh / sw within half a pixel, i.e. |2 h sw - 2 w sh| <= sw. */
	long long d = 2LL * h * sw - 2LL * w * sh;
	assert_true(d <= (long long)sw && -d <= (long long)sw);
	/* Maximal: one more pixel of width, with its height by the same rule, breaks a limit. */
	unsigned w1 = w + 1, h1 = (unsigned)((2ULL * w1 * sh + sw) / (2ULL * sw));
	assert_true(w1 > sw || w1 > 1568 || h1 > 1568 || tiles(w1, h1) > 1568);
}

static void test_known(void **state)
{
	static const unsigned cases[][4] = {
		/* The case: 52 x 33 = 1716 tiles; the API's resize gives 1389 x 868. */
		{1440, 900, 1389, 868},
		{1920, 1080, 1456, 819},
		{1024, 768, 1024, 768}, /* 37 x 28 = 1036 tiles: fits */
		{800, 600, 800, 600},
		{1280, 800, 1280, 800}, /* 46 x 29 = 1334 */
		{3840, 2160, 1456, 819},
		{1366, 768, 1366, 768}, /* 49 x 28 = 1372 */
		{900, 1440, 868, 1389}, /* portrait */
		{1080, 1920, 819, 1456},
		{0, 0, 0, 0},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned w, h;
		modelpic_size(cases[i][0], cases[i][1], &w, &h);
		print_message("%ux%u -> %ux%u\n", cases[i][0], cases[i][1], w, h);
		assert_int_equal(w, cases[i][2]);
		assert_int_equal(h, cases[i][3]);
		if (cases[i][0]) {
			check(cases[i][0], cases[i][1]);
		}
	}
}

static void test_many(void **state)
{
	/* Every size from 16 to 8192 in odd steps both ways, landscape and portrait, square and
	 * very skinny. */
	for (unsigned sw = 16; sw <= 8192; sw += 61) {
		for (unsigned sh = 16; sh <= 8192; sh += 67) {
			check(sw, sh);
		}
	}
	static const unsigned odd[][2] = {
		{1568, 1568}, {1569, 1}, {8192, 16}, {16, 8192}, {2560, 1600}, {2560, 1440},
		{3440, 1440}, {1600, 900}, {1680, 1050}, {5120, 2880}, {1, 1}, {1, 1568},
	};
	for (size_t i = 0; i < ARRAY_SIZE(odd); i++) {
		check(odd[i][0], odd[i][1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
