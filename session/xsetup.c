#include "xsetup.h"

#include <X11/XKBlib.h>
#include <X11/Xatom.h>
#include <X11/extensions/dpms.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "util.h"
#include "xconn.h"

/* Xlib ends the process when the connection breaks. The session must instead stop what it
 * started and remove its claim, so each call that talks to the server holds a guard (xconn.h): a
 * broken connection jumps back to it. Protocol errors, such as requests on windows that vanish
 * under us (a window manager's check window), are only counted there: they fail harmlessly.
 * guarded() holds it around one step: -ECONNRESET when the connection broke during it. */
static int guarded(Display *dpy, int (*step)(Display *dpy, void *ctx), void *ctx)
{
	struct xconn_guard g;
	xconn_guard_push(&g);
	if (sigsetjmp(g.jb, 1) != 0) {
		return -ECONNRESET; /* popped already; the Display is dead: abandon it */
	}
	int r = step(dpy, ctx);
	xconn_guard_pop(&g);
	return r;
}

/* Reads and drops every event the queue and the socket hold. */
static void drain(Display *dpy)
{
	while (XPending(dpy) > 0) {
		XEvent ev;
		XNextEvent(dpy, &ev);
	}
}

int xsetup_open(unsigned display, const struct xauth_cookie *cookie, Display **ret)
{
	char name[16];
	snprintf(name, sizeof(name), ":%u", display);
	return xconn_open_cookie(name, cookie->data, sizeof(cookie->data), ret);
}

static int close_step(Display *dpy, void *ctx)
{
	(void)ctx;
	XCloseDisplay(dpy);
	return 0;
}

void xsetup_close(Display *dpy)
{
	if (dpy) {
		(void)guarded(dpy, close_step, NULL);
	}
}

void xsetup_abandon(Display *dpy)
{
	if (dpy) {
		/* XCloseDisplay syncs with the server first, and a stopped or hung server never
		 * answers; with the socket shut down, that round trip fails at once (the connection
		 * is lost, and with it the Display's memory, just before the session exits). */
		(void)shutdown(ConnectionNumber(dpy), SHUT_RDWR);
		xsetup_close(dpy);
	}
}

/* The layout is named in the root window's _XKB_RULES_NAMES: rules, model, layout, variant,
 * options, NUL-separated. */
static bool layout_is_us(Display *dpy)
{
	Atom prop = XInternAtom(dpy, "_XKB_RULES_NAMES", False);
	Atom type;
	int format;
	unsigned long n, after;
	unsigned char *data = NULL;
	if (XGetWindowProperty(dpy, DefaultRootWindow(dpy), prop, 0, 1024, False, XA_STRING, &type,
			       &format, &n, &after, &data) != Success ||
	    !data) {
		return false;
	}
	const char *p = (const char *)data, *end = p + n;
	for (int i = 0; i < 2 && p < end; i++) {
		p += strnlen(p, (size_t)(end - p)) + 1;
	}
	bool us = p < end && strncmp(p, "us", (size_t)(end - p)) == 0 &&
		  strnlen(p, (size_t)(end - p)) == 2;
	XFree(data);
	return us;
}

/* What setxkbmap -layout us asks of an evdev server, loaded by name through XKB. */
static int set_layout_us(Display *dpy)
{
	int opcode, event, error, major = XkbMajorVersion, minor = XkbMinorVersion;
	if (!XkbQueryExtension(dpy, &opcode, &event, &error, &major, &minor)) {
		return -ENOTSUP;
	}
	char keycodes[] = "evdev+aliases(qwerty)", types[] = "complete", compat[] = "complete",
	     symbols[] = "pc+us+inet(evdev)", geometry[] = "pc(pc105)";
	XkbComponentNamesRec names = {
		.keycodes = keycodes,
		.types = types,
		.compat = compat,
		.symbols = symbols,
		.geometry = geometry,
	};
	XkbDescPtr kb = XkbGetKeyboardByName(dpy, XkbUseCoreKbd, &names, XkbGBN_AllComponentsMask,
					     XkbGBN_AllComponentsMask & ~XkbGBN_GeometryMask, True);
	if (!kb) {
		return -EIO;
	}
	XkbFreeKeyboard(kb, XkbAllComponentsMask, True);
	static const char rules[] = "evdev\0pc105\0us\0\0";
	Atom prop = XInternAtom(dpy, "_XKB_RULES_NAMES", False);
	XChangeProperty(dpy, DefaultRootWindow(dpy), prop, XA_STRING, 8, PropModeReplace,
			(const unsigned char *)rules, sizeof(rules) - 1);
	return 0;
}

static int set_root_colour(Display *dpy, unsigned long rgb)
{
	XColor c = {
		.red = (unsigned short)(((rgb >> 16) & 0xff) * 0x101),
		.green = (unsigned short)(((rgb >> 8) & 0xff) * 0x101),
		.blue = (unsigned short)((rgb & 0xff) * 0x101),
		.flags = DoRed | DoGreen | DoBlue,
	};
	if (!XAllocColor(dpy, DefaultColormap(dpy, DefaultScreen(dpy)), &c)) {
		return -ENOSPC;
	}
	Window root = DefaultRootWindow(dpy);
	XSetWindowBackground(dpy, root, c.pixel);
	XClearWindow(dpy, root);
	return 0;
}

