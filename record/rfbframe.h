/* Where one RFB server→client message ends, found over a byte stream that arrives in pieces. The
 * recorder needs it to store whole updates and to ask for the next one only once the last has
 * arrived; export needs it to read them back. Pure: no I/O, no allocation (tests/record and the
 * fuzzer drive it). Only what the recorder asks for is understood: Raw, CopyRect, ZRLE,
 * DesktopSize and ExtendedDesktopSize in updates; Bell, SetColourMapEntries and ServerCutText;
 * anything else cannot be framed and ends the stream. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define RFB_MSG_FB_UPDATE 0
#define RFB_MSG_COLOURMAP 1
#define RFB_MSG_BELL 2
#define RFB_MSG_CUT_TEXT 3

#define RFB_ENC_RAW 0
#define RFB_ENC_COPYRECT 1
#define RFB_ENC_ZRLE 16
#define RFB_ENC_DESKTOP_SIZE (-223)
#define RFB_ENC_EXT_DESKTOP_SIZE (-308)
/* CompressLevel 1: zlib's fastest level that still compresses, the recorder's cost kept low. */
#define RFB_ENC_COMPRESS_LEVEL_1 (-255)

struct rfbframe {
	size_t pos;          /* bytes of the current message already framed */
	unsigned rects_left; /* of the current update, once its header was read */
	int started;         /* the current message's header has been read */
};

#define RFBFRAME_INIT \
	{             \
		0     \
	}

/* Frames the message at the start of buf (len bytes held so far; the same start on every call
 * until it completes). 1 with *ret_len when it is whole, 0 when more bytes are needed, -EPROTO
 * for a message that cannot be framed, -EFBIG past REC_MESSAGE_MAX. After 1, the state is ready
 * for the next message. */
int rfbframe_next(struct rfbframe *f, const uint8_t *buf, size_t len, size_t *ret_len);
/* The size of the rectangle at rect with its payload, when all of it is within avail bytes;
 * -EAGAIN when not, -EPROTO for an encoding not understood. */
int rfbframe_rect_size(const uint8_t *rect, size_t avail, size_t *ret);
