/* The flight recorder's pure parts: the message framer over any chunking, the decoder of
 * Raw/CopyRect/ZRLE (every ZRLE sub-encoding, one zlib stream across rectangles) and its
 * refusals, the recording's header, meta and ids, export's size fit and the size limit. */
#include "../unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <zlib.h>

#include "export.h"
#include "fbdec.h"
#include "recorder.h"
#include "recording.h"
#include "rfbframe.h"

static uint8_t buf[1 << 16];
static size_t blen;

static void put8(unsigned v)
{
	buf[blen++] = (uint8_t)v;
}

static void put16(unsigned v)
{
	put8(v >> 8);
	put8(v & 0xff);
}

static void put32(uint32_t v)
{
	put16(v >> 16);
	put16(v & 0xffff);
}

static void rect_head(unsigned x, unsigned y, unsigned w, unsigned h, int32_t enc)
{
	put16(x);
	put16(y);
	put16(w);
	put16(h);
	put32((uint32_t)enc);
}

static z_stream ZS;

/* A ZRLE rectangle's body: its tile bytes through the one deflate stream, sync-flushed. */
static void zrle_body(const uint8_t *raw, size_t n)
{
	uint8_t out[1 << 14];
	ZS.next_in = (Bytef *)(uintptr_t)raw;
	ZS.avail_in = (uInt)n;
	ZS.next_out = out;
	ZS.avail_out = sizeof(out);
	assert_int_equal(deflate(&ZS, Z_SYNC_FLUSH), Z_OK);
	size_t len = sizeof(out) - ZS.avail_out;
	put32((uint32_t)len);
	memcpy(buf + blen, out, len);
	blen += len;
}

/* buf starts again with the head of a FramebufferUpdate of n rectangles. */
static void update_head(uint16_t n)
{
	blen = 0;
	put8(RFB_MSG_FB_UPDATE);
	put8(0); /* padding */
	put16(n);
}

static void cpix(uint8_t *t, size_t *k, uint32_t px)
{
	t[(*k)++] = (uint8_t)px;
	t[(*k)++] = (uint8_t)(px >> 8);
	t[(*k)++] = (uint8_t)(px >> 16);
}

/* One update: a 128x64 ZRLE rectangle at (0,0) of two tiles (solid red; 2-colour packed
 * palette), then a 64x64 one at (0,64) with plain RLE, a CopyRect and a 2x1 Raw. */
static size_t build_update(void)
{
	update_head(4);
	memset(&ZS, 0, sizeof(ZS));
	assert_int_equal(deflateInit(&ZS, 1), Z_OK);
	static uint8_t t[1 << 14];
	size_t k = 0;
	t[k++] = 1; /* solid */
	cpix(t, &k, 0xff0000);
	t[k++] = 2; /* packed palette, 1 bit: columns alternate */
	cpix(t, &k, 0x000000);
	cpix(t, &k, 0x00ff00);
	for (int row = 0; row < 64; row++) {
		for (int b = 0; b < 8; b++) {
			t[k++] = 0x55; /* 0,1,0,1... */
		}
	}
	rect_head(0, 0, 128, 64, RFB_ENC_ZRLE);
	zrle_body(t, k);
	k = 0;
	t[k++] = 128; /* plain RLE: 100 blue, the rest white */
	cpix(t, &k, 0x0000ff);
	t[k++] = 99;
	cpix(t, &k, 0xffffff);
	size_t rest = 64 * 64 - 100 - 1;
	while (rest >= 255) {
		t[k++] = 255;
		rest -= 255;
	}
	t[k++] = (uint8_t)rest;
	rect_head(0, 64, 64, 64, RFB_ENC_ZRLE);
	zrle_body(t, k);
	/* Copy the solid red tile's corner to (200, 100). */
	rect_head(200, 100, 4, 4, RFB_ENC_COPYRECT);
	put16(0);
	put16(0);
	rect_head(300, 0, 2, 1, RFB_ENC_RAW);
	put32(0x11223300); /* little-endian B,G,R,X: 0x00332211 */
	put32(0x44556600);
	deflateEnd(&ZS);
	return blen;
}

