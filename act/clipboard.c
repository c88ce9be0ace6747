#include "clipboard.h"

#include <X11/Xatom.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "pipes.h"
#include "spawnproc.h"
#include "timeutil.h"
#include "utf8.h"
#include "util.h"
#include "xconn.h"

/* How long an owner may take to answer a conversion, and the owner process to own the
 * selection once started. */
#define CLIP_ANSWER_MS 3000
#define CLIP_START_MS 5000
/* Texts above this go by INCR, in pieces of this size: a requestor with a small buffer (or a
 * server without BIG-REQUESTS) takes them too. */
#define CLIP_CHUNK (256 * 1024)
/* INCR transfers served at once; a requestor that vanished mid-way frees its slot to the next. */
#define CLIP_XFERS 8

const char *clip_selection_name(bool primary)
{
	return primary ? "PRIMARY" : "CLIPBOARD";
}

static Atom atom(Display *dpy, const char *name)
{
	return XInternAtom(dpy, name, False);
}

/* The next event of type on window w, read from the connection until the deadline. */
static int wait_event(Display *dpy, Window w, int type, XEvent *ev, uint64_t deadline)
{
	for (;;) {
		if (XCheckTypedWindowEvent(dpy, w, type, ev)) {
			return 0;
		}
		uint64_t now = now_ms();
		if (now >= deadline) {
			return -ETIMEDOUT;
		}
		XFlush(dpy);
		struct pollfd p = {.fd = ConnectionNumber(dpy), .events = POLLIN};
		if (poll(&p, 1, (int)(deadline - now)) > 0) {
			XEventsQueued(dpy, QueuedAfterReading);
		}
	}
}

/* Appends the property's value to *buf (deleting it: the INCR handshake's "next piece"); its
 * type, and in *ret_n how many bytes came. */
static int take_property(Display *dpy, Window w, Atom prop, Atom *ret_type, char **buf, size_t *len,
			 size_t *ret_n)
{
	Atom type;
	int format;
	unsigned long n, after;
	unsigned char *data = NULL;
	if (XGetWindowProperty(dpy, w, prop, 0, CLIP_MAX / 4 + 1, True, AnyPropertyType, &type,
			       &format, &n, &after, &data) != Success) {
		return -EIO;
	}
	size_t bytes = format == 8 ? n : 0;
	if (after > 0 || *len + bytes > CLIP_MAX) {
		XFree(data);
		return -EFBIG;
	}
	if (bytes > 0) {
		char *nb = realloc(*buf, *len + bytes);
		if (!nb) {
			XFree(data);
			return -ENOMEM;
		}
		memcpy(nb + *len, data, bytes);
		*buf = nb;
		*len += bytes;
	}
	if (data) {
		XFree(data);
	}
	*ret_type = type;
	*ret_n = bytes;
	return 0;
}

/* The rest of an INCR transfer: a piece a property change, until an empty one. */
static int take_incr(Display *dpy, Window w, Atom prop, char **buf, size_t *len)
{
	for (;;) {
		XEvent ev;
		int r = wait_event(dpy, w, PropertyNotify, &ev, now_ms() + CLIP_ANSWER_MS);
		if (r < 0) {
			return r;
		}
		if (ev.xproperty.atom != prop || ev.xproperty.state != PropertyNewValue) {
			continue;
		}
		Atom type;
		size_t n;
		if ((r = take_property(dpy, w, prop, &type, buf, len, &n)) < 0 || n == 0) {
			return r;
		}
	}
}

