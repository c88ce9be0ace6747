#include "modelpic.h"

#include <errno.h>
#include <stdint.h>

bool modelpic_fits(unsigned w, unsigned h)
{
	uint64_t tiles = (uint64_t)((w + MODELPIC_TILE - 1) / MODELPIC_TILE) *
			 ((h + MODELPIC_TILE - 1) / MODELPIC_TILE);
	return w <= MODELPIC_EDGE_MAX && h <= MODELPIC_EDGE_MAX && tiles <= MODELPIC_TILES_MAX;
}

/* The height of a picture w wide with the screen's aspect, to the nearest pixel, at least 1. */
static unsigned height_for(unsigned w, unsigned sw, unsigned sh)
{
	unsigned h = (unsigned)((2 * (uint64_t)w * sh + sw) / (2 * (uint64_t)sw));
	return h ? h : 1;
}

void modelpic_size(unsigned sw, unsigned sh, unsigned *ret_w, unsigned *ret_h)
{
	if (sw == 0 || sh == 0) {
		*ret_w = *ret_h = 0;
		return;
	}
	if (modelpic_fits(sw, sh)) {
		*ret_w = sw;
		*ret_h = sh;
		return;
	}
	/* h grows with w, so the widths that fit are a prefix: the first one met going down is
	 * the widest. At most 1568 steps of a few operations each. */
	unsigned w = sw < MODELPIC_EDGE_MAX ? sw : MODELPIC_EDGE_MAX;
	while (w > 1 && !modelpic_fits(w, height_for(w, sw, sh))) {
		w--;
	}
	unsigned h = height_for(w, sw, sh);
	*ret_w = w;
	*ret_h = h < MODELPIC_EDGE_MAX ? h : MODELPIC_EDGE_MAX;
}

static int point(const char *xn, const char *yn, unsigned x, unsigned y, unsigned mw, unsigned mh,
		 unsigned sw, unsigned sh, struct error *err)
{
	if (x < mw && y < mh) {
		return 0;
	}
	return error_set_kind(
		err, ERROR_BAD_INPUT, -EINVAL,
		"%s,%s = %u,%u is off the %ux%u picture the screenshots are sized to (0 to %u, 0 to %u); for screen pixels give from = the screen's size, %ux%u",
		xn, yn, x, y, mw, mh, mw - 1, mh - 1, sw, sh);
}

/* [a, a + n) of a picture `pic` wide: the screen pixels that cover it. */
static void span(unsigned a, unsigned n, unsigned pic, unsigned screen, unsigned *ret_a,
		 unsigned *ret_n)
{
	uint64_t s0 = (uint64_t)a * screen / pic;
	uint64_t s1 = ((uint64_t)(a + n) * screen + pic - 1) / pic;
	*ret_a = (unsigned)s0;
	*ret_n = (unsigned)((s1 > screen ? screen : s1) - s0);
}

static int region(const struct act_req *rq, unsigned pw, unsigned ph, unsigned sw, unsigned sh,
		  struct act_req *ret, struct error *err)
{
	if ((uint64_t)rq->rx + rq->rw > pw || (uint64_t)rq->ry + rq->rh > ph) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"region [%u, %u, %u, %u] reaches outside the %ux%u picture it is read in (the screen is %ux%u; for screen pixels give from = %ux%u)",
			rq->rx, rq->ry, rq->rw, rq->rh, pw, ph, sw, sh, sw, sh);
	}
	span(rq->rx, rq->rw, pw, sw, &ret->rx, &ret->rw);
	span(rq->ry, rq->rh, ph, sh, &ret->ry, &ret->rh);
	ret->from_w = ret->from_h = 0;
	return 0;
}

int modelpic_request(const struct act_req *rq, unsigned sw, unsigned sh, struct act_req *ret,
		     struct error *err)
{
	unsigned mw, mh;
	modelpic_size(sw, sh, &mw, &mh);
	*ret = *rq;
	if (rq->cmd == ACT_SCREENSHOT) {
		if (rq->region) {
			unsigned pw = rq->from_w ? rq->from_w : mw,
				 ph = rq->from_w ? rq->from_h : mh;
			return pw == sw && ph == sh ? 0 : region(rq, pw, ph, sw, sh, ret, err);
		}
		if (!rq->max_w && (mw != sw || mh != sh)) {
			ret->max_w = mw;
			ret->max_h = mh;
		}
		return 0;
	}
	bool pointer = act_is_pointer(rq->cmd);
	if ((!pointer && rq->cmd != ACT_CURSOR) || rq->from_w || (mw == sw && mh == sh)) {
		return 0;
	}
	bool two = rq->cmd == ACT_DRAG;
	int r = 0;
	if (pointer && !rq->at_pointer) {
		r = point(two ? "x1" : "x", two ? "y1" : "y", rq->x, rq->y, mw, mh, sw, sh, err);
	}
	if (r == 0 && two) {
		r = point("x2", "y2", rq->x2, rq->y2, mw, mh, sw, sh, err);
	}
	for (size_t i = 0; r == 0 && i < rq->n_path; i++) {
		r = point("path x", "y", rq->path[i][0], rq->path[i][1], mw, mh, sw, sh, err);
	}
	ret->from_w = mw;
	ret->from_h = mh;
	return r;
}
