#include "rfbfilter.h"

#include <errno.h>
#include <string.h>

#define VERSION_LEN 12

/* Client-to-server message types (RFC 6143 section 7.5, and the registered extensions). */
enum {
	MSG_SET_PIXEL_FORMAT = 0,
	MSG_SET_ENCODINGS = 2,
	MSG_FB_UPDATE_REQUEST = 3,
	MSG_KEY = 4,
	MSG_POINTER = 5,
	MSG_CUT_TEXT = 6,
	MSG_CONTINUOUS_UPDATES = 150,
	MSG_FENCE = 248,
	MSG_XVP = 250,
	MSG_SET_DESKTOP_SIZE = 251,
	MSG_QEMU = 255,
};

enum kind {
	KIND_VIEW,  /* what watching needs: always passes */
	KIND_INPUT, /* reaches the desktop only while input is allowed */
	KIND_NEVER, /* dropped from everyone */
};

/* Pseudo-encodings (RFC 6143 section 7.7 and the community registry) that announce an
 * extension a client-to-server message belongs to. */
static const struct {
	int32_t encoding;
	unsigned bit;
} announces[] = {
	{-308, RFBFILTER_NEG_EXT_DESKTOP_SIZE}, {-312, RFBFILTER_NEG_FENCE},
	{-313, RFBFILTER_NEG_CONTINUOUS},       {-258, RFBFILTER_NEG_QEMU_KEY},
	{-259, RFBFILTER_NEG_QEMU_AUDIO},       {(int32_t)0xc0a1e5ce, RFBFILTER_NEG_EXT_CLIPBOARD},
};

/* The fence's payload is at most 64 bytes (its length byte says so; more is a broken client). */
#define FENCE_MAX 64

void rfbfilter_init(struct rfbfilter *f)
{
	*f = (struct rfbfilter){.state = RFBFILTER_VERSION, .need = VERSION_LEN};
}

static uint16_t u16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t u32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* "RFB xxx.yyy\n". The minor version is mapped as TigerVNC maps it: 8 and above (Apple's 889
 * too) speak 3.8, 7 speaks 3.7, anything lower 3.3. */
static int parse_version(struct rfbfilter *f)
{
	const uint8_t *h = f->head;
	if (memcmp(h, "RFB ", 4) != 0 || h[7] != '.' || h[11] != '\n') {
		return -EPROTO;
	}
	unsigned major = 0, minor = 0;
	for (int i = 0; i < 3; i++) {
		if (h[4 + i] < '0' || h[4 + i] > '9' || h[8 + i] < '0' || h[8 + i] > '9') {
			return -EPROTO;
		}
		major = major * 10 + (unsigned)(h[4 + i] - '0');
		minor = minor * 10 + (unsigned)(h[8 + i] - '0');
	}
	if (major != 3) {
		return -EPROTO;
	}
	/* 3.8 and later speak 3.8; 3.7 is itself; anything else is 3.3. */
	f->minor = minor >= 8 ? 8 : 3;
	if (minor == 7) {
		f->minor = 7;
	}
	return 0;
}

/* QEMU's messages: the extended key event, or audio (an operation; SetFormat carries 6 bytes
 * more). As a row's size below. */
static int frame_qemu(struct rfbfilter *f, uint32_t *body, unsigned *needs)
{
	const uint8_t *h = f->head;
	if (h[1] == 0) {
		/* Extended key event: subtype, down-flag (2), keysym (4), keycode (4). */
		*needs = RFBFILTER_NEG_QEMU_KEY;
		*body = 10;
		return 0;
	}
	if (h[1] != 1) {
		return -EPROTO;
	}
	*needs = RFBFILTER_NEG_QEMU_AUDIO;
	if (f->have < 4) {
		f->need = 4;
		return 1;
	}
	switch (u16(h + 2)) {
	case 0:
	case 1:
		*body = 0;
		return 0;
	case 2:
		*body = 6;
		return 0;
	default:
		return -EPROTO;
	}
}

static int size_encodings(struct rfbfilter *f, uint32_t *body, unsigned *needs)
{
	(void)needs;
	*body = 4u * u16(f->head + 2);
	return 0;
}

