/* Waiting on the screen through XDamage, not by comparing pictures: the server says when any part
 * of the root window was drawn. */
#pragma once

#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <stdbool.h>
#include <stdint.h>

struct screenwait {
	Display *dpy;
	int event_base;
	Damage damage;
	uint64_t last_change_ms; /* monotonic; 0: none seen */
};

/* Starts watching the root window. -ENOTSUP when the server has no DAMAGE. */
int screenwait_start(struct screenwait *w, Display *dpy);
void screenwait_stop(struct screenwait *w);

/* Takes the events that arrived; true when any was a change. */
bool screenwait_drain(struct screenwait *w);

/* Returns 0 when the screen changed (after now, or already since the last drain when
 * already_changed is set), -ETIMEDOUT when it did not within timeout_ms. */
int screenwait_change(struct screenwait *w, uint64_t timeout_ms, uint64_t *ret_waited_ms);
/* Returns 0 once quiet_ms have passed without a change, -ETIMEDOUT when the screen kept
 * changing for timeout_ms. */
int screenwait_idle(struct screenwait *w, uint64_t quiet_ms, uint64_t timeout_ms,
		    uint64_t *ret_waited_ms);
