#include "windows.h"

#include <X11/Xatom.h>
#include <X11/Xutil.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "memout.h"
#include "timeutil.h"
#include "util.h"
#include "xconn.h"

/* How long the window manager may take to do what it was asked. */
#define WIN_WAIT_MS 2000

/* EWMH's source indication: a pager, which the window manager obeys without focus-stealing
 * prevention (it stands for the user). */
#define SOURCE_PAGER 2

struct win_info {
	Window id;
	char *title, *class;
	long pid; /* -1: unknown */
	struct win_geom g;
	bool focused;
};

static Atom atom(Display *dpy, const char *name)
{
	return XInternAtom(dpy, name, False);
}

/* A property's items (format 32 as longs, 8 as bytes), or NULL. */
static unsigned char *property(Display *dpy, Window w, Atom prop, Atom type, unsigned long *ret_n)
{
	Atom got;
	int format;
	unsigned long n = 0, after;
	unsigned char *data = NULL;
	if (XGetWindowProperty(dpy, w, prop, 0, 65536, False, type, &got, &format, &n, &after,
			       &data) != Success ||
	    !data || n == 0) {
		if (data) {
			XFree(data);
		}
		return NULL;
	}
	*ret_n = n;
	return data;
}

static Window active_window(Display *dpy)
{
	unsigned long n;
	unsigned char *d = property(dpy, DefaultRootWindow(dpy), atom(dpy, "_NET_ACTIVE_WINDOW"),
				    XA_WINDOW, &n);
	Window w = d ? (Window)((unsigned long *)d)[0] : None;
	if (d) {
		XFree(d);
	}
	return w;
}

/* The title as UTF-8: _NET_WM_NAME, else WM_NAME (Latin-1, kept when ASCII). */
static char *title_of(Display *dpy, Window w)
{
	unsigned long n;
	unsigned char *d =
		property(dpy, w, atom(dpy, "_NET_WM_NAME"), atom(dpy, "UTF8_STRING"), &n);
	if (!d) {
		d = property(dpy, w, XA_WM_NAME, XA_STRING, &n);
	}
	char *s = d ? strndup((char *)d, n) : strdup("");
	if (d) {
		XFree(d);
	}
	return s;
}

/* WM_CLASS's class part (the second string), e.g. "Xfce4-terminal", "Chromium". */
static char *class_of(Display *dpy, Window w)
{
	XClassHint h = {0};
	char *s = NULL;
	if (XGetClassHint(dpy, w, &h)) {
		s = strdup(h.res_class ? h.res_class : "");
		XFree(h.res_name);
		XFree(h.res_class);
	}
	return s ? s : strdup("");
}

/* The frame's geometry: the client window's on the root, plus what the window manager draws
 * around it. */
static int geometry_of(Display *dpy, Window w, struct win_geom *g, long ext[4])
{
	Window root, child;
	int x, y;
	unsigned cw, ch, border, depth;
	if (!XGetGeometry(dpy, w, &root, &x, &y, &cw, &ch, &border, &depth) ||
	    !XTranslateCoordinates(dpy, w, root, 0, 0, &x, &y, &child)) {
		return -ENOENT;
	}
	unsigned long n;
	unsigned char *d = property(dpy, w, atom(dpy, "_NET_FRAME_EXTENTS"), XA_CARDINAL, &n);
	ext[0] = ext[1] = ext[2] = ext[3] = 0;
	if (d && n == 4) {
		memcpy(ext, d, 4 * sizeof(long));
	}
	if (d) {
		XFree(d);
	}
	/* left, right, top, bottom */
	g->x = x - (int)ext[0];
	g->y = y - (int)ext[2];
	g->w = cw + (unsigned)(ext[0] + ext[1]);
	g->h = ch + (unsigned)(ext[2] + ext[3]);
	return 0;
}

static long pid_of(Display *dpy, Window w)
{
	unsigned long n;
	unsigned char *d = property(dpy, w, atom(dpy, "_NET_WM_PID"), XA_CARDINAL, &n);
	long pid = d ? ((long *)d)[0] : -1;
	if (d) {
		XFree(d);
	}
	return pid;
}

Window *win_clients(Display *dpy, unsigned long *ret_n)
{
	unsigned long n = 0;
	unsigned char *d =
		property(dpy, DefaultRootWindow(dpy), atom(dpy, "_NET_CLIENT_LIST"), XA_WINDOW, &n);
	Window *list = calloc(n ? n : 1, sizeof(Window));
	for (unsigned long i = 0; list && i < n; i++) {
		list[i] = (Window)((unsigned long *)d)[i];
	}
	if (d) {
		XFree(d);
	}
	*ret_n = list ? n : 0;
	return list;
}

