/* The gate's filter for what an RFB viewer sends to the desktop (RFB 3.3, 3.7 and 3.8, RFC 6143;
 * see /work/shared/reference/rfb-gate.md). One struct per connection, no I/O: the gate feeds it
 * the bytes it read, in whatever pieces the socket gave them, and forwards what comes out. A
 * message is framed the same whether it arrives in one read or in many, or shares a read with
 * ten others.
 *
 * What passes: the handshake (the version, the None security type, ClientInit with the shared
 * flag forced on, so no viewer can disconnect the others), and the messages viewing needs:
 * SetPixelFormat, SetEncodings, FramebufferUpdateRequest, EnableContinuousUpdates, ClientFence.
 * Input (KeyEvent, PointerEvent, ClientCutText, SetDesktopSize, QEMU's extended keys) passes only
 * while the caller says input is allowed, decided once per message when its header is complete,
 * and is dropped whole otherwise. xvp (shutdown, reboot) never passes. Anything else cannot be
 * framed, so the connection must close, as must a clipboard above RFBFILTER_MAX_CUT_TEXT (refused
 * at its header, before a byte of it is held). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* TigerVNC's default -MaxCutText, which the session gives Xvnc too. */
#define RFBFILTER_MAX_CUT_TEXT 262144
/* What a feed may emit beyond the bytes it was given: a header collected over earlier feeds. */
#define RFBFILTER_SLACK 16

enum rfbfilter_state {
	RFBFILTER_VERSION,
	RFBFILTER_SECURITY,
	RFBFILTER_CLIENT_INIT,
	RFBFILTER_HEAD,
	RFBFILTER_BODY,
	RFBFILTER_CLOSED,
};

struct rfbfilter {
	enum rfbfilter_state state;
	unsigned minor; /* 3, 7 or 8 once the version is known */
	uint8_t head[RFBFILTER_SLACK];
	size_t have, need; /* header bytes collected, and needed to frame the message */
	uint32_t body;     /* bytes of the current message after its header still to come */
	bool pass;         /* the current message is forwarded */
	uint64_t input_passed, input_dropped; /* whole input messages */
};

void rfbfilter_init(struct rfbfilter *f);

/* Feeds n bytes the viewer sent. Writes what may reach the server to out, which must hold
 * n + RFBFILTER_SLACK bytes, and its length to *out_len. input_allowed: whether this viewer's
 * input may reach the desktop now. 0, or -EPROTO once the connection must close (then and ever
 * after; *out_len still holds what came before the offending message). */
int rfbfilter_feed(struct rfbfilter *f, const uint8_t *in, size_t n, bool input_allowed,
		   uint8_t *out, size_t *out_len);