/* A negative length is an Extended Clipboard message of -length bytes. Either way the bound is
 * checked here, at the header, before any of the text is read. */
static int size_cut_text(struct rfbfilter *f, uint32_t *body, unsigned *needs)
{
	int32_t len = (int32_t)u32(f->head + 4);
	uint32_t size = len < 0 ? (uint32_t)0 - (uint32_t)len : (uint32_t)len;
	if (size > RFBFILTER_MAX_CUT_TEXT) {
		return -EPROTO;
	}
	*needs = len < 0 ? RFBFILTER_NEG_EXT_CLIPBOARD : 0;
	*body = size;
	return 0;
}

static int size_fence(struct rfbfilter *f, uint32_t *body, unsigned *needs)
{
	(void)needs;
	if (f->head[8] > FENCE_MAX) {
		return -EPROTO;
	}
	*body = f->head[8];
	return 0;
}

static int size_desktop(struct rfbfilter *f, uint32_t *body, unsigned *needs)
{
	(void)needs;
	*body = 16u * f->head[6];
	return 0;
}

/* Every client-to-server message the gate frames: its kind, the RFBFILTER_NEG_* bit of the
 * extension it belongs to (or 0), and its size after the header: body for one whose type alone
 * gives it, else the first head bytes read by size (which may change needs, or ask for more
 * header: 1 with f->need raised). */
static const struct {
	uint8_t type;
	enum kind kind;
	unsigned needs;
	uint32_t body;
	size_t head;
	int (*size)(struct rfbfilter *f, uint32_t *body, unsigned *needs);
} messages[] = {
	{MSG_SET_PIXEL_FORMAT, KIND_VIEW, 0, 19, 1, NULL},
	{MSG_FB_UPDATE_REQUEST, KIND_VIEW, 0, 9, 1, NULL},
	{MSG_CONTINUOUS_UPDATES, KIND_VIEW, RFBFILTER_NEG_CONTINUOUS, 9, 1, NULL},
	{MSG_KEY, KIND_INPUT, 0, 7, 1, NULL},
	{MSG_POINTER, KIND_INPUT, 0, 5, 1, NULL},
	{MSG_XVP, KIND_NEVER, 0, 3, 1, NULL},
	{MSG_SET_ENCODINGS, KIND_VIEW, 0, 0, 4, size_encodings},
	{MSG_CUT_TEXT, KIND_INPUT, 0, 0, 8, size_cut_text},
	{MSG_FENCE, KIND_VIEW, RFBFILTER_NEG_FENCE, 0, 9, size_fence},
	{MSG_SET_DESKTOP_SIZE, KIND_INPUT, RFBFILTER_NEG_EXT_DESKTOP_SIZE, 0, 8, size_desktop},
	{MSG_QEMU, KIND_INPUT, 0, 0, 2, frame_qemu},
};

/* Frames the message whose first f->have bytes are in f->head: 1 when more header bytes are
 * needed (f->need raised), 0 when framed (*body, *kind and *needs set), -EPROTO when it cannot
 * be. */
static int frame(struct rfbfilter *f, uint32_t *body, enum kind *kind, unsigned *needs)
{
	*needs = 0;
	for (size_t i = 0; i < sizeof(messages) / sizeof(messages[0]); i++) {
		if (messages[i].type != f->head[0]) {
			continue;
		}
		if (f->have < messages[i].head) {
			f->need = messages[i].head;
			return 1;
		}
		*kind = messages[i].kind;
		*needs = messages[i].needs;
		*body = messages[i].body;
		return messages[i].size ? messages[i].size(f, body, needs) : 0;
	}
	/* No size is known for it, so nothing after it could be framed either. */
	return -EPROTO;
}

static void emit(uint8_t *out, size_t *len, const uint8_t *p, size_t n)
{
	memcpy(out + *len, p, n);
	*len += n;
}

