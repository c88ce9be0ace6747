/* The server→client message framer (rfbframe.h). */
#include "rfbframe.h"

#include <errno.h>
#include <stdbool.h>

#include "recording.h"

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The size of the rectangle at p (its 12-byte header held), or 0 when more bytes are needed to
 * know it; -EPROTO for an encoding we never asked for. */
static int64_t rect_size(const uint8_t *p, size_t avail)
{
	uint64_t w = be16(p + 4), h = be16(p + 6);
	int32_t enc = (int32_t)be32(p + 8);
	switch (enc) {
	case RFB_ENC_RAW:
		return (int64_t)(12 + w * h * (REC_BPP / 8));
	case RFB_ENC_COPYRECT:
		return 12 + 4;
	case RFB_ENC_DESKTOP_SIZE:
		return 12;
	case RFB_ENC_ZRLE:
		return avail < 16 ? 0 : (int64_t)(16 + (uint64_t)be32(p + 12));
	case RFB_ENC_EXT_DESKTOP_SIZE:
		return avail < 16 ? 0 : (int64_t)(16 + 16 * (uint64_t)p[12]);
	default:
		return -EPROTO;
	}
}

int rfbframe_rect_size(const uint8_t *rect, size_t avail, size_t *ret)
{
	if (avail < 12) {
		return -EAGAIN;
	}
	int64_t size = rect_size(rect, avail);
	if (size < 0) {
		return (int)size;
	}
	if (size == 0 || (uint64_t)size > avail) {
		return -EAGAIN;
	}
	*ret = (size_t)size;
	return 0;
}

static int done(struct rfbframe *f, size_t n, size_t *ret_len)
{
	*ret_len = n;
	*f = (struct rfbframe)RFBFRAME_INIT;
	return 1;
}

static int frame_update(struct rfbframe *f, const uint8_t *buf, size_t len, size_t *ret_len)
{
	if (!f->started) {
		if (len < 4) {
			return 0;
		}
		f->rects_left = be16(buf + 2);
		f->pos = 4;
		f->started = 1;
	}
	while (f->rects_left > 0) {
		if (len < f->pos + 12) {
			return 0;
		}
		int64_t size = rect_size(buf + f->pos, len - f->pos);
		if (size < 0) {
			return (int)size;
		}
		if (size == 0) {
			return 0;
		}
		if ((uint64_t)size > REC_MESSAGE_MAX || f->pos + (uint64_t)size > REC_MESSAGE_MAX) {
			return -EFBIG;
		}
		if (len < f->pos + (size_t)size) {
			return 0;
		}
		f->pos += (size_t)size;
		f->rects_left--;
	}
	return done(f, f->pos, ret_len);
}

int rfbframe_next(struct rfbframe *f, const uint8_t *buf, size_t len, size_t *ret_len)
{
	if (len < 1) {
		return 0;
	}
	switch (buf[0]) {
	case RFB_MSG_FB_UPDATE:
		return frame_update(f, buf, len, ret_len);
	case RFB_MSG_BELL:
		return done(f, 1, ret_len);
	case RFB_MSG_COLOURMAP:
		if (len < 6) {
			return 0;
		}
		return len < 6 + 6 * (size_t)be16(buf + 4)
			       ? 0
			       : done(f, 6 + 6 * be16(buf + 4), ret_len);
	case RFB_MSG_CUT_TEXT: {
		if (len < 8) {
			return 0;
		}
		uint64_t n = 8 + (uint64_t)be32(buf + 4);
		if (n > REC_MESSAGE_MAX) {
			return -EFBIG;
		}
		return len < n ? 0 : done(f, (size_t)n, ret_len);
	}
	default:
		return -EPROTO;
	}
}
