/* A picture of the screen, or of a region of it: grabbed through libX11 (MIT-SHM in strips when
 * the server offers it), scaled by area averaging to fit a box (thumbscale.c), encoded as PNG
 * (pngenc.c) or JPEG (jpegenc.c) as the rows arrive. The thumbnail and the screenshot are both
 * this. */
#pragma once

#include <stdbool.h>

#include <X11/Xlib.h>
#include <stddef.h>

#include "error.h"

enum grab_format {
	GRAB_PNG,
	GRAB_JPEG,
};

struct grab_request {
	/* The region in screen pixels; w == 0 means the whole screen. The caller has checked
	 * that it lies on the screen. */
	unsigned x, y, w, h;
	/* The box the picture is fitted inside (never enlarged unless enlarge); 0 x 0 means full
	 * size. */
	unsigned max_w, max_h;
	bool enlarge; /* a region smaller than the box is scaled up to fill it (a zoom) */
	enum grab_format format;
	int quality; /* JPEG, 1-100 */
};

struct grab_result {
	unsigned char *data; /* malloc'ed */
	size_t len;
	unsigned w, h; /* the picture's size */
};

/* On an open connection (xconn.h). A broken connection returns -ECONNRESET: the Display is then
 * dead and must be abandoned, not closed. */
int grab_encode(Display *dpy, const struct grab_request *rq, struct grab_result *ret,
		struct error *err);
