#include "geometry.h"

#include <X11/extensions/Xrandr.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "util.h"

/* The server's refusals arrive asynchronously; each restore looks at this after its XSync. */
static int x_error;

static int on_error(Display *dpy, XErrorEvent *ev)
{
	x_error = ev->error_code;
	return 0;
}

/* The server is gone: the session notices Xvnc's end and stops the desktop, gate included. */
static int on_io_error(Display *dpy)
{
	log_error("lost the connection to the X server; exiting");
	exit(1);
}

int geometry_open(Display **ret)
{
	XSetErrorHandler(on_error);
	XSetIOErrorHandler(on_io_error);
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy) {
		return -ECONNREFUSED;
	}
	int ev, er;
	if (!XRRQueryExtension(dpy, &ev, &er)) {
		XCloseDisplay(dpy);
		return -ENOTSUP;
	}
	*ret = dpy;
	return 0;
}

void geometry_close(Display *dpy)
{
	if (dpy) {
		XCloseDisplay(dpy);
	}
}

static const XRRModeInfo *find_mode(const XRRScreenResources *res, RRMode id)
{
	for (int i = 0; i < res->nmode; i++) {
		if (res->modes[i].id == id) {
			return &res->modes[i];
		}
	}
	return NULL;
}

/* A mode of that size the output can show, or None. */
static RRMode output_mode(const XRRScreenResources *res, const XRROutputInfo *out, unsigned w,
			  unsigned h)
{
	for (int i = 0; i < out->nmode; i++) {
		const XRRModeInfo *m = find_mode(res, out->modes[i]);
		if (m && m->width == w && m->height == h) {
			return m->id;
		}
	}
	return None;
}

/* The original runtime's timing for a mode it had to add (60 Hz, blanking as cvt would leave):
 * Xvnc ignores it, but RandR wants a complete mode line. */
static RRMode add_mode(Display *dpy, Window root, RROutput output, unsigned w, unsigned h)
{
	char name[64];
	snprintf(name, sizeof(name), "botdesk-%ux%u", w, h);
	XRRModeInfo m = {
		.width = w,
		.height = h,
		.hSyncStart = w + 48,
		.hSyncEnd = w + 80,
		.hTotal = w + 160,
		.vSyncStart = h + 3,
		.vSyncEnd = h + 9,
		.vTotal = h + 30,
		.name = name,
		.nameLength = (unsigned)strlen(name),
	};
	m.dotClock = (unsigned long)m.hTotal * m.vTotal * 60;
	RRMode id = XRRCreateMode(dpy, root, &m);
	if (id != None) {
		XRRAddOutputMode(dpy, output, id);
	}
	return id;
}

/* Already exactly the configured screen: that size, one CRTC showing it whole. */
static bool at_size(Display *dpy, XRRScreenResources *res, RRCrtc crtc, unsigned w, unsigned h)
{
	int screen = DefaultScreen(dpy);
	if ((unsigned)DisplayWidth(dpy, screen) != w || (unsigned)DisplayHeight(dpy, screen) != h) {
		return false;
	}
	for (int i = 0; i < res->ncrtc; i++) {
		XRRCrtcInfo *c = XRRGetCrtcInfo(dpy, res, res->crtcs[i]);
		if (!c) {
			return false;
		}
		bool ok = res->crtcs[i] == crtc ? c->mode != None && c->x == 0 && c->y == 0 &&
							  c->width == w && c->height == h
						: c->mode == None;
		XRRFreeCrtcInfo(c);
		if (!ok) {
			return false;
		}
	}
	return true;
}

static int apply(Display *dpy, Window root, XRRScreenResources *res, RRCrtc crtc, RROutput output,
		 RRMode mode, unsigned w, unsigned h)
{
	/* Every CRTC off first (a viewer may have made several screens, and a CRTC must fit the
	 * screen at every step), then the screen size, then the one CRTC: what xrandr does. The
	 * grab keeps clients from seeing the steps in between. */
	XGrabServer(dpy);
	for (int i = 0; i < res->ncrtc; i++) {
		XRRSetCrtcConfig(dpy, res, res->crtcs[i], CurrentTime, 0, 0, None, RR_Rotate_0,
				 NULL, 0);
	}
	/* The physical size follows the session's 96 dpi. */
	int mm_w = (int)(w * 254 / 960), mm_h = (int)(h * 254 / 960);
	XRRSetScreenSize(dpy, root, (int)w, (int)h, mm_w, mm_h);
	Status s =
		XRRSetCrtcConfig(dpy, res, crtc, CurrentTime, 0, 0, mode, RR_Rotate_0, &output, 1);
	XUngrabServer(dpy);
	XSync(dpy, False);
	return s == RRSetConfigSuccess && x_error == 0 ? 1 : -EIO;
}

int geometry_restore(Display *dpy, unsigned width, unsigned height)
{
	Window root = DefaultRootWindow(dpy);
	x_error = 0;
	XRRScreenResources *res = XRRGetScreenResourcesCurrent(dpy, root);
	if (!res || res->noutput < 1 || res->ncrtc < 1) {
		if (res) {
			XRRFreeScreenResources(res);
		}
		return -ENODEV;
	}
	/* Xvnc's first output (VNC-0) on its own CRTC, else the first CRTC. */
	RROutput output = res->outputs[0];
	XRROutputInfo *out = XRRGetOutputInfo(dpy, res, output);
	if (!out) {
		XRRFreeScreenResources(res);
		return -ENODEV;
	}
	RRCrtc crtc = out->crtc != None ? out->crtc : res->crtcs[0];
	int r = 0;
	if (!at_size(dpy, res, crtc, width, height)) {
		RRMode mode = output_mode(res, out, width, height);
		if (mode == None) {
			mode = add_mode(dpy, root, output, width, height);
		}
		r = mode == None ? -ENOTSUP
				 : apply(dpy, root, res, crtc, output, mode, width, height);
	}
	XRRFreeOutputInfo(out);
	XRRFreeScreenResources(res);
	return r;
}
