#include "thumbscale.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void thumbscale_fit(unsigned sw, unsigned sh, unsigned max_w, unsigned max_h, unsigned *ret_w,
		    unsigned *ret_h)
{
	if (sw <= max_w && sh <= max_h) {
		*ret_w = sw;
		*ret_h = sh;
		return;
	}
	thumbscale_fill(sw, sh, max_w, max_h, ret_w, ret_h);
}

void thumbscale_fill(unsigned sw, unsigned sh, unsigned max_w, unsigned max_h, unsigned *ret_w,
		     unsigned *ret_h)
{
	unsigned w, h;
	if ((uint64_t)sw * max_h >= (uint64_t)sh * max_w) {
		w = max_w;
		h = (unsigned)(((uint64_t)sh * max_w + sw / 2) / sw);
	} else {
		h = max_h;
		w = (unsigned)(((uint64_t)sw * max_h + sh / 2) / sh);
	}
	*ret_w = w ? w : 1;
	*ret_h = h ? h : 1;
}

void thumbscale_axis_free(struct thumbscale_axis *a)
{
	free(a->first);
	free(a->n);
	free(a->off);
	free(a->w);
	/* A failed make frees what it got, and its owner frees the axis again later. */
	*a = (struct thumbscale_axis){0};
}

int thumbscale_axis_make(unsigned src, unsigned dst, struct thumbscale_axis *a)
{
	*a = (struct thumbscale_axis){0};
	/* Each source index lands in at most two outputs when reducing. */
	size_t cap = (size_t)src + dst;
	a->first = calloc(dst, sizeof(unsigned));
	a->n = calloc(dst, sizeof(unsigned));
	a->off = calloc(dst, sizeof(unsigned));
	a->w = calloc(cap, sizeof(uint16_t));
	if (!a->first || !a->n || !a->off || !a->w) {
		thumbscale_axis_free(a);
		return -ENOMEM;
	}
	/* In units where a source pixel is dst long and an output pixel src long, the overlaps
	 * are exact integers summing to src. */
	size_t k = 0;
	for (unsigned o = 0; o < dst; o++) {
		uint64_t lo = (uint64_t)o * src, hi = lo + src;
		unsigned i = (unsigned)(lo / dst);
		a->first[o] = i;
		a->off[o] = (unsigned)k;
		unsigned total = 0;
		size_t biggest = k;
		for (; (uint64_t)i * dst < hi && i < src && k < cap; i++) {
			uint64_t from = (uint64_t)i * dst, to = from + dst;
			from = from > lo ? from : lo;
			to = to < hi ? to : hi;
			unsigned w = (unsigned)((((to - from) << 8) + src / 2) / src);
			if (w > a->w[biggest]) {
				biggest = k;
			}
			a->w[k++] = (uint16_t)w;
			total += w;
			a->n[o]++;
		}
		/* Rounding leaves the sum a little off 256: the largest weight absorbs it. */
		a->w[biggest] = (uint16_t)(a->w[biggest] + 256 - total);
	}
	return 0;
}

void thumbscale_free(struct thumbscale *sc)
{
	thumbscale_axis_free(&sc->xs);
	thumbscale_axis_free(&sc->ys);
	free(sc->acc[0]);
	free(sc->acc[1]);
	free(sc->vrow);
	free(sc->out);
}

int thumbscale_init(struct thumbscale *sc, unsigned sw, unsigned sh, unsigned ow, unsigned oh,
		    void (*emit)(void *ctx, const unsigned char *row), void *ctx)
{
	*sc = (struct thumbscale){.sw = sw, .sh = sh, .ow = ow, .oh = oh, .emit = emit, .ctx = ctx};
	int r = thumbscale_axis_make(sw, ow, &sc->xs);
	if (r == 0) {
		r = thumbscale_axis_make(sh, oh, &sc->ys);
	}
	sc->acc[0] = calloc((size_t)sw * 4, sizeof(uint16_t));
	sc->acc[1] = calloc((size_t)sw * 4, sizeof(uint16_t));
	sc->vrow = malloc((size_t)sw * 4);
	sc->out = malloc((size_t)ow * 3);
	if (r == 0 && (!sc->acc[0] || !sc->acc[1] || !sc->vrow || !sc->out)) {
		r = -ENOMEM;
	}
	return r;
}

/* The vertical pass runs on GCC/Clang vector types, sixteen bytes of a row at a time in 16-bit
 * lanes (a weight of at most 256 times a level of at most 255, summed over weights that total
 * 256, fits); at -O2 the compiler would leave the loop scalar. */
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint16_t u16x16 __attribute__((vector_size(32)));

