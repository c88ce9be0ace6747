#include "xconn.h"

#include <signal.h>
#include <string.h>

#include "util.h"
#include "xcookie.h"

/* libX11 reports errors through process-wide handlers: a protocol error only sets a flag (the
 * caller decides what it means, e.g. MIT-SHM refused: fall back to XGetImage), and a broken
 * connection jumps back to the guard of the thread that noticed it. */
static volatile sig_atomic_t x_error;
static __thread struct xconn_guard *guard;

static int on_error(Display *dpy, XErrorEvent *ev)
{
	x_error = 1;
	return 0;
}

static int on_io_error(Display *dpy)
{
	struct xconn_guard *g = guard;
	if (g) {
		guard = g->prev;
		siglongjmp(g->jb, 1);
	}
	/* Not inside a guarded call: Xlib's own handling (it ends the process). */
	return 0;
}

void xconn_error_reset(void)
{
	x_error = 0;
}

bool xconn_error_seen(void)
{
	return x_error != 0;
}

void xconn_guard_push(struct xconn_guard *g)
{
	g->prev = guard;
	guard = g;
}

void xconn_guard_pop(struct xconn_guard *g)
{
	guard = g->prev;
}

int xconn_open_cookie(const char *display, const void *cookie, size_t len, Display **ret)
{
	if (len == 0 || len > XCOOKIE_MAX) {
		return -EINVAL;
	}
	XSetErrorHandler(on_error);
	XSetIOErrorHandler(on_io_error);
	/* Xlib keeps pointers to both until XOpenDisplay returns; it wants them mutable. */
	char name[] = XCOOKIE_NAME;
	char data[XCOOKIE_MAX];
	memcpy(data, cookie, len);
	/* The authorization applies to the connections opened until it is reset: this one. */
	XSetAuthorization(name, (int)strlen(name), data, (int)len);
	Display *dpy = XOpenDisplay(display);
	XSetAuthorization(NULL, 0, NULL, 0);
	explicit_bzero(data, sizeof(data));
	if (!dpy) {
		return -ECONNREFUSED;
	}
	*ret = dpy;
	return 0;
}

int xconn_open(const char *display, const char *xauthority, Display **ret, struct error *err)
{
	char cookie[XCOOKIE_MAX];
	int cookie_len = 0;
	int r = xcookie_read(display, xauthority, cookie, &cookie_len, err);
	if (r < 0) {
		return r;
	}
	r = xconn_open_cookie(display, cookie, (size_t)cookie_len, ret);
	explicit_bzero(cookie, sizeof(cookie));
	if (r < 0) {
		return error_set(err, -ECONNREFUSED,
				 "cannot connect to the desktop's X server %s with its cookie",
				 display);
	}
	return 0;
}

int xconn_screen_size(Display *dpy, unsigned *ret_w, unsigned *ret_h)
{
	Window root;
	int x, y;
	unsigned w, h, border, depth;
	if (!XGetGeometry(dpy, DefaultRootWindow(dpy), &root, &x, &y, &w, &h, &border, &depth) ||
	    w == 0 || h == 0) {
		return -EIO;
	}
	*ret_w = w;
	*ret_h = h;
	return 0;
}