/* One conversion of the selection to target into *buf. -ENODATA when the owner refuses it. */
static int convert(Display *dpy, Window w, Atom sel, Atom target, char **buf, size_t *len)
{
	Atom prop = atom(dpy, "BOTDESK_CLIPBOARD");
	XConvertSelection(dpy, sel, target, prop, w, CurrentTime);
	XEvent ev;
	int r = wait_event(dpy, w, SelectionNotify, &ev, now_ms() + CLIP_ANSWER_MS);
	if (r < 0) {
		return r;
	}
	if (ev.xselection.property == None) {
		return -ENODATA;
	}
	/* Property changes so far are the owner's writing of the answer: an INCR transfer's
	 * pieces only come after the deletion below. */
	while (XCheckTypedWindowEvent(dpy, w, PropertyNotify, &ev)) {
	}
	Atom type;
	size_t n;
	if ((r = take_property(dpy, w, prop, &type, buf, len, &n)) < 0) {
		return r;
	}
	return type == atom(dpy, "INCR") ? take_incr(dpy, w, prop, buf, len) : 0;
}

/* ISO 8859-1 (STRING, the oldest owners' only form) as UTF-8. */
static int latin1_to_utf8(char **buf, size_t *len)
{
	char *out = malloc(*len * 2 + 1);
	if (!out) {
		return -ENOMEM;
	}
	size_t o = 0;
	for (size_t i = 0; i < *len; i++) {
		unsigned char c = (unsigned char)(*buf)[i];
		if (c < 0x80) {
			out[o++] = (char)c;
		} else {
			out[o++] = (char)(0xc0 | (c >> 6));
			out[o++] = (char)(0x80 | (c & 0x3f));
		}
	}
	free(*buf);
	*buf = out;
	*len = o;
	return 0;
}

static int get_text(Display *dpy, Window w, Atom sel, char **buf, size_t *len)
{
	int r = convert(dpy, w, sel, atom(dpy, "UTF8_STRING"), buf, len);
	if (r != -ENODATA) {
		return r;
	}
	r = convert(dpy, w, sel, XA_STRING, buf, len);
	return r < 0 ? r : latin1_to_utf8(buf, len);
}

int clip_get(Display *dpy, bool primary, char **ret, size_t *ret_len, bool *ret_owned,
	     struct error *err)
{
	const char *name = clip_selection_name(primary);
	Atom sel = atom(dpy, name);
	if (XGetSelectionOwner(dpy, sel) == None) {
		*ret = NULL;
		*ret_len = 0;
		*ret_owned = false;
		return 0;
	}
	Window w = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), -10, -10, 1, 1, 0, 0, 0);
	XSelectInput(dpy, w, PropertyChangeMask);
	char *buf = NULL;
	size_t len = 0;
	int r = get_text(dpy, w, sel, &buf, &len);
	XDestroyWindow(dpy, w);
	XFlush(dpy);
	size_t chars, bad;
	if (r == 0 && len > 0 && utf8_validate(buf, len, &chars, &bad) < 0) {
		r = error_set(
			err, -EILSEQ,
			"the application that owns the %s answered with text that is not UTF-8 (a bad byte at offset %zu)",
			name, bad);
	}
	if (r < 0) {
		free(buf);
		if (r == -EFBIG) {
			return error_set(
				err, r,
				"the %s holds more than %d bytes; botdesk reads at most that", name,
				CLIP_MAX);
		}
		if (r == -ETIMEDOUT) {
			return error_set(
				err, r,
				"the application that owns the %s did not answer within %d s", name,
				CLIP_ANSWER_MS / 1000);
		}
		if (r == -ENODATA) {
			return error_set(err, r, "the %s holds no text (an image or files?)", name);
		}
		return error_set(err, r, "cannot read the %s: %s", name, strerror(-r));
	}
	*ret = buf;
	*ret_len = len;
	*ret_owned = true;
	return 0;
}

static int own_setup(void *userdata)
{
	/* Its own session: no terminal's Ctrl-C or hang-up reaches it, and it outlives the
	 * command that set the text. */
	if (setsid() < 0) {
		return -errno;
	}
	/* Counted against the desktop's limit, when it has a cgroup of its own. */
	const int *cgroup_fd = userdata;
	if (*cgroup_fd >= 0) {
		(void)!write(*cgroup_fd, "0", 1);
	}
	return 0;
}

