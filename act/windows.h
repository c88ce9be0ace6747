/* The desktop's top-level windows for an agent (issue 26), as the window manager (xfwm4) keeps
 * them by EWMH: the list from _NET_CLIENT_LIST, the focused one from _NET_ACTIVE_WINDOW, titles
 * from _NET_WM_NAME, and actions asked of the window manager with the client messages a pager
 * sends (_NET_ACTIVE_WINDOW, _NET_CLOSE_WINDOW, _NET_MOVERESIZE_WINDOW), so it does what its own
 * title bar would: raise and focus, a polite close, a move or resize of the frame. Geometry is
 * the frame's (_NET_FRAME_EXTENTS added to the client window) in screen pixels. */
#pragma once

#include <X11/Xlib.h>
#include <stdbool.h>
#include <stdint.h>

#include "actargs.h"
#include "error.h"

/* The geometry a window action left (the frame's, in screen pixels). */
struct win_geom {
	int x, y;
	unsigned w, h;
};

/* The list as one JSON object ({"windows":[…],"screen":"WxH"}) and as text lines, a window a
 * line; both malloc'ed. */
int win_list_json(Display *dpy, unsigned sw, unsigned sh, char **ret_json, char **ret_text,
		  struct error *err);

/* The application window under the pointer (the first one down from the root with WM_STATE)
 * and its title, into *ret_id (None: the root) and title (size bytes, UTF-8). */
void win_under_pointer(Display *dpy, unsigned long *ret_id, char *title, size_t size);

/* The window manager's list of client windows (_NET_CLIENT_LIST), in the order they were mapped:
 * malloc'ed, *ret_n of them (none when it keeps no list); NULL when out of memory. */
Window *win_clients(Display *dpy, unsigned long *ret_n);

/* Waits until done(dpy, ctx) says so, at most wait_ms: w's events of mask (selected for the wait,
 * on top of what the connection already selected) only wake the check. Returns what done said
 * last. */
bool win_wait_until(Display *dpy, Window w, long mask, uint64_t wait_ms,
		    bool (*done)(Display *dpy, void *ctx), void *ctx);

/* rq's window action (rq->win_op on rq->win_id). Returns once the window manager did it
 * (focus, move, resize: bounded; close: once asked) with the frame's geometry then. -ENOENT
 * (bad input) when the id is no top-level window of the desktop. */
int win_act(Display *dpy, const struct act_req *rq, struct win_geom *ret, struct error *err);