static void framer_any_chunking(void **state)
{
	(void)state;
	size_t upd = build_update();
	/* Bell, the update, a cut text of 5 bytes. */
	static uint8_t stream[1 << 16];
	size_t n = 0;
	stream[n++] = RFB_MSG_BELL;
	memcpy(stream + n, buf, upd);
	n += upd;
	memcpy(stream + n, "\x03\0\0\0\0\0\0\x05hello", 13);
	n += 13;
	size_t want[] = {1, upd, 13};
	for (size_t step = 1; step <= n; step = step * 3 + 1) {
		struct rfbframe f = RFBFRAME_INIT;
		size_t off = 0, have = 0, got = 0;
		while (got < 3) {
			have = have + step < n ? have + step : n;
			size_t len;
			int r;
			while ((r = rfbframe_next(&f, stream + off, have - off, &len)) == 1) {
				assert_int_equal(len, want[got]);
				off += len;
				got++;
			}
			assert_int_equal(r, 0);
		}
		assert_int_equal(off, n);
	}
}

static void framer_refuses(void **state)
{
	(void)state;
	size_t len;
	struct rfbframe f = RFBFRAME_INIT;
	static const uint8_t unknown_msg[] = {99};
	assert_int_equal(rfbframe_next(&f, unknown_msg, 1, &len), -EPROTO);
	update_head(1);
	rect_head(0, 0, 1, 1, 7); /* Tight: never asked for */
	f = (struct rfbframe)RFBFRAME_INIT;
	assert_int_equal(rfbframe_next(&f, buf, blen, &len), -EPROTO);
	update_head(1);
	rect_head(0, 0, 65535, 65535, RFB_ENC_RAW);
	f = (struct rfbframe)RFBFRAME_INIT;
	assert_int_equal(rfbframe_next(&f, buf, blen, &len), -EFBIG);
}

static uint32_t px(const struct fbdec *d, unsigned x, unsigned y)
{
	return d->fb[(size_t)y * d->w + x];
}

static void decoder(void **state)
{
	(void)state;
	size_t n = build_update();
	struct fbdec d;
	assert_int_equal(fbdec_init(&d, 640, 480), 0);
	assert_int_equal(fbdec_apply(&d, buf, n), 0);
	assert_int_equal(px(&d, 10, 10), 0xff0000);
	assert_int_equal(px(&d, 64, 5), 0x000000);
	assert_int_equal(px(&d, 65, 5), 0x00ff00);
	assert_int_equal(px(&d, 127, 63), 0x00ff00);
	assert_int_equal(px(&d, 0, 64), 0x0000ff);
	assert_int_equal(px(&d, 35, 65), 0x0000ff); /* the 100th pixel: row 1, column 35 */
	assert_int_equal(px(&d, 36, 65), 0xffffff);
	assert_int_equal(px(&d, 63, 127), 0xffffff);
	assert_int_equal(px(&d, 203, 103), 0xff0000);
	assert_int_equal(px(&d, 300, 0), 0x332211);
	assert_int_equal(px(&d, 301, 0), 0x665544);
	assert_int_equal(px(&d, 302, 0), 0);
	/* A new size keeps what fits. */
	update_head(1);
	rect_head(0, 0, 100, 50, RFB_ENC_DESKTOP_SIZE);
	assert_int_equal(fbdec_apply(&d, buf, blen), 0);
	assert_int_equal(d.w, 100);
	assert_int_equal(d.h, 50);
	assert_int_equal(px(&d, 10, 10), 0xff0000);
	fbdec_free(&d);
}

static void decoder_refuses(void **state)
{
	(void)state;
	struct fbdec d;
	assert_int_equal(fbdec_init(&d, 64, 64), 0);
	/* A rectangle outside the picture. */
	update_head(1);
	rect_head(60, 60, 8, 8, RFB_ENC_RAW);
	for (int i = 0; i < 64; i++) {
		put32(0);
	}
	assert_int_equal(fbdec_apply(&d, buf, blen), -EINVAL);
	/* A CopyRect from outside. */
	update_head(1);
	rect_head(0, 0, 8, 8, RFB_ENC_COPYRECT);
	put16(60);
	put16(0);
	assert_int_equal(fbdec_apply(&d, buf, blen), -EINVAL);
	/* A palette index past the palette. */
	update_head(1);
	memset(&ZS, 0, sizeof(ZS));
	assert_int_equal(deflateInit(&ZS, 1), Z_OK);
	uint8_t t[64] = {131, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5 /* index 5 of 3 */};
	rect_head(0, 0, 4, 4, RFB_ENC_ZRLE);
	zrle_body(t, 11);
	deflateEnd(&ZS);
	assert_int_equal(fbdec_apply(&d, buf, blen), -EINVAL);
	/* Bytes past the last rectangle. */
	update_head(0);
	put8(0);
	assert_int_equal(fbdec_apply(&d, buf, blen), -EINVAL);
	fbdec_free(&d);
}

