/* The idle stop: the session ends its own desktop once nobody has used it for the configured
 * time, and never while a human holds it. Use is what stamps `activity` in the state directory
 * (start, exec, every agent action, take and release, a human's input through the gate); the
 * session's own start counts too. No cron job or host service is involved: the session's
 * supervision loop simply wakes at the moment the desktop would become idle and looks again. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct idle {
	int dirfd;         /* the profile's state directory */
	uint64_t limit_ms; /* 0: never */
	time_t started;    /* wall clock: the session's start is a use */
};

/* An idle watch not opened: idle_close() of it closes nothing. */
#define IDLE_INIT           \
	{                   \
		.dirfd = -1 \
	}
/* Opens state_dir; with limit_ms 0 nothing is opened and nothing ever expires. */
int idle_open(struct idle *i, const char *state_dir, uint64_t limit_ms);
void idle_close(struct idle *i);

/* Looks now: 1 when the desktop has been unused for the limit and the agent holds it (stop
 * it), else 0 with *ret_deadline_ms (monotonic) set to when to look again, or 0 for never. */
int idle_check(const struct idle *i, uint64_t *ret_deadline_ms);

/* The pure arithmetic of it, in milliseconds of wall clock: how long until last_use_ms is
 * limit_ms old (0 when it is), given now_ms. */
uint64_t idle_remaining_ms(int64_t last_use_ms, int64_t now_ms, uint64_t limit_ms);
