#include "act.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

#include "actinput.h"
#include "clipboard.h"
#include "jsonout.h"
#include "memout.h"
#include "modelpic.h"
#include "opener.h"
#include "timeutil.h"
#include "utf8.h"
#include "windows.h"
#include "xconn.h"

int act_open(struct act *a, const char *display, const char *xauthority, struct error *err)
{
	a->dpy = NULL;
	a->watching = false;
	a->changed = false;
	int r = xconn_open(display, xauthority, &a->dpy, err);
	if (r < 0) {
		return r;
	}
	snprintf(a->display, sizeof(a->display), "%s", display);
	snprintf(a->xauthority, sizeof(a->xauthority), "%s", xauthority);
	struct xconn_guard g;
	xconn_guard_push(&g);
	if (sigsetjmp(g.jb, 1) != 0) {
		a->dpy = NULL;
		return error_set(err, -ECONNRESET, "the desktop's X server %s went away", display);
	}
	/* XTEST is not asked for here: libXtst looks for it with the first event, and a round
	 * trip saved is a fifth of a click. */
	if (a->track && screenwait_start(&a->watch, a->dpy) == 0) {
		a->watching = true;
	}
	xconn_guard_pop(&g);
	int screen = DefaultScreen(a->dpy);
	a->sw = (unsigned)DisplayWidth(a->dpy, screen);
	a->sh = (unsigned)DisplayHeight(a->dpy, screen);
	a->fresh = true;
	return 0;
}

bool act_is_open(const struct act *a)
{
	return a->dpy != NULL;
}

void act_close(struct act *a)
{
	if (!a->dpy) {
		return;
	}
	struct xconn_guard g;
	xconn_guard_push(&g);
	if (sigsetjmp(g.jb, 1) == 0) {
		if (a->watching) {
			screenwait_stop(&a->watch);
		}
		XCloseDisplay(a->dpy);
		xconn_guard_pop(&g);
	}
	a->dpy = NULL;
	a->watching = false;
}

/* `wait SECONDS`: nothing sent; a signal (Ctrl-C) ends it early. */
static int pause_for(struct act *a, const struct act_req *rq, struct act_out *out,
		     struct error *err)
{
	uint64_t t0 = now_ms();
	struct pollfd pfd = {.fd = a->sigfd, .events = POLLIN};
	int n = poll(&pfd, 1, (int)rq->timeout_ms);
	out->waited_ms = now_ms() - t0;
	if (n > 0) {
		return error_set(err, -EINTR, "the wait was interrupted by a signal");
	}
	return 0;
}

static int screenshot(struct act *a, const struct act_req *rq, struct act_out *out,
		      struct error *err)
{
	int r = act_check_region(rq, a->sw, a->sh, err);
	if (r < 0) {
		return r;
	}
	struct grab_request g = {
		.max_w = rq->max_w,
		.max_h = rq->max_h,
		.enlarge = rq->enlarge,
		.format = rq->format == ACT_FORMAT_JPEG ? GRAB_JPEG : GRAB_PNG,
		.quality = rq->quality,
	};
	if (rq->region) {
		g.x = rq->rx;
		g.y = rq->ry;
		g.w = rq->rw;
		g.h = rq->rh;
	} else {
		g.w = a->sw;
		g.h = a->sh;
	}
	return grab_encode(a->dpy, &g, &out->pic, err);
}

static int wait_screen(struct act *a, const struct act_req *rq, struct act_out *out,
		       struct error *err)
{
	struct screenwait local;
	struct screenwait *w = &a->watch;
	if (!a->watching) {
		int r = screenwait_start(&local, a->dpy);
		if (r < 0) {
			return error_set(err, r, "the desktop's X server has no DAMAGE extension");
		}
		w = &local;
	}
	int r;
	if (rq->cmd == ACT_WAIT_CHANGE) {
		/* With a watch kept across requests, a change since the last action counts: it
		 * may have come before this wait began. */
		if (a->watching && (screenwait_drain(w) || a->changed)) {
			out->waited_ms = 0;
			r = 0;
		} else {
			r = screenwait_change(w, rq->timeout_ms, &out->waited_ms);
		}
		out->changed = r == 0;
		a->changed = false;
	} else {
		r = screenwait_idle(w, rq->quiet_ms, rq->timeout_ms, &out->waited_ms);
	}
	if (w == &local) {
		screenwait_stop(&local);
	}
	if (r == -ETIMEDOUT) {
		return error_set(err, r,
				 rq->cmd == ACT_WAIT_CHANGE
					 ? "the screen did not change within %llu.%03llu s"
					 : "the screen kept changing for %llu.%03llu s",
				 (unsigned long long)(rq->timeout_ms / 1000),
				 (unsigned long long)(rq->timeout_ms % 1000));
	}
	return r;
}

/* `clipboard get --json`: the text (len bytes of UTF-8, checked before) and whether any client
 * owned the clipboard. */
static int print_clip(FILE *f, void *ctx)
{
	const struct act_out *out = ctx;
	struct jsonout j;
	jsonout_begin(&j, f);
	jsonout_string_n(&j, "text", out->data ? out->data : "", out->data_len);
	jsonout_bool(&j, "owned", out->owned);
	jsonout_close(&j);
	return 0;
}

static int clipboard_get(struct act *a, const struct act_req *rq, struct act_out *out,
			 struct error *err)
{
	int r = actinput_check(a, err);
	if (r == 0) {
		r = clip_get(a->dpy, rq->primary, &out->data, &out->data_len, &out->owned, err);
	}
	if (r == 0 && !(out->json = memout(print_clip, out))) {
		return -ENOMEM;
	}
	return r;
}