int clip_set(const char *program, const char *display, const char *xauthority, int cgroup_fd,
	     bool primary, const char *text, size_t len, struct error *err)
{
	if (len > CLIP_MAX) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EFBIG,
				      "the text is %zu bytes; the clipboard takes at most %d", len,
				      CLIP_MAX);
	}
	int in[2], ready[2];
	int r = pipes_open2(in, ready);
	if (r < 0) {
		return error_set(err, r, "cannot make a pipe: %s", strerror(-r));
	}
	_cleanup_close_ int in_w = in[1], ready_r = ready[0];
	_cleanup_close_ int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	const struct spawn_fd fds[] = {{in[0], 0}, {ready[1], 1}, {null, 2}};
	struct spawn_opts o = {
		.fds = fds, .n_fds = 3, .child_setup = own_setup, .userdata = &cgroup_fd};
	static char arg[] = CLIP_OWNER_ARG;
	char *argv[] = {(char *)(uintptr_t)program,
			arg,
			(char *)(uintptr_t)display,
			(char *)(uintptr_t)xauthority,
			(char *)(uintptr_t)clip_selection_name(primary),
			NULL};
	char *envp[] = {NULL};
	pid_t pid;
	/* SIGPIPE would end us if the owner died before reading everything; write_all says so. */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigaction(SIGPIPE, &ign, &old);
	r = null < 0 ? null : spawn_program(program, argv, envp, &o, &pid);
	safe_close(in[0]);
	safe_close(ready[1]);
	if (r < 0) {
		sigaction(SIGPIPE, &old, NULL);
		return error_set(err, r, "cannot run %s: %s; is botdesk installed completely?",
				 program, strerror(-r));
	}
	int w = write_all(in_w, text, len);
	safe_close(in_w);
	in_w = -1;
	sigaction(SIGPIPE, &old, NULL);
	/* The first process hands over to a grandchild as soon as it has the text: nobody's
	 * child waits to be reaped later (the MCP server lives on). */
	(void)waitpid(pid, NULL, 0);
	char line[512] = "";
	size_t got = 0;
	uint64_t deadline = now_ms() + CLIP_START_MS;
	while (got < sizeof(line) - 1 && !memchr(line, '\n', got)) {
		uint64_t now = now_ms();
		struct pollfd p = {.fd = ready_r, .events = POLLIN};
		if (now >= deadline || poll(&p, 1, (int)(deadline - now)) <= 0) {
			return error_set(err, -ETIMEDOUT,
					 "the clipboard's owner did not take the %s within %d s",
					 clip_selection_name(primary), CLIP_START_MS / 1000);
		}
		ssize_t n = read(ready_r, line + got, sizeof(line) - 1 - got);
		if (n <= 0) {
			break;
		}
		got += (size_t)n;
	}
	line[got] = '\0';
	line[strcspn(line, "\n")] = '\0';
	if (streq(line, "ok")) {
		return 0;
	}
	if (w < 0 && !*line) {
		return error_set(err, w, "cannot hand the text to the clipboard's owner: %s",
				 strerror(-w));
	}
	return error_set(err, -EIO, "the clipboard's owner failed: %s",
			 *line ? line : "it ended without a word");
}

/* The owner: the text, and the INCR transfers under way. */
struct owner {
	Display *dpy;
	Window win;
	Atom sel, targets, timestamp, utf8, text, plain, incr, multiple;
	Time since;
	const char *data;
	size_t len;
	bool ascii;
	size_t chunk;
	struct xfer {
		Window w;
		Atom prop, type;
		size_t off;
	} x[CLIP_XFERS];
	unsigned next;
};

