/* The pointer commands (click, move, drag, scroll) over a connection of their own through XCB
 * and its XTEST binding: a click is then three round trips (the set-up, finding XTEST, the sync)
 * where Xlib's connection takes nine, and botdesk-act loads two X libraries instead of ten.
 * The socket is connected here, and its peer must run as us before the cookie is sent on it. */
#pragma once

#include <xcb/xcb.h>

#include "act.h"
#include "actargs.h"
#include "error.h"

struct xptr {
	xcb_connection_t *c;
	xcb_window_t root;
	unsigned sw, sh;
	char display[64];
};

/* Connects to display (":N" or ":N.S") where libxcb would (the abstract socket name, else the
 * path in /tmp/.X11-unix), refuses a server that does not run as our user (-EPERM) before
 * anything is sent, then authenticates with the profile's cookie (xcookie.h). This is the
 * runner's server check (desktop_verify_server()) on the very socket used, so the runner skips
 * its own for these commands; its messages name profile, as the runner's do. -ENXIO for a
 * DISPLAY that is no local display; -ECONNREFUSED when none answers. */
int xptr_open(struct xptr *x, const char *profile, const char *display, const char *xauthority,
	      struct error *err);

/* Runs one pointer request: check is called right before the first event is sent (non-zero
 * refuses: the lease), and the gesture is sent inside the lease watch under dirfd (lease.h; -1:
 * none), so a take waits for it. Returns 0; -EINVAL for points off the screen, with the message;
 * -ENOTSUP without XTEST; -ECONNRESET when the connection broke; what check returned. */
int xptr_run(struct xptr *x, const struct act_req *rq, struct act_out *out,
	     int (*check)(void *ctx, struct error *err), void *ctx, int dirfd, struct error *err);

/* The application window under the pointer after a gesture (the first window down from the root
 * with WM_STATE: the client inside the window manager's frame) and its title, into out. A few
 * round trips: asked only when the result is printed (--json). */
void xptr_landed(struct xptr *x, struct act_out *out);

/* For `botdesk take`: releases every key and button the desktop's XTEST device holds (what the
 * agent pressed and never let go: `key --press`, or a gesture cut short), and waits until the
 * server has done so. The core keymap and pointer state are the union of all devices; a release
 * through XTEST of a key only a viewer holds is dropped by the server (it is not down on the XTEST
 * device), so a human's own keys are left alone. ret_n: how many releases were sent. */
int xptr_release_held(struct xptr *x, unsigned *ret_n, struct error *err);
