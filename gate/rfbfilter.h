/* The gate's filter for what an RFB viewer sends to the desktop (RFB 3.3, 3.7 and 3.8, RFC 6143,
 * and docs/ARCHITECTURE.md's gate). One struct per connection, no I/O: the gate feeds it
 * the bytes it read, in whatever pieces the socket gave them, and forwards what comes out. A
 * message is framed the same whether it arrives in one read or in many, or shares a read with
 * ten others.
 *
 * What passes: the handshake (the version, the None security type, ClientInit with the shared
 * flag forced on, so no viewer can disconnect the others), and the messages viewing needs:
 * SetPixelFormat, SetEncodings, FramebufferUpdateRequest, EnableContinuousUpdates, ClientFence.
 * Input (KeyEvent, PointerEvent, ClientCutText, SetDesktopSize, QEMU's extended keys) passes only
 * while the caller says input is allowed, decided once per message when its header is complete,
 * and is dropped whole otherwise. xvp (shutdown, reboot) never passes. A message that belongs to
 * an extension passes only once the viewer's latest SetEncodings announced that extension's
 * pseudo-encoding, as the protocol requires: Xvnc 1.12 trusts that and dies on a SetDesktopSize
 * from a viewer that never announced ExtendedDesktopSize (see docs/SECURITY.md, "What a viewer
 * may send before it negotiated"); such a message is dropped whole. Anything else cannot be
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

/* The extensions a client-to-server message may depend on: each bit is a pseudo-encoding the
 * viewer announced in its latest SetEncodings (a SetEncodings replaces the set, on the server's
 * side too). */
enum {
	RFBFILTER_NEG_EXT_DESKTOP_SIZE = 1u << 0, /* -308: SetDesktopSize */
	RFBFILTER_NEG_FENCE = 1u << 1,            /* -312: ClientFence */
	RFBFILTER_NEG_CONTINUOUS = 1u << 2,       /* -313: EnableContinuousUpdates */
	RFBFILTER_NEG_QEMU_KEY = 1u << 3,         /* -258: QEMU extended key events */
	RFBFILTER_NEG_QEMU_AUDIO = 1u << 4,       /* -259: QEMU audio */
	RFBFILTER_NEG_EXT_CLIPBOARD = 1u << 5,    /* 0xc0a1e5ce: a negative ClientCutText length */
};

struct rfbfilter {
	enum rfbfilter_state state;
	unsigned minor; /* 3, 7 or 8 once the version is known */
	uint8_t head[RFBFILTER_SLACK];
	size_t have, need; /* header bytes collected, and needed to frame the message */
	uint32_t body;     /* bytes of the current message after its header still to come */
	bool pass;         /* the current message is forwarded */
	uint8_t type;      /* the current message's type */
	uint8_t enc[4];    /* a SetEncodings entry collected over feeds */
	uint8_t enc_have;
	unsigned negotiated; /* RFBFILTER_NEG_* announced by the latest SetEncodings */
	uint64_t input_passed, input_dropped; /* whole input messages */
	uint64_t unnegotiated_dropped;        /* whole messages of an extension not announced */
};

void rfbfilter_init(struct rfbfilter *f);

/* Feeds n bytes the viewer sent. Writes what may reach the server to out, which must hold
 * n + RFBFILTER_SLACK bytes, and its length to *out_len. input_allowed: whether this viewer's
 * input may reach the desktop now. 0, or -EPROTO once the connection must close (then and ever
 * after; *out_len still holds what came before the offending message). */
int rfbfilter_feed(struct rfbfilter *f, const uint8_t *in, size_t n, bool input_allowed,
		   uint8_t *out, size_t *out_len);
