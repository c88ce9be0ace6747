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
	pid_t launcher_pid;    /* 0: none to watch (the session is our parent and PDEATHSIG binds) */
	uint64_t launcher_starttime;
	int notify_fd; /* -1, or where "ok <id>\n" or "error <message>\n" goes once started */
};

/* Ask for at most this many updates a second: a busy screen costs Xvnc's encoder and us at most
 * that much, and export's frame rate needs no more. */
#define RECORDER_MIN_INTERVAL_MS 100
/* The handshake with the view door, each read. */
#define RECORDER_CONNECT_TIMEOUT_MS 10000

/* Runs until the end; 0 after a clean end, -EBUSY when another recorder holds the desktop. */
int recorder_run(const struct recorder_opts *o, struct error *err);

/* Removes the oldest recordings under dirfd (never keep, which may be NULL) until all of them
 * together take at most max_bytes. */
int recorder_prune(int dirfd, const char *keep, uint64_t max_bytes);
