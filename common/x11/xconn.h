/* A connection to a profile's X server with the profile's own cookie, and the guard that turns a
 * broken connection into an error instead of the end of the process. Shared by the thumbnail,
 * botdesk-act, the MCP server and botdesk-session. */
#pragma once

#include <X11/Xlib.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* Connects to display (":N" or ":N.S") authenticating with the MIT-MAGIC-COOKIE-1 for it in the
 * xauthority file (read with libXau, never through a symlink, never through the process
 * environment: concurrent connections to two profiles each use their own). Installs the error
 * handlers below on first use. */
int xconn_open(const char *display, const char *xauthority, Display **ret, struct error *err);
/* The same with a cookie the caller holds (the session, which made it): set for this connection
 * only, never through the process environment. 0, -EINVAL (no cookie fits), or -ECONNREFUSED. */
int xconn_open_cookie(const char *display, const void *cookie, size_t len, Display **ret);

/* X protocol errors never end the process: they are counted, and the code of the last one kept.
 * Reset, make the calls, XSync, then look. */
void xconn_error_reset(void);
bool xconn_error_seen(void);

/* A broken connection jumps back to the innermost guard of the thread that noticed it. Use:
 *
 *     struct xconn_guard g;
 *     xconn_guard_push(&g);
 *     if (sigsetjmp(g.jb, 1) != 0)
 *             return -ECONNRESET;   // popped already; the Display is dead: abandon it
 *     ... X calls ...
 *     xconn_guard_pop(&g);
 *
 * Without a guard, Xlib's own handling applies (it ends the process). */
struct xconn_guard {
	sigjmp_buf jb;
	struct xconn_guard *prev;
};
void xconn_guard_push(struct xconn_guard *g);
void xconn_guard_pop(struct xconn_guard *g);

/* The root window's current size: one round trip, so it is right even after a RandR change on a
 * long-lived connection. */
int xconn_screen_size(Display *dpy, unsigned *ret_w, unsigned *ret_h);
