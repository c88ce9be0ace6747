/* The gate's RFB filter, driven byte by byte, whole, and in random chunkings: the same stream
 * must come out the same every way, and hold exactly what the door lets through. */
#include "../unit.h"

#include <errno.h>

#include "rfbfilter.h"

struct stream {
	uint8_t in[1 << 20];
	size_t in_len;
	uint8_t want_view[1 << 20]; /* what a watcher's (or the agent-held controller's) filter lets
				       through */
	size_t view_len;
	uint8_t want_ctl[1 << 20]; /* what a human controller's lets through */
	size_t ctl_len;
};

static struct stream S;

static void add(const void *p, size_t n, bool view, bool ctl)
{
	memcpy(S.in + S.in_len, p, n);
	S.in_len += n;
	if (view) {
		memcpy(S.want_view + S.view_len, p, n);
		S.view_len += n;
	}
	if (ctl) {
		memcpy(S.want_ctl + S.ctl_len, p, n);
		S.ctl_len += n;
	}
}

static void add_view(const void *p, size_t n)
{
	add(p, n, true, true);
}

static void add_input(const void *p, size_t n)
{
	add(p, n, false, true);
}

/* A 3.8 handshake with an exclusive ClientInit, which comes out shared. */
static void handshake(const char *version)
{
	S = (struct stream){0};
	add_view(version, 12);
	if (strcmp(version, "RFB 003.003\n") != 0) {
		add_view("\x01", 1);
	}
	S.in[S.in_len++] = 0;
	S.want_view[S.view_len++] = 1;
	S.want_ctl[S.ctl_len++] = 1;
}

/* SetEncodings: Tight, CopyRect and every pseudo-encoding an extension's message needs. */
static const uint8_t every_encoding[4 + 4 * 8] = {
	2,    0,    0,    8,    0,    0,    0,    7,
	0,    0,    0,    1,    0xff, 0xff, 0xfe, 0xcc, /* -308 ExtendedDesktopSize */
	0xff, 0xff, 0xfe, 0xc8,                         /* -312 Fence */
	0xff, 0xff, 0xfe, 0xc7,                         /* -313 ContinuousUpdates */
	0xff, 0xff, 0xfe, 0xfe,                         /* -258 QEMU extended key events */
	0xff, 0xff, 0xfe, 0xfd,                         /* -259 QEMU audio */
	0xc0, 0xa1, 0xe5, 0xce,                         /* Extended Clipboard */
};

static void every_message(void)
{
	uint8_t pf[20] = {0, 0, 0, 0, 32, 24, 0, 1};
	add_view(pf, sizeof(pf));
	add_view(every_encoding, sizeof(every_encoding));
	uint8_t fbur[10] = {3, 1, 0, 0, 0, 0, 5, 160, 3, 132};
	add_view(fbur, sizeof(fbur));
	uint8_t key[8] = {4, 1, 0, 0, 0, 0, 0, 'a'};
	add_input(key, sizeof(key));
	uint8_t ptr[6] = {5, 1, 0, 100, 0, 200};
	add_input(ptr, sizeof(ptr));
	uint8_t cut[8 + 5] = {6, 0, 0, 0, 0, 0, 0, 5, 'h', 'e', 'l', 'l', 'o'};
	add_input(cut, sizeof(cut));
	/* Extended Clipboard: a negative length of -6 means 6 bytes follow. */
	uint8_t xcut[8 + 6] = {6, 0, 0, 0, 0xff, 0xff, 0xff, 0xfa, 1, 2, 3, 4, 5, 6};
	add_input(xcut, sizeof(xcut));
	uint8_t ecu[10] = {150, 1, 0, 0, 0, 0, 5, 160, 3, 132};
	add_view(ecu, sizeof(ecu));
	uint8_t fence[9 + 3] = {248, 0, 0, 0, 0x80, 0, 0, 0, 3, 'a', 'b', 'c'};
	add_view(fence, sizeof(fence));
	uint8_t xvp[4] = {250, 0, 1, 2};
	add(xvp, sizeof(xvp), false, false);
	/* SetDesktopSize with two screens (#110039: it must be framed, not just dropped). */
	uint8_t sds[8 + 32] = {251, 0, 4, 0, 3, 0, 2, 0};
	sds[8 + 16 + 3] = 1;
	add_input(sds, sizeof(sds));
	uint8_t qkey[12] = {255, 0, 0, 1, 0, 0, 0, 'b', 0, 0, 0, 38};
	add_input(qkey, sizeof(qkey));
	uint8_t qaudio[4] = {255, 1, 0, 0};
	add_input(qaudio, sizeof(qaudio));
	uint8_t qfmt[10] = {255, 1, 0, 2, 3, 2, 0, 0, 0xac, 0x44};
	add_input(qfmt, sizeof(qfmt));
	add_view(fbur, sizeof(fbur));
}

