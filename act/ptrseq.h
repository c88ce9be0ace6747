/* The X events of a pointer command (click, drag, scroll, mouse-down and -up; move has only its
 * first motion), the
 * same whichever X library sends them: Xlib's libXtst in act.c, XCB in xptr.c. Pure: no X. */
#pragma once

#include <stdbool.h>

#include "actargs.h"

struct ptrseq_ops {
	void (*motion)(void *ctx, unsigned x, unsigned y);
	void (*button)(void *ctx, unsigned button, bool down);
};

/* Emits what follows the pointer's motion to (x, y), the first event, which the caller sends
 * itself (it is where a missing XTEST shows): the presses, releases and a drag's way to
 * (x2, y2), or along path (rq->n_path screen points, the first at x, y; NULL for none). */
void ptrseq_emit(const struct act_req *rq, unsigned x, unsigned y, unsigned x2, unsigned y2,
		 unsigned (*path)[2], const struct ptrseq_ops *ops, void *ctx);
