/* The session's own X conversation through libX11, while the desktop comes up: the settings it
 * makes on the server, and the event that says the window manager owns the screen. */
#pragma once

#include <X11/Xlib.h>
#include <stdbool.h>

#include "xauth.h"

/* Connects to :display with the cookie (set for this connection, not through XAUTHORITY). */
int xsetup_open(unsigned display, const struct xauth_cookie *cookie, Display **ret);
void xsetup_close(Display *dpy);
/* Closes at teardown without waiting on the server, which may be stopped or hung. */
void xsetup_abandon(Display *dpy);

/* Keyboard layout us, screen saver and DPMS off, a solid root colour. Best effort: every step is
 * tried, the first failure returned. -ECONNRESET when the server went away. */
int xsetup_desktop(Display *dpy, unsigned long rgb);

/* Asks for the root window events a window manager's arrival causes. */
int xsetup_watch_wm(Display *dpy);

/* Consumes pending events and tells whether a window manager owns the screen: it holds WM_S0,
 * redirects the root window's children, and names a live check window. 1 owned, 0 not yet,
 * -ECONNRESET when the server went away. */
int xsetup_wm_owns_screen(Display *dpy);

/* Waits until owns(dpy) says 1: between checks, wait(ctx, fd) blocks until the connection's fd is
 * readable (1), or says why not (0 for its deadline, -errno). owns is xsetup_wm_owns_screen but
 * for tests. The checks' round trips read whatever the socket held into Xlib's queue, events after
 * the reply included: those are looked at again before the fd is waited on, which would otherwise
 * sleep on an empty socket with the awaited event already read (the start that hung). 1 owned;
 * else what owns or wait said. */
int xsetup_wait_wm(Display *dpy, int (*owns)(Display *dpy), int (*wait)(void *ctx, int fd),
		   void *ctx);

/* From here on the connection wakes only for the root window's size: a viewer resizing the
 * desktop (RFB SetDesktopSize, applied by Xvnc through RandR) resizes the root window, which X
 * reports with a ConfigureNotify. Other root events (the panel sets properties all the time) are
 * no longer selected. ret_w and ret_h: the size now. -ECONNRESET when the server went away. */
int xsetup_watch_size(Display *dpy, unsigned *ret_w, unsigned *ret_h);

/* Consumes the pending events; ret_w and ret_h are the root window's size after them (left as
 * they were when none resized it). -ECONNRESET when the server went away. */
int xsetup_size_events(Display *dpy, unsigned *ret_w, unsigned *ret_h);
