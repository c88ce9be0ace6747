/* The thumbnail's fitting and area-averaging scaler, driven with synthetic screens and encoded
 * with the thumbnail's own PNG settings: no X server needed. (The end-to-end tests grab a real
 * desktop.) */
#include "unit.h"

#include <png.h>

#include "pngenc.h"
#include "thumbnail.h"
#include "thumbscale.h"

static void test_fit(void **state)
{
	unsigned w, h;
	thumbscale_fit(1440, 900, 960, 600, &w, &h);
	assert_int_equal(w, 960);
	assert_int_equal(h, 600);
	thumbscale_fit(1920, 1080, 960, 600, &w, &h);
	assert_int_equal(w, 960);
	assert_int_equal(h, 540);
	thumbscale_fit(1000, 3000, 960, 600, &w, &h);
	assert_int_equal(w, 200);
	assert_int_equal(h, 600);
	/* Never enlarged. */
	thumbscale_fit(800, 600, 960, 600, &w, &h);
	assert_int_equal(w, 800);
	assert_int_equal(h, 600);
	thumbscale_fit(8192, 64, 1, 1, &w, &h);
	assert_int_equal(w, 1);
	assert_int_equal(h, 1);
}

static void check_axis(unsigned src, unsigned dst)
{
	struct thumbscale_axis a;
	assert_int_equal(thumbscale_axis_make(src, dst, &a), 0);
	unsigned covered_to = 0;
	for (unsigned o = 0; o < dst; o++) {
		unsigned sum = 0;
		for (unsigned j = 0; j < a.n[o]; j++) {
			sum += a.w[a.off[o] + j];
		}
		assert_int_equal(sum, 256);
		assert_true(a.first[o] + a.n[o] <= src);
		/* Spans tile the source in order (sharing at most a boundary pixel). */
		assert_true(a.first[o] + 1 >= covered_to);
		covered_to = a.first[o] + a.n[o];
	}
	assert_int_equal(covered_to, src);
	thumbscale_axis_free(&a);
}

static void test_axis_weights(void **state)
{
	check_axis(1440, 960);
	check_axis(900, 600);
	check_axis(1920, 960);
	check_axis(1441, 960);
	check_axis(1440, 7);
	check_axis(8192, 1);
	check_axis(640, 640);
}

static void emit_png(void *ctx, const unsigned char *row)
{
	pngenc_write_row(ctx, row);
}

/* Runs the scaler over a synthetic BGRX screen, encodes with the thumbnail's own settings, and
 * decodes the PNG. */
static unsigned char *scale_synthetic(unsigned sw, unsigned sh, unsigned ow, unsigned oh,
				      void (*pixel)(unsigned x, unsigned y, uint8_t *bgrx))
{
	struct pngenc enc;
	struct thumbscale sc;
	assert_int_equal(pngenc_init(&enc), 0);
	assert_int_equal(thumbscale_init(&sc, sw, sh, ow, oh, emit_png, &enc), 0);
	pngenc_start(&enc, ow, oh);
	uint8_t *row = malloc((size_t)sw * 4);
	for (unsigned y = 0; y < sh; y++) {
		for (unsigned x = 0; x < sw; x++) {
			pixel(x, y, row + 4 * x);
		}
		thumbscale_push(&sc, row);
	}
	assert_int_equal(sc.oy, oh);
	unsigned char *png;
	size_t len;
	assert_int_equal(pngenc_finish(&enc, &png, &len), 0);
	free(row);
	thumbscale_free(&sc);
	pngenc_free(&enc);

	png_image im = {.version = PNG_IMAGE_VERSION};
	assert_true(png_image_begin_read_from_memory(&im, png, len));
	assert_int_equal(im.width, ow);
	assert_int_equal(im.height, oh);
	im.format = PNG_FORMAT_RGB;
	unsigned char *out = malloc(PNG_IMAGE_SIZE(im));
	assert_true(png_image_finish_read(&im, NULL, out, 0, NULL));
	free(png);
	return out;
}

static void solid(unsigned x, unsigned y, uint8_t *p)
{
	p[0] = 30; /* B */
	p[1] = 200;
	p[2] = 10; /* R */
	p[3] = 0;
}

