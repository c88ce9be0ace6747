/* The agent's hands and eyes on one desktop, in-process: one X connection with the profile's
 * cookie, XTEST for the pointer and the keyboard, the shared grab for pictures, XDamage for the
 * waits. botdesk-act runs one request and exits; the MCP server keeps one of these for its
 * whole life. */
#pragma once

#include <X11/Xlib.h>
#include <stdbool.h>
#include <stdint.h>

#include "actargs.h"
#include "error.h"
#include "grab.h"
#include "lease.h"
#include "screenwait.h"

struct envfile;

struct act {
	Display *dpy;
	char display[64];
	char xauthority[4096]; /* the cookie file act_open was given: the clipboard's owner's too */
	/* botdesk-act's path: `clipboard set` starts it as the clipboard's owner (clipboard.h) */
	const char *program;
	/* open and launch (opener.h): the `browser` setting (or NULL), and the desktop's
	 * published variables (or NULL: the caller's environment alone) */
	const char *browser;
	const struct envfile *env;
	/* the desktop's cgroup.procs (desktop_cgroup_procs()), where what clipboard set, open and
	 * launch start is moved before its exec, so the desktop's limit covers it; or -1 */
	int cgroup_fd;
	unsigned sw, sh; /* the screen's size as of the last request */
	bool fresh;      /* sw, sh come from the connection's set-up, a moment ago */
	/* Called right before the first event of a request reaches the desktop: non-zero refuses
	 * (the lease: a human holds the desktop, with the message). The lease watch (lw) then
	 * stops the request between two events. */
	int (*check)(void *ctx, struct error *err);
	void *ctx;
	int sigfd; /* a signalfd that stops typing and waits, or -1 */
	int dirfd; /* the profile's directory, for the typing lock and the lease watch, or -1 */
	/* The lease as the request began, checked before each event (lease.h); ended with the
	 * request, also when the connection broke under it. */
	struct lease_watch lw;
	/* A batch's (mcp/batch.h): the lease epoch the batch began under, or NULL. A request whose
	 * watch opens a lease of another epoch (a take and a hand-back since the batch's check)
	 * is refused as a take. */
	const uint64_t *epoch;
	bool track; /* keep a damage watch across requests (the MCP server) */
	/* Requests in the model picture's space (modelpic.h; the MCP server): the screenshot
	 * sized for the model, coordinates read in it unless the request names from. */
	bool model_space;
	struct screenwait watch;
	bool watching;
	bool changed; /* the screen changed since the last action (with track) */
};

/* The boxes --changes reports at most, and how long it watches: until the screen has been still
 * for CHANGES_QUIET_MS after a change, at most CHANGES_WAIT_MS after the action. */
#define ACT_CHANGED_MAX 8
#define ACT_CHANGES_QUIET_MS 150
#define ACT_CHANGES_WAIT_MS 600

struct act_out {
	unsigned x, y, x2, y2; /* the screen points acted on, or the cursor */
	unsigned sw, sh;
	unsigned from_w, from_h; /* the picture the request's coordinates were in; 0: the screen */
	size_t chars, remapped, keys;
	/* A human took the desktop while the request ran: only `sent` of its characters, combos
	 * or pointer gestures reached it (the log and the message say so). */
	bool stopped;
	size_t sent;
	struct grab_result pic; /* screenshot; the caller frees pic.data */
	bool changed;
	uint64_t waited_ms;
	/* clipboard get: the text (not NUL-terminated; the caller frees it), and whether any
	 * client owned the clipboard */
	char *data;
	size_t data_len;
	bool owned;
	/* clipboard get, windows: the result as one JSON object (the caller frees it); windows'
	 * text lines are in data */
	char *json;
	/* open, launch: the new window */
	unsigned long win;
	/* Pointer actions: the top-level window the pointer landed on (its client window, None
	 * when the root), and its title (UTF-8, cut at a character's end), when looked up */
	bool landed_known;
	unsigned long landed;
	char landed_title[256];
	/* Pointer actions with changes: the screen's regions drawn in the moment after the action
	 * (XDAMAGE's rectangles merged into at most ACT_CHANGED_MAX boxes), screen pixels */
	size_t n_regions;
	struct act_rect {
		unsigned x, y, w, h;
	} regions[ACT_CHANGED_MAX];
	/* window: the frame's geometry it left */
	int wx, wy;
	unsigned ww, wh;
};

/* Connects (xconn.h) and checks for XTEST. */
int act_open(struct act *a, const char *display, const char *xauthority, struct error *err);
/* Closes the connection, unless it broke (then it is abandoned). */
void act_close(struct act *a);
bool act_is_open(const struct act *a);

/* Runs one request. For ACT_TYPE, rq->text holds the text (the caller read any file). Returns 0;
 * -EINVAL for input the desktop makes wrong (off the screen, an unknown key), with the message;
 * -ETIMEDOUT when a wait ran out; -ECONNRESET when the connection broke (act_close() then
 * abandons it); what check returned; -EACCES with out->stopped when a human took the desktop
 * part way; or another -errno. */
int act_run(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err);
