/* A profile's desktop as a whole: is it running, start it, stop it. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "envfile.h"
#include "error.h"
#include "identity.h"
#include "profile.h"
#include "settings.h"

struct desktop_probe {
	bool launcher_live; /* launcher.pid names a live process born at the recorded time */
	struct identity launcher;
	bool running; /* ... and it has published an env file with DISPLAY */
	struct envfile env;
	char envbuf[4096];
};

/* A handful of file reads: launcher.pid, /proc/<pid>/stat, env. No /proc scan, no child. */
void desktop_probe(struct profile *p, struct desktop_probe *ret);

/* Starts the profile's desktop unless it runs already (idempotent). Holds the profile's start
 * lock throughout, so concurrent starts spawn one launcher; ret_probe (may be NULL) is taken
 * before the lock is let go, so it shows the desktop this start saw running even if a stop is
 * waiting to take it down. */
int desktop_start(const struct settings *s, struct profile *p, uint64_t wait_ms,
		  struct desktop_probe *ret_probe, struct error *err);

/* Stops the launcher's whole process group, or an X server a dead launcher left behind.
 * ret_stopped says whether anything was stopped. */
int desktop_stop(const struct settings *s, struct profile *p, bool *ret_stopped, struct error *err);

/* Before a client of ours talks to the running desktop's X server: the server answering its
 * number must run as us. Once a desktop is gone another user may serve its number, and a program
 * given the old DISPLAY would show them its windows and keystrokes. 0, or -EPERM (a stranger's
 * server) / -ECONNREFUSED (none answers) with the message in err. */
int desktop_verify_server(const struct settings *s, struct profile *p,
			  const struct desktop_probe *probe, struct error *err);

/* The usage and limit (MB) of the desktop's own cgroup; -1 when it has none. Two small reads. */
void desktop_own_memory(const struct settings *s, const struct desktop_probe *probe,
			int64_t *ret_mb, int64_t *ret_max_mb);

/* Moves the calling process into the desktop's own cgroup, when it has one, so that what exec
 * runs counts against the desktop's memory limit; a warning when it cannot. */
void desktop_join_cgroup(const struct settings *s, const struct desktop_probe *probe);
/* The desktop's own cgroup's cgroup.procs, opened for writing (O_CLOEXEC), for a process that
 * moves a child there before its exec (the clipboard's owner, what open and launch start);
 * -ENOENT when the desktop has no cgroup of its own. */
int desktop_cgroup_procs(const struct settings *s, const struct desktop_probe *probe);

/* Marks the desktop as used now (common/activity.h), and its X lock's mtime for list --all. */
void desktop_stamp_activity(const struct settings *s, struct profile *p);
/* Seconds since the last activity stamp, else since the env was published; -1 when unknown. */
int64_t desktop_idle_seconds(struct profile *p);
