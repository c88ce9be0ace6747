/* The model picture's size (act/modelpic.c): the exact answers the API's own resize gives for
 * common screens, and over many screen sizes the invariants that make clicks land: the aspect
 * kept within a pixel, both limits held, and maximal (one more pixel of width breaks a limit);
 * and the MCP server's requests read in that picture (modelpic_request()). */
#include "unit.h"

#include <errno.h>

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
		{1440, 900, 1389, 868},  {1920, 1080, 1456, 819},
		{1024, 768, 1024, 768},                          /* 37 x 28 = 1036 tiles: fits */
		{800, 600, 800, 600},    {1280, 800, 1280, 800}, /* 46 x 29 = 1334 */
		{3840, 2160, 1456, 819}, {1366, 768, 1366, 768}, /* 49 x 28 = 1372 */
		{900, 1440, 868, 1389},                          /* portrait */
		{1080, 1920, 819, 1456}, {0, 0, 0, 0},
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
		{1568, 1568}, {1569, 1},   {8192, 16},   {16, 8192},   {2560, 1600}, {2560, 1440},
		{3440, 1440}, {1600, 900}, {1680, 1050}, {5120, 2880}, {1, 1},       {1, 1568},
	};
	for (size_t i = 0; i < ARRAY_SIZE(odd); i++) {
		check(odd[i][0], odd[i][1]);
	}
}

/* The MCP server's requests in the model picture's space on a 1440x900 screen. */
static void test_request(void **state)
{
	struct act_req rq, m;
	struct error err = {{0}};
	/* A screenshot without max gets the model size; with max or a fitting screen, not. */
	act_req_init(&rq, ACT_SCREENSHOT);
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), 0);
	assert_int_equal(m.max_w, 1389);
	assert_int_equal(m.max_h, 868);
	rq.max_w = 960;
	rq.max_h = 600;
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), 0);
	assert_int_equal(m.max_w, 960);
	act_req_init(&rq, ACT_SCREENSHOT);
	assert_int_equal(modelpic_request(&rq, 1280, 800, &m, &err), 0);
	assert_int_equal(m.max_w, 0);
	/* A click without from is read in the model picture, and scales back to the screen. */
	act_req_init(&rq, ACT_CLICK);
	rq.x = 1388;
	rq.y = 867;
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), 0);
	assert_int_equal(m.from_w, 1389);
	assert_int_equal(m.from_h, 868);
	unsigned x, y, x2, y2;
	assert_int_equal(act_resolve_points(&m, 1440, 900, &x, &y, &x2, &y2, &err), 0);
	assert_int_equal(x, 1439);
	assert_int_equal(y, 899);
	/* Off the model picture: the message names it, and how to give screen pixels. */
	rq.x = 1389;
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "off the 1389x868 picture"));
	assert_non_null(strstr(err.msg, "from = the screen's size, 1440x900"));
	/* from as given wins; the screen's size means screen pixels. */
	rq.from_w = 1440;
	rq.from_h = 900;
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), 0);
	assert_int_equal(act_resolve_points(&m, 1440, 900, &x, &y, &x2, &y2, &err), 0);
	assert_int_equal(x, 1389);
	/* A drag checks both ends. */
	act_req_init(&rq, ACT_DRAG);
	rq.x2 = 2000;
	err = (struct error){{0}};
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "x2,y2"));
	/* The cursor is answered in the model picture. */
	act_req_init(&rq, ACT_CURSOR);
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), 0);
	assert_int_equal(m.from_w, 1389);
	/* Keys are not coordinates. */
	act_req_init(&rq, ACT_KEY);
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), 0);
	assert_int_equal(m.from_w, 0);
	/* A region in the model picture becomes the screen pixels covering it; the whole picture
	 * is the whole screen. */
	act_req_init(&rq, ACT_SCREENSHOT);
	rq.region = true;
	rq.rw = 1389;
	rq.rh = 868;
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), 0);
	assert_true(m.rx == 0 && m.ry == 0 && m.rw == 1440 && m.rh == 900);
	assert_int_equal(m.max_w, 0);
	rq.rx = 100;
	rq.ry = 50;
	rq.rw = 10;
	rq.rh = 10;
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), 0);
	/* x [100, 110) covers screen [103.67, 114.04): pixels 103 to 114; y [50, 60) covers
	 * [51.84, 62.21): 51 to 62. */
	assert_true(m.rx == 103 && m.rw == 12 && m.ry == 51 && m.rh == 12);
	rq.rx = 1380;
	err = (struct error){{0}};
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "reaches outside the 1389x868 picture"));
	/* ... or in from's picture. */
	rq.from_w = 1440;
	rq.from_h = 900;
	assert_int_equal(modelpic_request(&rq, 1440, 900, &m, &err), 0);
	assert_true(m.rx == 1380 && m.rw == 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_request),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
