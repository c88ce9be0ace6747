#include "rfbearly.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#define RFB_VERSION_38 "RFB 003.008\n"
#define RFB_VERSION_LEN 12
#define SECURITY_NONE 1
#define CLIENT_INIT_SHARED 1
#define SERVER_INIT_LEN 24

/* What the server answers to each piece it answers; the page must answer the same. */
static const unsigned char answer_version[] = RFB_VERSION_38;
static const unsigned char answer_one[] = {1};

static const unsigned char *answer_of(unsigned piece, size_t *ret_len)
{
	if (piece == 0) {
		*ret_len = RFB_VERSION_LEN;
		return answer_version;
	}
	*ret_len = 1; /* the security type None, then ClientInit's shared flag */
	return answer_one;
}

void rfb_early_init(struct rfb_early *e)
{
	memset(e, 0, sizeof(*e));
}

unsigned char *rfb_early_space(struct rfb_early *e, size_t *ret_room)
{
	*ret_room = sizeof(e->buf) - e->len;
	return e->buf + e->len;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

static void put32(unsigned char *p, int32_t v)
{
	uint32_t u = (uint32_t)v;
	p[0] = (unsigned char)(u >> 24);
	p[1] = (unsigned char)(u >> 16);
	p[2] = (unsigned char)(u >> 8);
	p[3] = (unsigned char)u;
}

/* The first update's request: noVNC 1.3's pixel format (32 bits a pixel, depth 24,
 * little-endian, red at bit 0, green 8, blue 16: another format would be drawn in the wrong
 * colours), Tight at noVNC's compression (2) but without its JPEG quality (a JPEG rect is decoded
 * by the browser asynchronously, and on the desktop the bench measures the lossless update is
 * smaller: 3.8 KB against 4.6), LastRect, Raw, then the whole screen. Not noVNC's own list: its
 * Fence and ContinuousUpdates make TigerVNC wait for a fence's round trip before the update.
 * noVNC's requests follow this one through the door and take over from the next update on. */
static size_t first_request(const unsigned char *server_init, unsigned char *out)
{
	static const unsigned char pixel_format[20] = {0, 0,   0, 0,   32, 24, 0,  1, 0, 255,
						       0, 255, 0, 255, 0,  8,  16, 0, 0, 0};
	static const int32_t encodings[] = {7, -256 + 2, -224, 0};
	size_t n = 0;
	memcpy(out, pixel_format, sizeof(pixel_format));
	n += sizeof(pixel_format);
	out[n] = 2; /* SetEncodings */
	out[n + 1] = 0;
	put16(out + n + 2, (uint16_t)(sizeof(encodings) / sizeof(encodings[0])));
	n += 4;
	for (size_t i = 0; i < sizeof(encodings) / sizeof(encodings[0]); i++, n += 4) {
		put32(out + n, encodings[i]);
	}
	out[n] = 3; /* FramebufferUpdateRequest, not incremental, x 0, y 0, the whole screen */
	out[n + 1] = 0;
	memset(out + n + 2, 0, 4);
	memcpy(out + n + 6, server_init, 4);
	return n + 10;
}

/* The piece that starts at buf[start] when it is complete: its length (0: not yet), whether the
 * server answers it, and the answer. -EPROTO when it cannot fit. */
static int piece(const struct rfb_early *e, unsigned k, size_t start, size_t *ret_len,
		 bool *ret_answered, unsigned char *reply, size_t *ret_reply)
{
	const unsigned char *p = e->buf + start;
	size_t have = e->len - start, need;
	*ret_len = 0;
	*ret_answered = false;
	*ret_reply = 0;
	switch (k) {
	case 0:
		need = RFB_VERSION_LEN;
		if (have < need) {
			return 0;
		}
		*ret_answered = memcmp(p, RFB_VERSION_38, RFB_VERSION_LEN) == 0;
		break;
	case 1:
		if (have < 1) {
			return 0;
		}
		need = 1 + (size_t)p[0]; /* 0 types: a reason follows, the page reads it */
		if (have < need) {
			return 0;
		}
		*ret_answered = memchr(p + 1, SECURITY_NONE, p[0]) != NULL;
		break;
	case 2:
		need = 4;
		if (have < need) {
			return 0;
		}
		*ret_answered = be32(p) == 0; /* a failure's reason follows, the page reads it */
		break;
	default:
		if (have < SERVER_INIT_LEN) {
			return 0;
		}
		if (be32(p + 20) > sizeof(e->buf) - start - SERVER_INIT_LEN) {
			return -EPROTO;
		}
		need = SERVER_INIT_LEN + be32(p + 20);
		if (have < need) {
			return 0;
		}
		/* Not answered: the page's answer (its format, encodings, request) goes to the
		 * door, after the server's request for the first update. */
		*ret_reply = first_request(p, reply);
		*ret_len = need;
		return 0;
	}
	*ret_len = need;
	if (*ret_answered) {
		const unsigned char *a = answer_of(k, ret_reply);
		memcpy(reply, a, *ret_reply);
	}
	return 0;
}

int rfb_early_door(struct rfb_early *e, size_t n, unsigned char *reply, size_t *ret_len)
{
	*ret_len = 0;
	if (n > sizeof(e->buf) - e->len) {
		return -EINVAL;
	}
	e->len += n;
	while (!e->door_done && e->pieces < RFB_EARLY_PIECES) {
		size_t len, said;
		bool answered;
		unsigned char r[RFB_EARLY_REPLY_MAX];
		int rc = piece(e, e->pieces, e->parsed, &len, &answered, r, &said);
		if (rc < 0) {
			return rc;
		}
		if (len == 0) {
			break;
		}
		if (*ret_len + said > RFB_EARLY_REPLY_MAX) {
			return -EPROTO; /* the door answered what it was not asked */
		}
		memcpy(reply + *ret_len, r, said);
		*ret_len += said;
		e->parsed += len;
		e->piece_end[e->pieces] = e->parsed;
		e->answered[e->pieces] = answered;
		e->pieces++;
		e->door_done = !answered;
	}
	return 0;
}

/* Whether the stream is the door's once the page has answered what it owes: every piece given,
 * the last one not the server's to answer. */
static bool handed_over(const struct rfb_early *e)
{
	return e->given > 0 && !e->answered[e->given - 1];
}

void rfb_early_next(const struct rfb_early *e, const unsigned char **ret_data, size_t *ret_len,
		    bool *ret_last)
{
	*ret_data = NULL;
	*ret_len = 0;
	*ret_last = false;
	if (handed_over(e) || e->given >= e->pieces) {
		return;
	}
	size_t start = e->given ? e->piece_end[e->given - 1] : 0;
	*ret_data = e->buf + start;
	*ret_len = e->piece_end[e->given] - start;
	*ret_last = !e->answered[e->given];
}

void rfb_early_given(struct rfb_early *e)
{
	e->sent = e->piece_end[e->given];
	e->given++;
}

/* The byte the page owes at offset off of its answers, if the pieces given so far ask for it. */
static bool owed_byte(const struct rfb_early *e, size_t off, unsigned char *ret)
{
	for (unsigned k = 0; k < e->given; k++) {
		if (!e->answered[k]) {
			break;
		}
		size_t n;
		const unsigned char *a = answer_of(k, &n);
		if (off < n) {
			*ret = a[off];
			return true;
		}
		off -= n;
	}
	return false;
}

int rfb_early_page(struct rfb_early *e, const unsigned char *in, size_t len)
{
	size_t i = 0;
	unsigned char want;
	for (; i < len && owed_byte(e, e->page_got, &want); i++, e->page_got++) {
		if (in[i] != want) {
			return -EPROTO;
		}
	}
	/* Beyond its answers the page speaks to the door, once the stream is the door's; before,
	 * it has nothing else to say. */
	if (i < len && !handed_over(e)) {
		return -EPROTO;
	}
	return (int)i;
}

bool rfb_early_page_done(const struct rfb_early *e)
{
	unsigned char want;
	return handed_over(e) && !owed_byte(e, e->page_got, &want);
}

const unsigned char *rfb_early_rest(const struct rfb_early *e, size_t *ret_len)
{
	*ret_len = e->len - e->sent;
	return e->buf + e->sent;
}
