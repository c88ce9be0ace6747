/* The X events of a pointer command (click, drag, scroll, mouse-down and -up; move has only its
 * first motion), the
 * same whichever X library sends them: Xlib's libXtst in actinput.c, XCB in xptr.c. Pure: no X. */
#pragma once

#include <stdbool.h>

#include "actargs.h"

/* The gap the server puts before each press of a click after the first (XTEST's own delay: the
 * server holds the event that long, no client sleeps). Toolkits count presses into one click
 * only when their server times differ: Chromium takes two presses of the same millisecond for
 * one event seen twice, and a triple click sent back to back came out as three single ones.
 * xdotool's click --repeat waits 10 ms too. */
#define PTRSEQ_CLICK_GAP_MS 10

struct ptrseq_ops {
	void (*motion)(void *ctx, unsigned x, unsigned y);
	/* delay_ms: how long the server waits before it takes the event. */
	void (*button)(void *ctx, unsigned button, bool down, unsigned delay_ms);
};

/* Emits what follows the pointer's motion to (x, y), the first event, which the caller sends
 * itself (it is where a missing XTEST shows): the presses, releases and a drag's way to
 * (x2, y2), or along path (rq->n_path screen points, the first at x, y; NULL for none). */
void ptrseq_emit(const struct act_req *rq, unsigned x, unsigned y, unsigned x2, unsigned y2,
		 unsigned (*path)[2], const struct ptrseq_ops *ops, void *ctx);