/* A BGRX pixel spread into the four 16-bit lanes of a 64-bit word (B lowest), so that one
 * multiply weighs all four channels: a level times a weight is at most 65280 and the weights of
 * an output pixel sum to 256, so no lane ever carries into the next. */
static inline uint64_t spread(uint32_t px)
{
	uint64_t x = px;
	x = (x | (x << 16)) & 0x0000ffff0000ffffULL;
	return (x | (x << 8)) & 0x00ff00ff00ff00ffULL;
}

/* One row of levels (BGRX) reduced horizontally into RGB. */
static void reduce_row(const struct thumbscale_axis *restrict xs, unsigned ow,
		       const uint8_t *restrict v, unsigned char *restrict out)
{
	for (unsigned ox = 0; ox < ow; ox++) {
		const uint8_t *p = v + 4 * (size_t)xs->first[ox];
		const uint16_t *w = xs->w + xs->off[ox];
		uint64_t sum = 0;
		/* Two taps, the case of every reduction by less than two (1440 to 960), without
		 * the loop. */
		if (xs->n[ox] == 2) {
			uint32_t a, b;
			memcpy(&a, p, sizeof(a));
			memcpy(&b, p + 4, sizeof(b));
			sum = spread(a) * w[0] + spread(b) * w[1];
		} else {
			for (unsigned j = 0; j < xs->n[ox]; j++, p += 4) {
				uint32_t px;
				memcpy(&px, p, sizeof(px));
				sum += spread(px) * w[j];
			}
		}
		/* Back from weights summing to 256, rounded: each lane + 128, >> 8. */
		sum = ((sum + 0x0080008000800080ULL) >> 8) & 0x00ff00ff00ff00ffULL;
		out[3 * ox] = (unsigned char)(sum >> 32);
		out[3 * ox + 1] = (unsigned char)(sum >> 16);
		out[3 * ox + 2] = (unsigned char)sum;
	}
}

/* The vertical sums back to levels (rounded), the row reduced horizontally, and handed on. */
static void finish_row(struct thumbscale *sc)
{
	const uint16_t *acc = sc->acc[sc->oy & 1];
	uint8_t *restrict v = sc->vrow;
	size_t n = (size_t)sc->sw * 4, i = 0;
	for (; i + 16 <= n; i += 16) {
		u16x16 a;
		memcpy(&a, acc + i, sizeof(a));
		u8x16 b = __builtin_convertvector((a + 128) >> 8, u8x16);
		memcpy(v + i, &b, sizeof(b));
	}
	for (; i < n; i++) {
		v[i] = (uint8_t)((acc[i] + 128) >> 8);
	}
	reduce_row(&sc->xs, sc->ow, v, sc->out);
	sc->emit(sc->ctx, sc->out);
	sc->oy++;
}

/* acc (+)= w * row, sixteen bytes at a time; the first row of an output row sets it. */
static void accumulate(uint16_t *restrict acc, const uint8_t *restrict row, size_t n, uint16_t w,
		       bool first)
{
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		u8x16 b;
		u16x16 a = {0};
		memcpy(&b, row + i, sizeof(b));
		if (!first) {
			memcpy(&a, acc + i, sizeof(a));
		}
		a += __builtin_convertvector(b, u16x16) * w;
		memcpy(acc + i, &a, sizeof(a));
	}
	for (; i < n; i++) {
		acc[i] = (uint16_t)((first ? 0 : acc[i]) + w * row[i]);
	}
}

void thumbscale_push(struct thumbscale *sc, const uint8_t *row)
{
	unsigned y = sc->next_row++;
	const struct thumbscale_axis *ys = &sc->ys;
	for (unsigned o = sc->oy; o < sc->oh && ys->first[o] <= y; o++) {
		unsigned k = y - ys->first[o];
		if (k < ys->n[o]) {
			accumulate(sc->acc[o & 1], row, (size_t)sc->sw * 4, ys->w[ys->off[o] + k],
				   k == 0);
		}
		/* Enlarging, one source row feeds several output rows, two of them on the same
		 * accumulator: each is finished as soon as it is whole, before the next takes it.
		 */
		if (o == sc->oy && y + 1 >= ys->first[o] + ys->n[o]) {
			finish_row(sc);
		}
	}
	while (sc->oy < sc->oh && y + 1 >= ys->first[sc->oy] + ys->n[sc->oy]) {
		finish_row(sc);
	}
}