void win_under_pointer(Display *dpy, unsigned long *ret_id, char *title, size_t size)
{
	Atom wm_state = atom(dpy, "WM_STATE");
	Window w = DefaultRootWindow(dpy), client = None;
	for (int depth = 0; depth < 8 && client == None; depth++) {
		Window root, child = None;
		int rx, ry, wx, wy;
		unsigned mask;
		if (!XQueryPointer(dpy, w, &root, &child, &rx, &ry, &wx, &wy, &mask) ||
		    child == None) {
			break;
		}
		Atom type = None;
		int format;
		unsigned long n, after;
		unsigned char *d = NULL;
		if (XGetWindowProperty(dpy, child, wm_state, 0, 0, False, AnyPropertyType, &type,
				       &format, &n, &after, &d) == Success &&
		    type != None) {
			client = child;
		}
		if (d) {
			XFree(d);
		}
		w = child;
	}
	*ret_id = client;
	title[0] = '\0';
	if (client == None) {
		return;
	}
	_cleanup_free_ char *t = title_of(dpy, client);
	size_t n = t ? strlen(t) : 0;
	if (n >= size) {
		/* Cut at a character's end. */
		n = size - 1;
		while (n > 0 && ((unsigned char)t[n] & 0xc0) == 0x80) {
			n--;
		}
	}
	if (t) {
		memcpy(title, t, n);
	}
	title[n] = '\0';
}

static void put_text_line(FILE *f, const struct win_info *w)
{
	fprintf(f, "0x%lx %d %d %ux%u ", w->id, w->g.x, w->g.y, w->g.w, w->g.h);
	if (w->pid > 0) {
		fprintf(f, "%ld", w->pid);
	} else {
		fputc('-', f);
	}
	fprintf(f, " %s %s ", w->focused ? "*" : "-", *w->class ? w->class : "-");
	/* One line a window: a title's control characters become spaces. */
	for (const char *p = w->title; *p; p++) {
		fputc((unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p, f);
	}
	fputc('\n', f);
}

static void put_json(struct jsonout *j, const struct win_info *w)
{
	char id[32];
	snprintf(id, sizeof(id), "0x%lx", w->id);
	jsonout_begin(j, j->f);
	jsonout_string(j, "id", id);
	jsonout_string(j, "title", w->title);
	jsonout_string(j, "class", w->class);
	jsonout_int(j, "pid", w->pid, w->pid <= 0);
	jsonout_int(j, "x", w->g.x, false);
	jsonout_int(j, "y", w->g.y, false);
	jsonout_int(j, "width", w->g.w, false);
	jsonout_int(j, "height", w->g.h, false);
	jsonout_bool(j, "focused", w->focused);
	jsonout_close(j);
}

/* The windows as put_json and put_text_line read them. */
struct win_list {
	struct win_info *v;
	size_t n;
	unsigned sw, sh;
};

static int print_json(FILE *f, void *ctx)
{
	const struct win_list *l = ctx;
	fputs("{\"windows\":[", f);
	for (size_t i = 0; i < l->n; i++) {
		fputs(i ? "," : "", f);
		struct jsonout j = {.f = f};
		put_json(&j, &l->v[i]);
	}
	fprintf(f, "],\"screen\":\"%ux%u\"}", l->sw, l->sh);
	return 0;
}

static int print_text(FILE *f, void *ctx)
{
	const struct win_list *l = ctx;
	for (size_t i = 0; i < l->n; i++) {
		put_text_line(f, &l->v[i]);
	}
	return 0;
}

/* The client windows' facts, in the list's order; a window that went away while we looked is
 * left out. */
static int read_windows(Display *dpy, struct win_list *l)
{
	unsigned long n;
	_cleanup_free_ Window *list = win_clients(dpy, &n);
	if (!list || !(l->v = calloc(n ? n : 1, sizeof(*l->v)))) {
		return -ENOMEM;
	}
	Window active = active_window(dpy);
	for (unsigned long i = 0; i < n; i++) {
		xconn_error_reset();
		struct win_info w = {.id = list[i], .focused = list[i] == active};
		long ext[4];
		if (geometry_of(dpy, w.id, &w.g, ext) == 0) {
			w.title = title_of(dpy, w.id);
			w.class = class_of(dpy, w.id);
			w.pid = pid_of(dpy, w.id);
		}
		if (w.title && w.class && !xconn_error_seen()) {
			l->v[l->n++] = w;
		} else {
			free(w.title);
			free(w.class);
		}
	}
	return 0;
}

static void free_windows(struct win_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].title);
		free(l->v[i].class);
	}
	free(l->v);
}

int win_list_json(Display *dpy, unsigned sw, unsigned sh, char **ret_json, char **ret_text,
		  struct error *err)
{
	struct win_list l = {.sw = sw, .sh = sh};
	int r = read_windows(dpy, &l);
	char *json = r == 0 ? memout(print_json, &l) : NULL;
	char *text = json ? memout(print_text, &l) : NULL;
	free_windows(&l);
	if (!text) {
		free(json);
		return error_set(err, -ENOMEM, "out of memory");
	}
	*ret_json = json;
	*ret_text = text;
	return 0;
}

