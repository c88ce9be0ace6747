#include "modelpic.h"

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