static int desktop_step(Display *dpy, void *ctx)
{
	const unsigned long *rgb = ctx;
	int first = layout_is_us(dpy) ? 0 : set_layout_us(dpy);
	/* No screen saver, no blanking, no power saving: nobody is there to wake it, and a
	 * blanked screen makes every thumbnail black. */
	XSetScreenSaver(dpy, 0, 0, DontPreferBlanking, DefaultExposures);
	int ev, er;
	if (DPMSQueryExtension(dpy, &ev, &er) && DPMSCapable(dpy)) {
		DPMSDisable(dpy);
	}
	int r = set_root_colour(dpy, *rgb);
	XSync(dpy, False);
	return first != 0 ? first : r;
}

int xsetup_desktop(Display *dpy, unsigned long rgb)
{
	return guarded(dpy, desktop_step, &rgb);
}

static int watch_wm_step(Display *dpy, void *ctx)
{
	(void)ctx;
	/* A window manager announces itself by taking the WM_S0 selection (a MANAGER client
	 * message, StructureNotify) and by setting the root's EWMH properties (PropertyNotify). */
	XSelectInput(dpy, DefaultRootWindow(dpy), PropertyChangeMask | StructureNotifyMask);
	XSync(dpy, False);
	return 0;
}

int xsetup_watch_wm(Display *dpy)
{
	return guarded(dpy, watch_wm_step, NULL);
}

static Window window_property(Display *dpy, Window w, Atom prop)
{
	Atom type;
	int format;
	unsigned long n, after;
	unsigned char *data = NULL;
	Window v = None;
	if (XGetWindowProperty(dpy, w, prop, 0, 1, False, XA_WINDOW, &type, &format, &n, &after,
			       &data) == Success &&
	    data && n == 1 && format == 32) {
		v = (Window)((unsigned long *)data)[0];
	}
	if (data) {
		XFree(data);
	}
	return v;
}

static int owns_screen_step(Display *dpy, void *ctx)
{
	(void)ctx;
	drain(dpy);
	Window root = DefaultRootWindow(dpy);
	char sel[32];
	snprintf(sel, sizeof(sel), "WM_S%d", DefaultScreen(dpy));
	int owned = 0;
	XWindowAttributes wa;
	if (XGetSelectionOwner(dpy, XInternAtom(dpy, sel, False)) != None &&
	    XGetWindowAttributes(dpy, root, &wa) &&
	    (wa.all_event_masks & SubstructureRedirectMask)) {
		/* EWMH: the root names a check window that names itself, so a stale property of a
		 * window manager that died does not count. */
		Atom check = XInternAtom(dpy, "_NET_SUPPORTING_WM_CHECK", False);
		Window w = window_property(dpy, root, check);
		owned = w != None && window_property(dpy, w, check) == w;
	}
	return owned;
}

int xsetup_wm_owns_screen(Display *dpy)
{
	return guarded(dpy, owns_screen_step, NULL);
}

static int queued_step(Display *dpy, void *ctx)
{
	(void)ctx;
	/* QueuedAlready: what Xlib holds, without reading the socket or flushing. */
	return XEventsQueued(dpy, QueuedAlready) > 0;
}

static bool events_queued(Display *dpy)
{
	return guarded(dpy, queued_step, NULL) > 0;
}

int xsetup_wait_wm(Display *dpy, int (*owns)(Display *dpy), int (*wait)(void *ctx, int fd),
		   void *ctx)
{
	for (;;) {
		int r = owns(dpy);
		if (r != 0) {
			return r;
		}
		if (events_queued(dpy)) {
			continue;
		}
		r = wait(ctx, ConnectionNumber(dpy));
		if (r != 1) {
			return r;
		}
	}
}

/* The root window's size, where a step puts it. */
struct size_out {
	unsigned *w, *h;
};

static int watch_size_step(Display *dpy, void *ctx)
{
	struct size_out *out = ctx;
	Window root = DefaultRootWindow(dpy);
	XSelectInput(dpy, root, StructureNotifyMask);
	/* Asked after selecting: a resize in between is either in this answer or an event. */
	XWindowAttributes wa;
	int ok = XGetWindowAttributes(dpy, root, &wa);
	/* What the wait for the window manager left in the queue is of no interest now. */
	drain(dpy);
	if (!ok) {
		return -EIO;
	}
	*out->w = (unsigned)wa.width;
	*out->h = (unsigned)wa.height;
	return 0;
}

int xsetup_watch_size(Display *dpy, unsigned *ret_w, unsigned *ret_h)
{
	struct size_out out = {ret_w, ret_h};
	return guarded(dpy, watch_size_step, &out);
}

static int size_events_step(Display *dpy, void *ctx)
{
	struct size_out *out = ctx;
	Window root = DefaultRootWindow(dpy);
	/* XPending reads what the socket holds; a readable socket with nothing on it is the
	 * server closing the connection, which lands in the I/O error handler. */
	while (XPending(dpy) > 0) {
		XEvent ev;
		XNextEvent(dpy, &ev);
		if (ev.type == ConfigureNotify && ev.xconfigure.window == root) {
			*out->w = (unsigned)ev.xconfigure.width;
			*out->h = (unsigned)ev.xconfigure.height;
		}
	}
	return 0;
}

int xsetup_size_events(Display *dpy, unsigned *ret_w, unsigned *ret_h)
{
	struct size_out out = {ret_w, ret_h};
	return guarded(dpy, size_events_step, &out);
}