/* Called with the header complete (f->have == f->need). */
static int header_done(struct rfbfilter *f, bool input_allowed, uint8_t *out, size_t *out_len)
{
	switch (f->state) {
	case RFBFILTER_VERSION:
		if (parse_version(f) < 0) {
			return -EPROTO;
		}
		emit(out, out_len, f->head, VERSION_LEN);
		f->state = f->minor >= 7 ? RFBFILTER_SECURITY : RFBFILTER_CLIENT_INIT;
		break;
	case RFBFILTER_SECURITY:
		/* The gate's server offers None only; anything else is not a viewer of ours. */
		if (f->head[0] != 1) {
			return -EPROTO;
		}
		emit(out, out_len, f->head, 1);
		f->state = RFBFILTER_CLIENT_INIT;
		break;
	case RFBFILTER_CLIENT_INIT: {
		/* Shared, always: an exclusive viewer would disconnect every other one. */
		static const uint8_t shared = 1;
		emit(out, out_len, &shared, 1);
		f->state = RFBFILTER_HEAD;
		break;
	}
	case RFBFILTER_HEAD: {
		uint32_t body = 0;
		enum kind kind = KIND_NEVER;
		unsigned needs = 0;
		int r = frame(f, &body, &kind, &needs);
		if (r != 0) {
			return r;
		}
		/* The server handles an extension's message as if its pseudo-encoding had been
		 * announced (Xvnc 1.12 dies on an unannounced SetDesktopSize): without it, the
		 * message goes nowhere. */
		bool negotiated = (f->negotiated & needs) == needs;
		if (!negotiated) {
			f->unnegotiated_dropped++;
		}
		f->pass =
			negotiated && (kind == KIND_VIEW || (kind == KIND_INPUT && input_allowed));
		if (kind == KIND_INPUT) {
			f->pass ? f->input_passed++ : f->input_dropped++;
		}
		f->type = f->head[0];
		if (f->type == MSG_SET_ENCODINGS) {
			/* A new list replaces the old, for Xvnc as for us. */
			f->negotiated = 0;
			f->enc_have = 0;
		}
		if (f->pass) {
			emit(out, out_len, f->head, f->have);
		}
		f->body = body;
		f->state = body > 0 ? RFBFILTER_BODY : RFBFILTER_HEAD;
		break;
	}
	case RFBFILTER_BODY:
	case RFBFILTER_CLOSED:
	default:
		return -EPROTO;
	}
	f->have = 0;
	f->need = 1;
	return 0;
}

/* Takes in SetEncodings' entries as they pass, however the reads split them. */
static void note_encodings(struct rfbfilter *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		f->enc[f->enc_have++] = p[i];
		if (f->enc_have < sizeof(f->enc)) {
			continue;
		}
		f->enc_have = 0;
		int32_t e = (int32_t)u32(f->enc);
		for (size_t k = 0; k < sizeof(announces) / sizeof(announces[0]); k++) {
			if (announces[k].encoding == e) {
				f->negotiated |= announces[k].bit;
			}
		}
	}
}

int rfbfilter_feed(struct rfbfilter *f, const uint8_t *in, size_t n, bool input_allowed,
		   uint8_t *out, size_t *out_len)
{
	*out_len = 0;
	size_t i = 0;
	while (i < n) {
		if (f->state == RFBFILTER_CLOSED) {
			return -EPROTO;
		}
		if (f->state == RFBFILTER_BODY) {
			size_t m = n - i < f->body ? n - i : f->body;
			if (f->pass) {
				emit(out, out_len, in + i, m);
			}
			if (f->type == MSG_SET_ENCODINGS) {
				note_encodings(f, in + i, m);
			}
			i += m;
			f->body -= (uint32_t)m;
			if (f->body == 0) {
				f->state = RFBFILTER_HEAD;
			}
			continue;
		}
		/* Collect the header byte by byte up to what framing needs: at most 12 bytes. */
		f->head[f->have++] = in[i++];
		while (f->have == f->need) {
			int r = header_done(f, input_allowed, out, out_len);
			if (r < 0) {
				f->state = RFBFILTER_CLOSED;
				return -EPROTO;
			}
			if (r == 0) {
				break;
			}
		}
	}
	return 0;
}