/* Starts an INCR transfer: the size first, each piece once the requestor deleted the last. */
static void incr_start(struct owner *o, Window w, Atom prop, Atom type)
{
	struct xfer *x = NULL;
	for (size_t i = 0; i < CLIP_XFERS && !x; i++) {
		if (o->x[i].w == None) {
			x = &o->x[i];
		}
	}
	if (!x) {
		x = &o->x[o->next++ % CLIP_XFERS];
	}
	*x = (struct xfer){.w = w, .prop = prop, .type = type, .off = 0};
	XSelectInput(o->dpy, w, PropertyChangeMask);
	long size = (long)o->len;
	XChangeProperty(o->dpy, w, prop, o->incr, 32, PropModeReplace, (unsigned char *)&size, 1);
}

static void incr_next(struct owner *o, const XPropertyEvent *pe)
{
	for (size_t i = 0; i < CLIP_XFERS; i++) {
		struct xfer *x = &o->x[i];
		if (x->w != pe->window || x->prop != pe->atom || pe->state != PropertyDelete) {
			continue;
		}
		size_t n = o->len - x->off < o->chunk ? o->len - x->off : o->chunk;
		XChangeProperty(o->dpy, x->w, x->prop, x->type, 8, PropModeReplace,
				(const unsigned char *)o->data + x->off, (int)n);
		x->off += n;
		if (n == 0) {
			/* The empty piece ends it. */
			XSelectInput(o->dpy, x->w, NoEventMask);
			x->w = None;
		}
		XFlush(o->dpy);
	}
}

/* Writes what target asks for to prop on w; false refuses the target. */
static bool serve(struct owner *o, Window w, Atom target, Atom prop)
{
	if (target == o->targets) {
		Atom list[] = {o->targets, o->timestamp, o->utf8, o->plain, o->text, XA_STRING};
		int n = (int)ARRAY_SIZE(list) - (o->ascii ? 0 : 1);
		XChangeProperty(o->dpy, w, prop, XA_ATOM, 32, PropModeReplace,
				(unsigned char *)list, n);
		return true;
	}
	if (target == o->timestamp) {
		long t = (long)o->since;
		XChangeProperty(o->dpy, w, prop, XA_INTEGER, 32, PropModeReplace,
				(unsigned char *)&t, 1);
		return true;
	}
	Atom type;
	if (target == o->utf8 || target == o->plain) {
		type = target;
	} else if (target == o->text) {
		type = o->utf8;
	} else if (target == XA_STRING && o->ascii) {
		type = XA_STRING;
	} else {
		return false;
	}
	if (o->len > o->chunk) {
		incr_start(o, w, prop, type);
	} else {
		XChangeProperty(o->dpy, w, prop, type, 8, PropModeReplace,
				(const unsigned char *)o->data, (int)o->len);
	}
	return true;
}

static void answer(struct owner *o, const XSelectionRequestEvent *rq)
{
	/* An obsolete client names no property: the target's name is the property then. */
	Atom prop = rq->property == None ? rq->target : rq->property;
	bool ok = rq->selection == o->sel && rq->target != o->multiple &&
		  (rq->time == CurrentTime || rq->time >= o->since) &&
		  serve(o, rq->requestor, rq->target, prop);
	XSelectionEvent n = {
		.type = SelectionNotify,
		.display = o->dpy,
		.requestor = rq->requestor,
		.selection = rq->selection,
		.target = rq->target,
		.property = ok ? prop : None,
		.time = rq->time,
	};
	XSendEvent(o->dpy, rq->requestor, False, NoEventMask, (XEvent *)&n);
	XFlush(o->dpy);
}

/* A server timestamp for the ownership (ICCCM: never CurrentTime): an empty append to our own
 * window, and the time of its PropertyNotify. */
static int server_time(Display *dpy, Window w, Time *ret)
{
	Atom prop = atom(dpy, "BOTDESK_CLIPBOARD_TIME");
	XChangeProperty(dpy, w, prop, XA_STRING, 8, PropModeAppend, NULL, 0);
	XEvent ev;
	int r = wait_event(dpy, w, PropertyNotify, &ev, now_ms() + CLIP_ANSWER_MS);
	if (r == 0) {
		*ret = ev.xproperty.time;
	}
	return r;
}

