/* The session is the supervisor of everything it starts. It is a child subreaper, so a component
 * that daemonizes (forks and leaves the process group) is still its child; signals arrive through
 * a signalfd, so every wait of the session is one poll() over its events. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "logrelay.h"

#define SUPERVISOR_MAX_CHILDREN 16
/* After KILL, how long to wait for the victims to be reaped before giving up on them (one stuck
 * in the kernel): the kernel needs only to schedule them. */
#define SUPERVISOR_KILL_WAIT_MS 1000

struct sv_child {
	char name[32];
	pid_t pid;
	bool essential; /* the desktop is over when it ends */
	bool running;
	int status; /* wait status, once ended */
};

/* A process below the supervisor as a /proc scan saw it: what a signal re-checks before it is
 * sent. */
struct sv_proc {
	pid_t pid;
	pid_t ppid;
	uint64_t starttime; /* clock ticks after boot, /proc/<pid>/stat field 22 */
};

struct supervisor {
	int sigfd;
	struct sv_child children[SUPERVISOR_MAX_CHILDREN];
	size_t n;
	int stop_signal;              /* TERM, INT or HUP once one arrived */
	const struct sv_child *ended; /* the first essential child that ended */
	struct logrelay *log;         /* the children's log pipes, drained in every wait; or NULL */
};

/* A supervisor not yet set up: supervisor_done() of it closes nothing. */
#define SUPERVISOR_INIT     \
	{                   \
		.sigfd = -1 \
	}
/* Becomes a subreaper and routes TERM, INT, HUP and CHLD to a signalfd. */
int supervisor_init(struct supervisor *s);
void supervisor_done(struct supervisor *s);

/* Watches a child the session started. */
int supervisor_watch(struct supervisor *s, const char *name, pid_t pid, bool essential);

/* Waits until fd (unless -1) is readable: 1. The children's log is moved on the way. Or returns 0
 * when deadline_ms (monotonic, 0 for none) passed, -EINTR once a stop was requested, -ECHILD once
 * an essential child ended. Ended children of any kind are reaped on the way. */
int supervisor_wait(struct supervisor *s, int fd, uint64_t deadline_ms);

/* The child to name for the desktop's end: s->ended, unless the child named server (the X
 * server) ends too within wait_ms, reaped on the way: its clients end when it does, often before
 * it is reaped (an OOM kill of Xvnc first shows as xfwm4's "exit status 1"), and the server's
 * end is the cause a user needs. */
const struct sv_child *supervisor_cause(struct supervisor *s, const char *server, uint64_t wait_ms);

/* Sends sig to p through a pidfd, only if p->pid still names that process: the same start time
 * and a parent that is p->ppid or us. -ESRCH when it ended or its pid is another's now. */
int supervisor_signal(const struct sv_proc *p, int sig);

/* Stops every descendant (found through /proc, each signalled with supervisor_signal()): TERM
 * and CONT at once, KILL to whatever is left after grace_ms. Returns when no child is left, and
 * at the latest SUPERVISOR_KILL_WAIT_MS after the KILL if something cannot be reaped. */
void supervisor_stop_all(struct supervisor *s, uint64_t grace_ms);

/* Every live process below us (a /proc scan over parent links), at most max. */
size_t supervisor_descendants(struct sv_proc *out, size_t max);
/* The same set, found from our own tree alone (/proc/<pid>/task/<tid>/children of each member,
 * from us down: everything a component left behind was re-parented to us, the subreaper) rather
 * than by reading every process on the host: at a hundred desktops a walk of /proc reads a
 * thousand files. Falls back to supervisor_descendants where the kernel has no children files. */
size_t supervisor_tree(struct sv_proc *out, size_t max);
