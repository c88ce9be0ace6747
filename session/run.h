/* The state of one desktop's run, shared by the session's orchestration (session.c) and the
 * code that starts its parts (components.c). Not a public interface. */
#pragma once

#include <X11/Xlib.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "claim.h"
#include "contract.h"
#include "dock.h"
#include "error.h"
#include "strv.h"
#include "supervisor.h"
#include "xauth.h"

enum program {
	PROG_DBUS,
	PROG_XFSETTINGSD,
	PROG_XFWM4,
	PROG_XFDESKTOP,
	PROG_PANEL,
	PROG_COUNT,
};

extern const char *const components_names[PROG_COUNT];

/* What each part of the desktop gets when the session ends without stopping it (SIGKILL, a
 * crash): the desktop must not outlive its supervisor, serving a frozen screen that status calls
 * stopped. KILL, because nobody is left to coordinate a graceful end, and the next start clears
 * what the parts leave behind. dbus-run-session is the exception: the session's lifeline ends
 * it (its relay sees the pipe close), so that it still stops its bus daemon. */
#define SESSION_CHILD_DEATH_SIGNAL SIGKILL

struct run {
	const struct session_config *cfg;
	const struct dock *dock;
	const char *self;
	char *const *environ_base;
	struct supervisor sv;
	struct logrelay log; /* the parts' stdout and stderr, into launcher.log */
	struct claim claim;
	struct xauth_cookie cookie;
	char *xvnc;
	char *programs[PROG_COUNT];
	int displayfd; /* read end: Xvnc writes its number when it accepts clients */
	int bus_fd;    /* read end: the relay inside dbus-run-session writes the bus address */
	int lifeline;  /* write end: the relay keeps the bus up until it closes */
	int notify_fd; /* write end: the runner's handshake pipe until "ready" (notify.h) */
	char display[16];
	char bus_addr[512];
	char *cache_home, *data_home;
	struct strv env;
	Display *dpy;           /* kept after start-up to follow the screen's size */
	unsigned width, height; /* the screen's size as last published */
	bool published;
	uint64_t t0, t_claimed, t_xvnc; /* for the log line that says how long start-up took */
	uint64_t deadline;              /* monotonic ms: every wait of the bring-up ends by then */
};

/* components.c: finding and starting the desktop's parts. */
int components_find(struct run *run, struct error *err);
int components_start_xvnc(struct run *run, struct error *err);
int components_start_bus(struct run *run, struct error *err);
int components_start(struct run *run, enum program p, const char *const *args, bool essential,
		     struct error *err);
int components_build_env(struct run *run, bool with_bus);
/* A log pipe for one part (fds 1 and 2 of it), or -1 where none can be had: the part then
 * writes to our stderr as it is. */
int components_log_fd(struct run *run);
int components_publish(struct run *run, struct error *err);

/* session.c: stops everything below the session (TERM, SESSION_STOP_GRACE_MS, KILL, at most
 * SUPERVISOR_KILL_WAIT_MS) and then always releases the claim: the teardown's bounded part. */
void session_stop(struct supervisor *sv, struct claim *claim);
