/* The lease as the gate sees it: an inotify watch on the profile's directory, re-read on every
 * change; the hand-back's screen restore; the applied epoch published for `botdesk release`;
 * and the activity stamp a human's input leaves for the idle clock. */
#pragma once

#include <X11/Xlib.h>
#include <stdbool.h>
#include <stdint.h>

#include "lease.h"

struct watch {
	int dirfd;
	int inotify_fd; /* in the gate's epoll set; also drained before each controller's read */
	struct lease lease;
	unsigned width, height; /* the configured geometry a hand-back restores */
	Display *dpy;           /* opened at the first restore */
	uint64_t last_stamp_ms;
};

/* Opens state_dir (never through a symlink), watches it, reads the lease and publishes it as
 * applied. */
int watch_open(struct watch *w, const char *state_dir, unsigned width, unsigned height);
void watch_close(struct watch *w);

/* Takes in whatever changed since the last call (a non-blocking read: nothing waits). A change
 * to the agent restores the screen; every change is then published as applied. */
void watch_refresh(struct watch *w);

/* Whether a controller's input may reach the desktop: only while a human holds the lease. */
static inline bool watch_human_holds(const struct watch *w)
{
	return w->lease.holder == LEASE_HUMAN;
}

/* A human's input reached the desktop: stamps the activity file, at most once a second. */
void watch_stamp_activity(struct watch *w);