static uint8_t out[(1 << 20) + RFBFILTER_SLACK];
static uint8_t chunk_out[(1 << 12) + RFBFILTER_SLACK];

/* Feeds the stream in pieces from sizes() and returns what came out, and the first error. */
static int run(bool allowed, size_t (*next)(size_t left), size_t *ret_len, struct rfbfilter *ret_f)
{
	struct rfbfilter f;
	rfbfilter_init(&f);
	size_t len = 0, off = 0;
	int r = 0;
	while (off < S.in_len && r == 0) {
		size_t n = next(S.in_len - off);
		size_t got;
		r = rfbfilter_feed(&f, S.in + off, n, allowed, chunk_out, &got);
		assert_true(got <= n + RFBFILTER_SLACK);
		memcpy(out + len, chunk_out, got);
		len += got;
		off += n;
	}
	*ret_len = len;
	if (ret_f) {
		*ret_f = f;
	}
	return r;
}

static size_t one_byte(size_t left)
{
	return 1;
}

static size_t big(size_t left)
{
	return left < 4096 ? left : 4096;
}

static unsigned seed;
static size_t random_piece(size_t left)
{
	size_t n = (size_t)(rand_r(&seed) % 23) + 1;
	return n < left ? n : left;
}

static void check_every_way(bool allowed)
{
	const uint8_t *want = allowed ? S.want_ctl : S.want_view;
	size_t want_len = allowed ? S.ctl_len : S.view_len;
	size_t len;
	assert_int_equal(run(allowed, big, &len, NULL), 0);
	assert_int_equal(len, want_len);
	assert_memory_equal(out, want, len);
	assert_int_equal(run(allowed, one_byte, &len, NULL), 0);
	assert_int_equal(len, want_len);
	assert_memory_equal(out, want, len);
	for (seed = 1; seed < 200; seed++) {
		assert_int_equal(run(allowed, random_piece, &len, NULL), 0);
		assert_int_equal(len, want_len);
		assert_memory_equal(out, want, len);
	}
}

static void watchers_get_no_input_in_any_chunking(void **state)
{
	static const char *const versions[] = {"RFB 003.008\n", "RFB 003.007\n", "RFB 003.003\n",
					       "RFB 003.889\n"};
	for (size_t v = 0; v < 4; v++) {
		handshake(versions[v]);
		every_message();
		check_every_way(false);
		struct rfbfilter f;
		size_t len;
		assert_int_equal(run(false, one_byte, &len, &f), 0);
		assert_int_equal(f.input_passed, 0);
		assert_int_equal(f.input_dropped, 8);
	}
}

static void a_human_controllers_input_passes(void **state)
{
	handshake("RFB 003.008\n");
	every_message();
	check_every_way(true);
	struct rfbfilter f;
	size_t len;
	assert_int_equal(run(true, random_piece, &len, &f), 0);
	assert_int_equal(f.input_passed, 8);
}

/* The decision is made once per message: a change of lease between the pieces of a message
 * neither tears it nor lets its tail through alone. */
static void a_message_is_decided_whole(void **state)
{
	handshake("RFB 003.008\n");
	uint8_t key[8] = {4, 1, 0, 0, 0, 0, 0, 'a'};
	add_input(key, sizeof(key));
	struct rfbfilter f;
	rfbfilter_init(&f);
	size_t got;
	size_t hs = S.in_len - sizeof(key);
	assert_int_equal(rfbfilter_feed(&f, S.in, hs + 3, false, out, &got), 0);
	assert_int_equal(got, hs);
	assert_int_equal(rfbfilter_feed(&f, S.in + hs + 3, 5, true, out, &got), 0);
	assert_int_equal(got, 0);
	rfbfilter_init(&f);
	assert_int_equal(rfbfilter_feed(&f, S.in, hs + 3, true, out, &got), 0);
	assert_int_equal(got, hs + 3);
	assert_int_equal(rfbfilter_feed(&f, S.in + hs + 3, 5, false, out, &got), 0);
	assert_int_equal(got, 5);
	/* A clipboard's header is complete only with its eighth byte: that byte's feed decides. */
	handshake("RFB 003.008\n");
	uint8_t cut[8 + 2] = {6, 0, 0, 0, 0, 0, 0, 2, 'h', 'i'};
	add_input(cut, sizeof(cut));
	rfbfilter_init(&f);
	assert_int_equal(rfbfilter_feed(&f, S.in, hs + 7, false, out, &got), 0);
	assert_int_equal(got, hs);
	assert_int_equal(rfbfilter_feed(&f, S.in + hs + 7, 3, true, out, &got), 0);
	assert_int_equal(got, 10);
	assert_memory_equal(out, cut, 10);
}

