/* What a pointer action changed on the screen (--changes): the root window's DAMAGE rectangles
 * in the moment after it, merged into a few boxes, so an agent knows whether its click did
 * anything, and where, without another screenshot. */
#pragma once

#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <stdbool.h>

#include "act.h"
#include "screenwait.h"

struct changes {
	Display *dpy;
	int event_base;
	Damage damage;
	/* The action's own watch (the MCP server's, act->watch), whose events come on the same
	 * connection: taken here, they keep it armed and say the screen changed. NULL: none. */
	struct screenwait *watch;
	bool *watch_changed;
};

/* Starts recording rectangles, before the action's first event. -ENOTSUP without DAMAGE. */
int changes_begin(struct changes *c, Display *dpy, struct screenwait *watch, bool *watch_changed);
/* Waits until the screen has been still ACT_CHANGES_QUIET_MS after a change (at most
 * ACT_CHANGES_WAIT_MS), fills out->regions, and stops recording. */
void changes_collect(struct changes *c, struct act_out *out);
/* Stops recording without waiting (the action failed). */
void changes_end(struct changes *c);

/* Adds r to the n boxes (at most ACT_CHANGED_MAX): merged into a box it touches, else a box of
 * its own, else into the box it grows least. Pure: unit-tested. */
void changes_add(struct act_rect *boxes, size_t *n, struct act_rect r);