static void client_message(Display *dpy, Window w, const char *type, long l0, long l1, long l2,
			   long l3, long l4)
{
	XEvent ev = {.xclient = {
			     .type = ClientMessage,
			     .window = w,
			     .message_type = atom(dpy, type),
			     .format = 32,
			     .data.l = {l0, l1, l2, l3, l4},
		     }};
	XSendEvent(dpy, DefaultRootWindow(dpy), False,
		   SubstructureRedirectMask | SubstructureNotifyMask, &ev);
}

bool win_wait_until(Display *dpy, Window w, long mask, uint64_t wait_ms,
		    bool (*done)(Display *dpy, void *ctx), void *ctx)
{
	XWindowAttributes wa;
	long had = XGetWindowAttributes(dpy, w, &wa) ? wa.your_event_mask : NoEventMask;
	XSelectInput(dpy, w, had | mask);
	uint64_t deadline = now_ms() + wait_ms;
	bool ok;
	while (!(ok = done(dpy, ctx))) {
		uint64_t now = now_ms();
		if (now >= deadline) {
			break;
		}
		XEvent ev;
		while (XCheckWindowEvent(dpy, w, mask, &ev)) {
		}
		XFlush(dpy);
		struct pollfd p = {.fd = ConnectionNumber(dpy), .events = POLLIN};
		if (poll(&p, 1, (int)(deadline - now)) > 0) {
			XEventsQueued(dpy, QueuedAfterReading);
		}
	}
	XSelectInput(dpy, w, had);
	return ok;
}

static bool is_active(Display *dpy, void *ctx)
{
	const Window *target = ctx;
	return active_window(dpy) == *target;
}

/* The frame the window manager was asked for, and the window it is asked of. */
struct geom_want {
	Window w;
	struct win_geom g;
};

static bool has_geometry(Display *dpy, void *ctx)
{
	const struct geom_want *want = ctx;
	struct win_geom g;
	long ext[4];
	return geometry_of(dpy, want->w, &g, ext) == 0 && g.x == want->g.x && g.y == want->g.y &&
	       g.w == want->g.w && g.h == want->g.h;
}

static int find_client(Display *dpy, Window id, struct error *err)
{
	unsigned long n;
	_cleanup_free_ Window *list = win_clients(dpy, &n);
	for (unsigned long i = 0; list && i < n; i++) {
		if (list[i] == id) {
			return 0;
		}
	}
	return error_set_kind(
		err, ERROR_BAD_INPUT, -ENOENT,
		"0x%lx is no window of the desktop (any more?): 'botdesk windows' lists them", id);
}

int win_act(Display *dpy, const struct act_req *rq, struct win_geom *ret, struct error *err)
{
	Window w = (Window)rq->win_id;
	int r = find_client(dpy, w, err);
	if (r < 0) {
		return r;
	}
	xconn_error_reset();
	struct win_geom g;
	long ext[4];
	if (geometry_of(dpy, w, &g, ext) < 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -ENOENT, "window 0x%lx went away", w);
	}
	Window root = DefaultRootWindow(dpy);
	switch (rq->win_op) {
	case ACT_WIN_FOCUS:
		client_message(dpy, w, "_NET_ACTIVE_WINDOW", SOURCE_PAGER, CurrentTime, 0, 0, 0);
		if (!win_wait_until(dpy, root, PropertyChangeMask, WIN_WAIT_MS, is_active, &w)) {
			return error_set(err, -ETIMEDOUT,
					 "the window manager did not focus 0x%lx within %d s", w,
					 WIN_WAIT_MS / 1000);
		}
		break;
	case ACT_WIN_CLOSE:
		/* As the title bar's close button: the application may ask before it closes. */
		client_message(dpy, w, "_NET_CLOSE_WINDOW", CurrentTime, SOURCE_PAGER, 0, 0, 0);
		XSync(dpy, False);
		break;
	case ACT_WIN_MOVE:
	case ACT_WIN_RESIZE: {
		struct geom_want want = {.w = w, .g = g};
		if (rq->win_op == ACT_WIN_MOVE) {
			want.g.x = rq->win_x;
			want.g.y = rq->win_y;
		} else {
			want.g.w = rq->win_w;
			want.g.h = rq->win_h;
		}
		long fw = (long)(ext[0] + ext[1]), fh = (long)(ext[2] + ext[3]);
		if ((long)want.g.w <= fw || (long)want.g.h <= fh) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "%ux%u leaves no room inside the window's frame",
					      want.g.w, want.g.h);
		}
		/* StaticGravity: the client window's own position, the frame around it. */
		long flags = 10 | 0xf << 8 | (long)SOURCE_PAGER << 12;
		client_message(dpy, w, "_NET_MOVERESIZE_WINDOW", flags, want.g.x + ext[0],
			       want.g.y + ext[2], (long)want.g.w - fw, (long)want.g.h - fh);
		/* The window manager may hold it to the screen or the application's size
		 * hints: what it did is the answer. */
		(void)win_wait_until(dpy, w, StructureNotifyMask, WIN_WAIT_MS, has_geometry, &want);
		if (geometry_of(dpy, w, &g, ext) < 0) {
			return error_set(err, -ENOENT, "window 0x%lx went away", w);
		}
		break;
	}
	}
	*ret = g;
	return 0;
}