static void files(void **state)
{
	(void)state;
	uint8_t h[REC_HEADER_SIZE];
	struct rec_header in = {1796421853087ull, 1440, 900}, out;
	rec_header_encode(&in, h);
	assert_int_equal(rec_header_decode(h, &out), 0);
	assert_true(out.start_ms == in.start_ms && out.width == 1440 && out.height == 900);
	h[0] = 'X';
	assert_int_equal(rec_header_decode(h, &out), -EINVAL);

	struct rec_meta m = {1000, 3500, 1440, 900}, m2;
	char text[256];
	assert_true(rec_meta_format(&m, text, sizeof(text)) > 0);
	assert_int_equal(rec_meta_parse(text, &m2), 0);
	assert_true(m2.start_ms == 1000 && m2.end_ms == 3500 && m2.width == 1440);
	assert_int_equal(rec_meta_parse("start_ms=5\nend_ms=4\nwidth=1\nheight=1\n", &m2), -EINVAL);
	assert_int_equal(rec_meta_parse("start_ms=5\nend_ms=0\nwidth=1\nheight=1\nx=1\n", &m2),
			 -EINVAL);

	assert_true(rec_id_valid("20261204-220413"));
	assert_true(rec_id_valid("20261204-220413-2"));
	assert_false(rec_id_valid("../../etc/passwd"));
	assert_false(rec_id_valid("20261204_220413"));
	assert_false(rec_id_valid("20261204-22041"));
	assert_false(rec_id_valid("20261204-220413-"));
	assert_false(rec_id_valid("20261204-220413--2"));

	struct rec_running run;
	assert_int_equal(rec_running_parse("1234 5678 20261204-220413\n", &run), 0);
	assert_int_equal(run.pid, 1234);
	assert_string_equal(run.id, "20261204-220413");
	assert_int_equal(rec_running_parse("1 5678 20261204-220413\n", &run), -EINVAL);
	assert_int_equal(rec_running_parse("1234 5678 ../x\n", &run), -EINVAL);
}

static void fit(void **state)
{
	(void)state;
	unsigned w, h;
	export_fit(1440, 900, 0, 0, &w, &h);
	assert_true(w == 1440 && h == 900);
	export_fit(1440, 900, 960, 960, &w, &h);
	assert_true(w == 960 && h == 600);
	export_fit(1440, 900, 2000, 300, &w, &h);
	assert_true(w == 480 && h == 300);
	export_fit(1001, 601, 0, 0, &w, &h);
	assert_true(w == 1000 && h == 600); /* even, for 4:2:0 */
}

static void make(const char *dir, const char *name, size_t size)
{
	char path[8192];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	close(fd);
}

static void prune(void **state)
{
	(void)state;
	char *dir = unit_mkdtemp();
	static const char *const ids[] = {"20260101-000000", "20260102-000000", "20260103-000000"};
	for (int i = 0; i < 3; i++) {
		char name[64];
		snprintf(name, sizeof(name), "%s.rfb", ids[i]);
		make(dir, name, 1000);
		snprintf(name, sizeof(name), "%s.meta", ids[i]);
		make(dir, name, 10);
	}
	/* A file the recorder did not make (no recording's id) is neither counted nor removed. */
	make(dir, "notes.rfb", 5000);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* The oldest goes; the one being written never does, even when alone over the limit. */
	assert_int_equal(recorder_prune(fd, "20260103-000000", 2000), 0);
	assert_int_equal(faccessat(fd, "20260101-000000.rfb", F_OK, 0), -1);
	assert_int_equal(faccessat(fd, "20260101-000000.meta", F_OK, 0), -1);
	assert_int_equal(faccessat(fd, "20260102-000000.rfb", F_OK, 0), 0);
	assert_int_equal(recorder_prune(fd, "20260103-000000", 10), 0);
	assert_int_equal(faccessat(fd, "20260102-000000.rfb", F_OK, 0), -1);
	assert_int_equal(faccessat(fd, "20260103-000000.rfb", F_OK, 0), 0);
	assert_int_equal(faccessat(fd, "notes.rfb", F_OK, 0), 0);
	close(fd);
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(framer_any_chunking),
		cmocka_unit_test(framer_refuses),
		cmocka_unit_test(decoder),
		cmocka_unit_test(decoder_refuses),
		cmocka_unit_test(files),
		cmocka_unit_test(fit),
		cmocka_unit_test(prune),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