static void checker(unsigned x, unsigned y, uint8_t *p)
{
	uint8_t v = ((x ^ y) & 1) ? 255 : 0;
	p[0] = p[1] = p[2] = v;
	p[3] = 0;
}

static void ramp(unsigned x, unsigned y, uint8_t *p)
{
	p[0] = p[1] = p[2] = (uint8_t)(x * 255 / 1439);
	p[3] = 0;
}

static void test_solid_stays_solid(void **state)
{
	unsigned char *out = scale_synthetic(1440, 900, 960, 600, solid);
	for (size_t i = 0; i < 960 * 600; i++) {
		assert_int_equal(out[3 * i], 10);
		assert_int_equal(out[3 * i + 1], 200);
		assert_int_equal(out[3 * i + 2], 30);
	}
	free(out);
}

/* Area averaging turns a fine checkerboard into its mean instead of aliasing it. */
static void test_checker_averages(void **state)
{
	unsigned char *out = scale_synthetic(1440, 900, 960, 600, checker);
	for (size_t i = 0; i < 960 * 600 * 3; i++) {
		assert_true(out[i] >= 100 && out[i] <= 155);
	}
	free(out);
	out = scale_synthetic(1440, 900, 720, 450, checker);
	for (size_t i = 0; i < 720 * 450 * 3; i++) {
		assert_true(out[i] >= 126 && out[i] <= 129);
	}
	free(out);
}

static void test_ramp_keeps_order(void **state)
{
	unsigned char *out = scale_synthetic(1440, 900, 960, 600, ramp);
	for (unsigned x = 1; x < 960; x++) {
		assert_true(out[3 * x] >= out[3 * (x - 1)]);
	}
	assert_true(out[0] <= 1);
	assert_true(out[3 * 959] >= 254);
	free(out);
}

/* A zoom enlarges (thumbscale_fill): by a whole factor every output pixel is its one source
 * pixel exactly (a checkerboard of 3x3 blocks, however many output rows one source row feeds);
 * by any other factor a ramp keeps its order and ends. */
static void test_enlarging(void **state)
{
	unsigned w, h;
	thumbscale_fill(200, 100, 1389, 868, &w, &h);
	assert_int_equal(w, 1389);
	assert_int_equal(h, 695);
	thumbscale_fill(100, 200, 1389, 868, &w, &h);
	assert_int_equal(w, 434);
	assert_int_equal(h, 868);
	unsigned char *out = scale_synthetic(40, 30, 120, 90, checker);
	for (unsigned y = 0; y < 90; y++) {
		for (unsigned x = 0; x < 120; x++) {
			assert_int_equal(out[3 * (y * 120 + x)], ((x / 3) ^ (y / 3)) & 1 ? 255 : 0);
		}
	}
	free(out);
	out = scale_synthetic(1440, 8, 2000, 11, ramp);
	for (unsigned y = 0; y < 11; y++) {
		for (unsigned x = 1; x < 2000; x++) {
			assert_true(out[3 * (y * 2000 + x)] >= out[3 * (y * 2000 + x - 1)]);
		}
		assert_true(out[3 * y * 2000] <= 1 && out[3 * (y * 2000 + 1999)] >= 254);
	}
	free(out);
}

static void test_bad_display_names(void **state)
{
	unsigned char *png;
	size_t len;
	struct error err = {0};
	assert_int_equal(thumbnail_png("host:0", "/nonexistent", 960, 600, &png, &len, &err),
			 -EINVAL);
	assert_int_equal(thumbnail_png(":x", "/nonexistent", 960, 600, &png, &len, &err), -EINVAL);
	struct error err2 = {0};
	assert_int_equal(thumbnail_png(":7", "/nonexistent", 960, 600, &png, &len, &err2), -ENOENT);
	assert_non_null(strstr(err2.msg, "no X cookie"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_axis_weights),
		cmocka_unit_test(test_solid_stays_solid),
		cmocka_unit_test(test_checker_averages),
		cmocka_unit_test(test_ramp_keeps_order),
		cmocka_unit_test(test_enlarging),
		cmocka_unit_test(test_bad_display_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