static int feed_all(bool allowed, size_t *ret_len)
{
	size_t len;
	int r = run(allowed, one_byte, &len, NULL);
	*ret_len = len;
	return r;
}

/* A clipboard over 256 KiB is refused at its header: the connection closes before a byte of
 * the text is read, whoever sends it. */
static void oversized_clipboard_is_refused_at_its_header(void **state)
{
	for (int neg = 0; neg < 2; neg++) {
		for (int allowed = 0; allowed < 2; allowed++) {
			handshake("RFB 003.008\n");
			uint8_t ptr[6] = {5, 0, 0, 1, 0, 1};
			add_input(ptr, sizeof(ptr));
			size_t before = allowed ? S.ctl_len : S.view_len;
			uint32_t n = RFBFILTER_MAX_CUT_TEXT + 1;
			if (neg) {
				n = (uint32_t)0 - n;
			}
			uint8_t hdr[8] = {6,
					  0,
					  0,
					  0,
					  (uint8_t)(n >> 24),
					  (uint8_t)(n >> 16),
					  (uint8_t)(n >> 8),
					  (uint8_t)n};
			add(hdr, sizeof(hdr), false, false);
			struct rfbfilter f;
			rfbfilter_init(&f);
			size_t got;
			assert_int_equal(rfbfilter_feed(&f, S.in, S.in_len, allowed, out, &got),
					 -EPROTO);
			assert_int_equal(got, before);
			/* And ever after. */
			assert_int_equal(
				rfbfilter_feed(&f, (const uint8_t *)"\x03", 1, allowed, out, &got),
				-EPROTO);
		}
	}
	/* Exactly the bound is a clipboard like any other. */
	handshake("RFB 003.008\n");
	static uint8_t big_cut[8 + RFBFILTER_MAX_CUT_TEXT];
	big_cut[0] = 6;
	big_cut[5] = RFBFILTER_MAX_CUT_TEXT >> 16;
	add_input(big_cut, sizeof(big_cut));
	size_t len;
	assert_int_equal(feed_all(true, &len), 0);
	assert_int_equal(len, S.ctl_len);
	assert_int_equal(feed_all(false, &len), 0);
	assert_int_equal(len, S.view_len);
}

static void refuses(const void *msg, size_t n)
{
	handshake("RFB 003.008\n");
	add(msg, n, false, false);
	size_t len;
	assert_int_equal(feed_all(true, &len), -EPROTO);
	assert_int_equal(len, S.ctl_len);
	assert_int_equal(feed_all(false, &len), -EPROTO);
}

static void what_cannot_be_framed_closes(void **state)
{
	refuses("\x01", 1);
	refuses("\x07", 1);
	refuses("\xfe", 1);
	refuses("\xff\x02", 2);
	refuses("\xff\x01\x00\x03", 4);
	uint8_t fence[9] = {248, 0, 0, 0, 0, 0, 0, 0, 65};
	refuses(fence, sizeof(fence));
}

static void bad_handshakes_close(void **state)
{
	static const char *const bad[] = {"RFB 004.000\n", "RFB 003.008 ", "XYZ 003.008\n",
					  "RFB 00a.008\n"};
	for (size_t i = 0; i < 4; i++) {
		struct rfbfilter f;
		rfbfilter_init(&f);
		size_t got;
		assert_int_equal(rfbfilter_feed(&f, (const uint8_t *)bad[i], 12, false, out, &got),
				 -EPROTO);
		assert_int_equal(got, 0);
	}
	/* VNC authentication (2) or anything but None: not a viewer of ours. */
	struct rfbfilter f;
	rfbfilter_init(&f);
	size_t got;
	assert_int_equal(
		rfbfilter_feed(&f, (const uint8_t *)"RFB 003.008\n\x02", 13, true, out, &got),
		-EPROTO);
	assert_int_equal(got, 12);
}