static int clipboard_set(struct act *a, const struct act_req *rq, struct act_out *out,
			 struct error *err)
{
	int r = actinput_check(a, err);
	if (r < 0) {
		return r;
	}
	size_t bad;
	(void)utf8_validate(rq->text, rq->text_len, &out->chars, &bad);
	if (!a->program) {
		return error_set(err, -ENOTSUP, "no clipboard owner program was named");
	}
	return clip_set(a->program, a->display, a->xauthority, a->cgroup_fd, rq->primary, rq->text,
			rq->text_len, err);
}

static int windows(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err)
{
	int r = actinput_check(a, err);
	return r < 0 ? r : win_list_json(a->dpy, a->sw, a->sh, &out->json, &out->data, err);
}

static int window(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err)
{
	int r = actinput_check(a, err);
	if (r < 0) {
		return r;
	}
	struct win_geom g;
	r = win_act(a->dpy, rq, &g, err);
	if (r == 0) {
		out->wx = g.x;
		out->wy = g.y;
		out->ww = g.w;
		out->wh = g.h;
	}
	return r;
}

/* open and launch: the program started, its new window into out->win. */
static int open_window(struct act *a, const struct act_req *rq, struct act_out *out,
		       struct error *err)
{
	Window w = None;
	int r = actinput_check(a, err);
	if (r == 0) {
		r = opener_run(a->dpy, rq, a->browser, a->env, a->cgroup_fd, &w, err);
	}
	out->win = w;
	return r;
}

/* What each action does (a request of an action with no row, the accessibility tree's, is
 * -EINVAL: botdesk-act-a11y does those). */
static const struct act_handler {
	int (*run)(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err);
	/* It only reads the desktop, or waits: a change before it is kept for a later
	 * wait-change rather than taken as this action's. */
	bool reads;
} handlers[ACT_CMD_COUNT] = {
	[ACT_CLICK] = {actinput_pointer, false},
	[ACT_MOVE] = {actinput_pointer, false},
	[ACT_DRAG] = {actinput_pointer, false},
	[ACT_SCROLL] = {actinput_pointer, false},
	[ACT_MOUSE_DOWN] = {actinput_pointer, false},
	[ACT_MOUSE_UP] = {actinput_pointer, false},
	[ACT_CURSOR] = {actinput_cursor, true},
	[ACT_TYPE] = {actinput_keys, false},
	[ACT_KEY] = {actinput_keys, false},
	[ACT_SCREENSHOT] = {screenshot, true},
	[ACT_WAIT_IDLE] = {wait_screen, true},
	[ACT_WAIT_CHANGE] = {wait_screen, true},
	[ACT_WAIT] = {pause_for, true},
	[ACT_CLIPBOARD_GET] = {clipboard_get, true},
	[ACT_CLIPBOARD_SET] = {clipboard_set, false},
	[ACT_WINDOWS] = {windows, true},
	[ACT_WINDOW] = {window, false},
	[ACT_OPEN] = {open_window, false},
	[ACT_LAUNCH] = {open_window, false},
};

/* The screen's size (a connection made a moment ago knows it; a kept one asks: a RandR change)
 * and, in the model picture's space, the request read in it (into *model). */
static int size_up(struct act *a, const struct act_req *req, struct act_req *model,
		   struct act_out *out, struct error *err)
{
	int r = a->fresh ? 0 : xconn_screen_size(a->dpy, &a->sw, &a->sh);
	a->fresh = false;
	if (r < 0) {
		error_set(err, r, "cannot read the screen's size");
	}
	out->sw = a->sw;
	out->sh = a->sh;
	if (r == 0 && a->model_space) {
		r = modelpic_request(req, a->sw, a->sh, model, err);
	}
	return r;
}

static int dispatch(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err)
{
	const struct act_handler *h = (unsigned)rq->cmd < ACT_CMD_COUNT ? &handlers[rq->cmd] : NULL;
	/* Changes before this action are not what a later wait-change waits for. */
	if (a->watching && !(h && h->reads)) {
		screenwait_drain(&a->watch);
		a->changed = false;
	}
	return h && h->run ? h->run(a, rq, out, err) : -EINVAL;
}

/* The connection broke: the Display is abandoned, never closed. */
static void lost(struct act *a)
{
	a->dpy = NULL;
	a->watching = false;
}

int act_run(struct act *a, const struct act_req *req, struct act_out *out, struct error *err)
{
	/* Chosen before the jump point below, so that the jump cannot clobber it. */
	struct act_req model = *req;
	const struct act_req *rq = a->model_space ? &model : req;
	*out = (struct act_out){0};
	a->lw = (struct lease_watch)LEASE_WATCH_INIT;
	if (!a->dpy) {
		return error_set(err, -ENOTCONN, "not connected to the desktop");
	}
	struct xconn_guard g;
	xconn_guard_push(&g);
	if (sigsetjmp(g.jb, 1) != 0) {
		lost(a);
		lease_watch_end(&a->lw);
		return error_set(err, -ECONNRESET, "the desktop's X server %s went away",
				 a->display);
	}
	int r = size_up(a, req, &model, out, err);
	out->from_w = rq->from_w;
	out->from_h = rq->from_h;
	if (r == 0) {
		r = dispatch(a, rq, out, err);
	}
	/* Also when the connection broke inside the watch: a lock left held would make every
	 * later take wait its full bound (the MCP server lives on). */
	lease_watch_end(&a->lw);
	if (r == -ECONNRESET) {
		/* The grab's own guard caught it. */
		lost(a);
	} else {
		xconn_guard_pop(&g);
	}
	return r;
}