static int own(struct owner *o, const char *display, const char *xauthority, const char *name,
	       struct error *err)
{
	int r = xconn_open(display, xauthority, &o->dpy, err);
	if (r < 0) {
		return r;
	}
	Display *dpy = o->dpy;
	o->win = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), -10, -10, 1, 1, 0, 0, 0);
	XSelectInput(dpy, o->win, PropertyChangeMask);
	o->sel = atom(dpy, name);
	o->targets = atom(dpy, "TARGETS");
	o->timestamp = atom(dpy, "TIMESTAMP");
	o->utf8 = atom(dpy, "UTF8_STRING");
	o->text = atom(dpy, "TEXT");
	o->plain = atom(dpy, "text/plain;charset=utf-8");
	o->incr = atom(dpy, "INCR");
	o->multiple = atom(dpy, "MULTIPLE");
	long maxreq = XExtendedMaxRequestSize(dpy);
	size_t most = (size_t)(maxreq > 0 ? maxreq : XMaxRequestSize(dpy)) * 4 - 1024;
	o->chunk = most < CLIP_CHUNK ? most : CLIP_CHUNK;
	if (server_time(dpy, o->win, &o->since) < 0) {
		return error_set(err, -ETIMEDOUT, "the X server did not answer");
	}
	XSetSelectionOwner(dpy, o->sel, o->win, o->since);
	if (XGetSelectionOwner(dpy, o->sel) != o->win) {
		return error_set(err, -EBUSY, "another client took the %s at the same moment",
				 name);
	}
	return 0;
}

static void serve_forever(struct owner *o)
{
	for (;;) {
		XEvent ev;
		/* A broken connection (the desktop stopped) ends the process inside Xlib. */
		XNextEvent(o->dpy, &ev);
		switch (ev.type) {
		case SelectionRequest:
			answer(o, &ev.xselectionrequest);
			break;
		case SelectionClear:
			/* Something else was copied: the text is no longer the clipboard's. */
			if (ev.xselectionclear.selection == o->sel) {
				return;
			}
			break;
		case PropertyNotify:
			incr_next(o, &ev.xproperty);
			break;
		default:
			break;
		}
	}
}

int clip_owner_main(int argc, char **argv)
{
	if (argc != 5 || (!streq(argv[4], "CLIPBOARD") && !streq(argv[4], "PRIMARY"))) {
		fputs("usage: botdesk-act " CLIP_OWNER_ARG
		      " DISPLAY XAUTHORITY CLIPBOARD|PRIMARY (run by 'botdesk clipboard set')\n",
		      stderr);
		return 2;
	}
	char *text = malloc(CLIP_MAX + 1);
	ssize_t n = text ? read_all(0, text, CLIP_MAX + 1) : -ENOMEM;
	if (n < 0 || n > CLIP_MAX) {
		dprintf(1, "cannot read the text\n");
		return 1;
	}
	/* The spawner waits for this process: a grandchild serves, reparented, so nobody has a
	 * child to reap when it ends. */
	pid_t pid = fork();
	if (pid != 0) {
		_exit(pid < 0 ? 1 : 0);
	}
	struct owner o = {.data = text, .len = (size_t)n, .ascii = true};
	for (size_t i = 0; i < o.len; i++) {
		if ((unsigned char)text[i] >= 0x80) {
			o.ascii = false;
			break;
		}
	}
	struct error err = {{0}};
	if (own(&o, argv[2], argv[3], argv[4], &err) < 0) {
		dprintf(1, "%s\n", err.msg);
		return 1;
	}
	dprintf(1, "ok\n");
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		safe_close(null);
	}
	serve_forever(&o);
	return 0;
}