/* A SetDesktopSize cut short waits for the rest instead of passing or closing. */
static void a_truncated_set_desktop_size_waits(void **state)
{
	handshake("RFB 003.008\n");
	add_view(every_encoding, sizeof(every_encoding));
	uint8_t sds[8 + 16] = {251, 0, 4, 0, 3, 0, 1, 0};
	add_input(sds, sizeof(sds));
	struct rfbfilter f;
	rfbfilter_init(&f);
	size_t got, hs = S.in_len - sizeof(sds);
	assert_int_equal(rfbfilter_feed(&f, S.in, hs + 20, true, out, &got), 0);
	assert_int_equal(got, hs + 20);
	assert_int_equal(f.state, RFBFILTER_BODY);
	assert_int_equal(rfbfilter_feed(&f, S.in + hs + 20, 4, true, out, &got), 0);
	assert_int_equal(got, 4);
	assert_int_equal(f.state, RFBFILTER_HEAD);
}

/* Each extension's message, from a viewer whose latest SetEncodings did not announce it: dropped
 * whole in every chunking, from a human controller too, and framed so what follows passes. */
static void extensions_pass_only_once_announced(void **state)
{
	static const uint8_t sds[8 + 16] = {251, 0, 4, 0, 3, 0, 1, 0};
	static const uint8_t ecu[10] = {150, 1, 0, 0, 0, 0, 5, 160, 3, 132};
	static const uint8_t fence[9 + 2] = {248, 0, 0, 0, 0x80, 0, 0, 0, 2, 'a', 'b'};
	static const uint8_t qkey[12] = {255, 0, 0, 1, 0, 0, 0, 'b', 0, 0, 0, 38};
	static const uint8_t qaudio[4] = {255, 1, 0, 0};
	static const uint8_t xcut[8 + 2] = {6, 0, 0, 0, 0xff, 0xff, 0xff, 0xfe, 1, 2};
	static const uint8_t fbur[10] = {3, 1, 0, 0, 0, 0, 5, 160, 3, 132};
	/* Raw and DesktopSize only: nothing an extension's message needs. */
	static const uint8_t plain[4 + 8] = {2, 0, 0, 2, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x21};
	for (int phase = 0; phase < 3; phase++) {
		handshake("RFB 003.008\n");
		if (phase == 1) {
			add_view(plain, sizeof(plain));
		} else if (phase == 2) {
			/* Announced, then taken back by a later list. */
			add_view(every_encoding, sizeof(every_encoding));
			add_view(plain, sizeof(plain));
		}
		add(sds, sizeof(sds), false, false);
		add(ecu, sizeof(ecu), false, false);
		add(fence, sizeof(fence), false, false);
		add(qkey, sizeof(qkey), false, false);
		add(qaudio, sizeof(qaudio), false, false);
		add(xcut, sizeof(xcut), false, false);
		add_view(fbur, sizeof(fbur));
		check_every_way(true);
		check_every_way(false);
		struct rfbfilter f;
		size_t len;
		assert_int_equal(run(true, random_piece, &len, &f), 0);
		assert_int_equal(f.unnegotiated_dropped, 6);
		assert_int_equal(f.input_passed, 0);
	}
	/* Announced in a list split over many reads, it passes. */
	handshake("RFB 003.008\n");
	add_view(every_encoding, sizeof(every_encoding));
	add_input(sds, sizeof(sds));
	add_view(ecu, sizeof(ecu));
	add_view(fence, sizeof(fence));
	add_input(qkey, sizeof(qkey));
	add_input(qaudio, sizeof(qaudio));
	add_input(xcut, sizeof(xcut));
	check_every_way(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(watchers_get_no_input_in_any_chunking),
		cmocka_unit_test(a_human_controllers_input_passes),
		cmocka_unit_test(a_message_is_decided_whole),
		cmocka_unit_test(oversized_clipboard_is_refused_at_its_header),
		cmocka_unit_test(what_cannot_be_framed_closes),
		cmocka_unit_test(bad_handshakes_close),
		cmocka_unit_test(a_truncated_set_desktop_size_waits),
		cmocka_unit_test(extensions_pass_only_once_announced),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
