/* botdesk-record's recording: one viewer on the view door whose whole server→client updates go
 * to <state>/recordings/<id>.rfb with their times, lease changes to <id>.events, until the
 * desktop ends (the door closes, or the launcher named is gone) or TERM. */
#pragma once

#include <stdint.h>
#include <sys/types.h>

#include "error.h"

struct recorder_opts {
	const char *state_dir; /* the profile's directory */
	const char *view_path; /* its view door */
	uint64_t max_bytes;    /* all recordings together; the oldest go first */
	pid_t launcher_pid; /* 0: none to watch (the session is our parent and PDEATHSIG binds) */
	uint64_t launcher_starttime;
	int notify_fd; /* -1, or where "ok <id>\n" or "error <message>\n" goes once started */
};

/* At most five updates a second: Xvnc encodes each one for us, and on a screen that changes all
 * the time (a video full screen) its ZRLE encoder is the whole cost: 14.5 % of a core at ten a
 * second, 7 % at five (bench/record). Five a second still shows every step an agent takes. */
#define RECORDER_MIN_INTERVAL_MS 200
/* The handshake with the view door, each read. */
#define RECORDER_CONNECT_TIMEOUT_MS 10000

/* Runs until the end; 0 after a clean end, -EBUSY when another recorder holds the desktop. */
int recorder_run(const struct recorder_opts *o, struct error *err);

/* Removes the oldest recordings under dirfd (never keep, which may be NULL) until all of them
 * together take at most max_bytes. */
int recorder_prune(int dirfd, const char *keep, uint64_t max_bytes);
