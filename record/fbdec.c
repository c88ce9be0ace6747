/* The recording's decoder (fbdec.h). ZRLE as RFB 3.8 defines it: 64x64 tiles of 3-byte
 * pixels (our format fits in the low three bytes), each raw, solid, packed-palette, plain RLE or
 * palette RLE. */
#include "fbdec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "recording.h"
#include "rfbframe.h"

struct rd {
	const uint8_t *p, *end;
};

static bool take(struct rd *r, size_t n, const uint8_t **ret)
{
	if ((size_t)(r->end - r->p) < n) {
		return false;
	}
	*ret = r->p;
	r->p += n;
	return true;
}

static bool cpixel(struct rd *r, uint32_t *ret)
{
	const uint8_t *b;
	if (!take(r, 3, &b)) {
		return false;
	}
	*ret = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16;
	return true;
}

static unsigned be16(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int fbdec_init(struct fbdec *d, unsigned w, unsigned h)
{
	*d = (struct fbdec){0};
	d->fb = calloc((size_t)w * h, sizeof(uint32_t));
	if (!d->fb) {
		return -ENOMEM;
	}
	d->w = w;
	d->h = h;
	if (inflateInit(&d->z) != Z_OK) {
		free(d->fb);
		d->fb = NULL;
		return -ENOMEM;
	}
	d->z_ready = true;
	return 0;
}

void fbdec_free(struct fbdec *d)
{
	if (d->z_ready) {
		inflateEnd(&d->z);
	}
	free(d->fb);
	free(d->tmp);
	*d = (struct fbdec){0};
}

static bool inside(const struct fbdec *d, unsigned x, unsigned y, unsigned w, unsigned h)
{
	return x <= d->w && y <= d->h && w <= d->w - x && h <= d->h - y;
}

static int resize(struct fbdec *d, unsigned w, unsigned h)
{
	if (w < 1 || h < 1 || w > REC_SIZE_MAX || h > REC_SIZE_MAX) {
		return -EINVAL;
	}
	uint32_t *fb = calloc((size_t)w * h, sizeof(uint32_t));
	if (!fb) {
		return -ENOMEM;
	}
	for (unsigned y = 0; y < h && y < d->h; y++) {
		memcpy(fb + (size_t)y * w, d->fb + (size_t)y * d->w,
		       (w < d->w ? w : d->w) * sizeof(uint32_t));
	}
	free(d->fb);
	d->fb = fb;
	d->w = w;
	d->h = h;
	return 0;
}

static void fill(struct fbdec *d, unsigned x, unsigned y, unsigned w, unsigned h, uint32_t px)
{
	for (unsigned j = 0; j < h; j++) {
		uint32_t *row = d->fb + (size_t)(y + j) * d->w + x;
		for (unsigned i = 0; i < w; i++) {
			row[i] = px;
		}
	}
}

static int copy_rect(struct fbdec *d, unsigned x, unsigned y, unsigned w, unsigned h,
		     const uint8_t *src)
{
	unsigned sx = be16(src), sy = be16(src + 2);
	if (!inside(d, sx, sy, w, h)) {
		return -EINVAL;
	}
	uint32_t *tmp = malloc((size_t)w * h * sizeof(uint32_t) + 1);
	if (!tmp) {
		return -ENOMEM;
	}
	for (unsigned j = 0; j < h; j++) {
		memcpy(tmp + (size_t)j * w, d->fb + (size_t)(sy + j) * d->w + sx,
		       w * sizeof(uint32_t));
	}
	for (unsigned j = 0; j < h; j++) {
		memcpy(d->fb + (size_t)(y + j) * d->w + x, tmp + (size_t)j * w,
		       w * sizeof(uint32_t));
	}
	free(tmp);
	return 0;
}

static void raw_rect(struct fbdec *d, unsigned x, unsigned y, unsigned w, unsigned h,
		     const uint8_t *src)
{
	for (unsigned j = 0; j < h; j++) {
		const uint8_t *s = src + (size_t)j * w * 4;
		uint32_t *row = d->fb + (size_t)(y + j) * d->w + x;
		for (unsigned i = 0; i < w; i++) {
			row[i] = (uint32_t)s[4 * i] | (uint32_t)s[4 * i + 1] << 8 |
				 (uint32_t)s[4 * i + 2] << 16;
		}
	}
}

/* The rectangle's compressed bytes through the connection's one zlib stream. */
static int inflate_rect(struct fbdec *d, const uint8_t *in, size_t len, size_t bound,
			size_t *ret_len)
{
	if (d->tmp_cap < bound) {
		uint8_t *t = realloc(d->tmp, bound);
		if (!t) {
			return -ENOMEM;
		}
		d->tmp = t;
		d->tmp_cap = bound;
	}
	d->z.next_in = (Bytef *)(uintptr_t)in;
	d->z.avail_in = (uInt)len;
	d->z.next_out = d->tmp;
	d->z.avail_out = (uInt)bound;
	while (d->z.avail_in > 0) {
		int zr = inflate(&d->z, Z_SYNC_FLUSH);
		if (zr != Z_OK && zr != Z_BUF_ERROR) {
			return -EINVAL;
		}
		if (d->z.avail_out == 0 || (zr == Z_BUF_ERROR && d->z.avail_in > 0)) {
			return -EINVAL;
		}
	}
	*ret_len = bound - d->z.avail_out;
	return 0;
}

static int tile_palette(struct fbdec *d, struct rd *r, unsigned x, unsigned y, unsigned tw,
			unsigned th, unsigned n)
{
	uint32_t pal[128];
	for (unsigned i = 0; i < n; i++) {
		if (!cpixel(r, &pal[i])) {
			return -EINVAL;
		}
	}
	/* ZRLE packs a palette index in 1, 2 or 4 bits by the palette's size (RFC 6143 7.7.6). */
	unsigned bits = 4;
	if (n <= 2) {
		bits = 1;
	} else if (n <= 4) {
		bits = 2;
	}
	size_t row_bytes = (tw * bits + 7) / 8;
	for (unsigned j = 0; j < th; j++) {
		const uint8_t *row;
		if (!take(r, row_bytes, &row)) {
			return -EINVAL;
		}
		uint32_t *out = d->fb + (size_t)(y + j) * d->w + x;
		for (unsigned i = 0; i < tw; i++) {
			unsigned bit = i * bits;
			unsigned idx = (row[bit / 8] >> (8 - bits - bit % 8)) & ((1u << bits) - 1);
			if (idx >= n) {
				return -EINVAL;
			}
			out[i] = pal[idx];
		}
	}
	return 0;
}

static bool run_length(struct rd *r, size_t *ret)
{
	size_t len = 1;
	const uint8_t *b;
	do {
		if (!take(r, 1, &b)) {
			return false;
		}
		len += *b;
	} while (*b == 255 && len < (1u << 24));
	*ret = len;
	return true;
}

static int tile_rle(struct fbdec *d, struct rd *r, unsigned x, unsigned y, unsigned tw, unsigned th,
		    unsigned n)
{
	uint32_t pal[128];
	for (unsigned i = 0; i < n; i++) {
		if (!cpixel(r, &pal[i])) {
			return -EINVAL;
		}
	}
	size_t total = (size_t)tw * th, at = 0;
	while (at < total) {
		uint32_t px;
		size_t len = 1;
		if (n == 0) {
			if (!cpixel(r, &px) || !run_length(r, &len)) {
				return -EINVAL;
			}
		} else {
			const uint8_t *b;
			if (!take(r, 1, &b) || (*b & 127) >= n) {
				return -EINVAL;
			}
			px = pal[*b & 127];
			if ((*b & 128) && !run_length(r, &len)) {
				return -EINVAL;
			}
		}
		if (len > total - at) {
			return -EINVAL;
		}
		for (size_t k = 0; k < len; k++, at++) {
			d->fb[(size_t)(y + at / tw) * d->w + x + at % tw] = px;
		}
	}
	return 0;
}

static int tile(struct fbdec *d, struct rd *r, unsigned x, unsigned y, unsigned tw, unsigned th)
{
	const uint8_t *b;
	if (!take(r, 1, &b)) {
		return -EINVAL;
	}
	unsigned sub = *b;
	uint32_t px;
	if (sub == 0) {
		for (unsigned j = 0; j < th; j++) {
			for (unsigned i = 0; i < tw; i++) {
				if (!cpixel(r, &px)) {
					return -EINVAL;
				}
				d->fb[(size_t)(y + j) * d->w + x + i] = px;
			}
		}
		return 0;
	}
	if (sub == 1) {
		if (!cpixel(r, &px)) {
			return -EINVAL;
		}
		fill(d, x, y, tw, th, px);
		return 0;
	}
	if (sub <= 16) {
		return tile_palette(d, r, x, y, tw, th, sub);
	}
	if (sub == 128) {
		return tile_rle(d, r, x, y, tw, th, 0);
	}
	if (sub >= 130) {
		return tile_rle(d, r, x, y, tw, th, sub - 128);
	}
	return -EINVAL;
}

static int zrle_rect(struct fbdec *d, unsigned x, unsigned y, unsigned w, unsigned h,
		     const uint8_t *data, size_t len)
{
	size_t tiles = (size_t)((w + 63) / 64) * ((h + 63) / 64);
	size_t out;
	int e = inflate_rect(d, data, len, (size_t)w * h * 5 + tiles * 64 + 1024, &out);
	if (e < 0) {
		return e;
	}
	struct rd r = {d->tmp, d->tmp + out};
	for (unsigned ty = 0; ty < h; ty += 64) {
		for (unsigned tx = 0; tx < w; tx += 64) {
			unsigned tw = w - tx < 64 ? w - tx : 64, th = h - ty < 64 ? h - ty : 64;
			if ((e = tile(d, &r, x + tx, y + ty, tw, th)) < 0) {
				return e;
			}
		}
	}
	return 0;
}

static int rect(struct fbdec *d, const uint8_t *p, size_t size)
{
	unsigned x = be16(p), y = be16(p + 2), w = be16(p + 4), h = be16(p + 6);
	int32_t enc = (int32_t)be32(p + 8);
	if (enc == RFB_ENC_DESKTOP_SIZE || enc == RFB_ENC_EXT_DESKTOP_SIZE) {
		return resize(d, w, h);
	}
	if (!inside(d, x, y, w, h)) {
		return -EINVAL;
	}
	switch (enc) {
	case RFB_ENC_RAW:
		raw_rect(d, x, y, w, h, p + 12);
		return 0;
	case RFB_ENC_COPYRECT:
		return copy_rect(d, x, y, w, h, p + 12);
	case RFB_ENC_ZRLE:
		return zrle_rect(d, x, y, w, h, p + 16, size - 16);
	default:
		return -EINVAL;
	}
}

int fbdec_apply(struct fbdec *d, const uint8_t *msg, size_t len)
{
	if (len < 4 || msg[0] != RFB_MSG_FB_UPDATE) {
		return -EINVAL;
	}
	unsigned n = be16(msg + 2);
	size_t pos = 4;
	for (unsigned i = 0; i < n; i++) {
		size_t size;
		if (rfbframe_rect_size(msg + pos, len - pos, &size) < 0) {
			return -EINVAL;
		}
		int e = rect(d, msg + pos, size);
		if (e < 0) {
			return e;
		}
		pos += size;
	}
	return pos == len ? 0 : -EINVAL;
}
