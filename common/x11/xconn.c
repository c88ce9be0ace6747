#include "xconn.h"

#include <X11/Xauth.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "util.h"

#define COOKIE_NAME "MIT-MAGIC-COOKIE-1"
#define COOKIE_MAX 64

/* ":N" or ":N.S", the number the Xauthority entries are keyed by. */
static int display_number(const char *display, char *ret, size_t size)
{
	if (display[0] != ':') {
		return -EINVAL;
	}
	size_t len = strcspn(display + 1, ".");
	uint64_t n;
	if (len >= size || parse_u64_n(display + 1, len, 65535, &n) < 0) {
		return -EINVAL;
	}
	snprintf(ret, size, "%u", (unsigned)n);
	return 0;
}

/* The profile's own cookie, read with libXau from its file (never through a symlink). */
static int read_cookie(const char *path, const char *number, char *ret, int *ret_len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return negative_errno();
	}
	_cleanup_fclose_ FILE *f = fdopen(fd, "r");
	if (!f) {
		return negative_errno();
	}
	TAKE_FD(fd);
	int r = -ENOENT;
	Xauth *a;
	while (r == -ENOENT && (a = XauReadAuth(f))) {
		if (a->number_length == strlen(number) &&
		    memcmp(a->number, number, a->number_length) == 0 &&
		    a->name_length == strlen(COOKIE_NAME) &&
		    memcmp(a->name, COOKIE_NAME, a->name_length) == 0 && a->data_length > 0 &&
		    a->data_length <= COOKIE_MAX) {
			memcpy(ret, a->data, a->data_length);
			*ret_len = a->data_length;
			r = 0;
		}
		XauDisposeAuth(a);
	}
	return r;
}

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
	if (len == 0 || len > COOKIE_MAX) {
		return -EINVAL;
	}
	XSetErrorHandler(on_error);
	XSetIOErrorHandler(on_io_error);
	/* Xlib keeps pointers to both until XOpenDisplay returns; it wants them mutable. */
	char name[] = COOKIE_NAME;
	char data[COOKIE_MAX];
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
	char number[16];
	if (!display || display_number(display, number, sizeof(number)) < 0) {
		return error_set(err, -EINVAL, "'%s' is not a local X display", display);
	}
	char cookie[COOKIE_MAX];
	int cookie_len = 0;
	int r = read_cookie(xauthority, number, cookie, &cookie_len);
	if (r < 0) {
		return error_set(err, r, "no X cookie for %s in %s: %s", display, xauthority,
				 strerror(-r));
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
