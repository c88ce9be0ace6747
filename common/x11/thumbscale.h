/* The thumbnail's geometry and scaler: a screen fitted inside a box, and an area-averaging filter
 * that streams its rows there. Pure arithmetic (no X, no PNG), so it is tested on synthetic
 * screens. */
#pragma once

#include <stdint.h>

/* The largest size inside max_w x max_h with the aspect ratio of sw x sh: never larger than
 * sw x sh, never empty unless that is. */
void thumbscale_fit(unsigned sw, unsigned sh, unsigned max_w, unsigned max_h, unsigned *ret_w,
		    unsigned *ret_h);
/* The largest size of sw x sh's aspect inside max_w x max_h, enlarging too (a zoomed region). */
void thumbscale_fill(unsigned sw, unsigned sh, unsigned max_w, unsigned max_h, unsigned *ret_w,
		     unsigned *ret_h);

/* Area averaging: every output pixel is the mean of the source area it covers, partly covered
 * source pixels weighted by how much of them it covers. Weights are fractions of 256 that sum to
 * exactly 256 per output pixel, so both passes are integer multiply-adds and shifts. */
struct thumbscale_axis {
	unsigned *first; /* per output index: its first source index */
	unsigned *n;     /* how many source indexes it covers */
	unsigned *off;   /* where its weights start in w */
	uint16_t *w;
};

/* The weights reducing src indexes to dst (0 < dst <= src); 0 or -ENOMEM. */
int thumbscale_axis_make(unsigned src, unsigned dst, struct thumbscale_axis *a);
/* Accepts an axis freed before, or one thumbscale_axis_make() failed to make. */
void thumbscale_axis_free(struct thumbscale_axis *a);

/* Streams source rows (32-bit BGRX) in, hands output rows (RGB) to a sink. Rows are
 * accumulated vertically as they arrive (a row counts towards at most two output rows), and an
 * output row is reduced horizontally once its last source row was added. Nothing larger than a
 * few rows is ever allocated: on a virtual machine, touching fresh memory costs more than the
 * arithmetic. */
struct thumbscale {
	unsigned sw, sh, ow, oh;
	struct thumbscale_axis xs, ys;
	uint16_t *acc[2]; /* the vertical sums of two output rows, 4 channels a pixel */
	uint8_t *vrow;    /* a finished vertical sum as levels */
	unsigned char *out;
	unsigned next_row; /* the next source row expected */
	unsigned oy;       /* the first output row not finished */
	void (*emit)(void *ctx, const unsigned char *row);
	void *ctx;
};

/* A scaler from sw x sh to ow x oh (as thumbscale_fit() chose) handing each output row, ow * 3
 * bytes, to emit(ctx, row) as soon as it is finished. 0 or -ENOMEM; thumbscale_free() either
 * way. */
int thumbscale_init(struct thumbscale *sc, unsigned sw, unsigned sh, unsigned ow, unsigned oh,
		    void (*emit)(void *ctx, const unsigned char *row), void *ctx);
/* The next source row, sw * 4 bytes of BGRX; rows come in order, sh of them. */
void thumbscale_push(struct thumbscale *sc, const uint8_t *row);
void thumbscale_free(struct thumbscale *sc);
