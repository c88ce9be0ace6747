#include "act.h"
#include "changes.h"

#include <X11/extensions/XTest.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clipboard.h"
#include "jsonout.h"
#include "keys.h"
#include "lockfile.h"
#include "modelpic.h"
#include "opener.h"
#include "ptrseq.h"
#include "timeutil.h"
#include "typing.h"
#include "utf8.h"
#include "util.h"
#include "windows.h"
#include "xconn.h"

/* One `type` or `key` at a time per desktop: two would hand out the same spare keycodes. */
#define TYPING_LOCK "typing.lock"
#define TYPING_LOCK_WAIT_MS 10000
/* How long keys held around a scroll stay down after its last notch (held_pointer()). */
#define HOLD_WHEEL_GAP_MS 50

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

static int check(struct act *a, struct error *err)
{
	return a->check ? a->check(a->ctx, err) : 0;
}

/* The lease checked once more with its message, then kept open for the checks before each event
 * (lease.h). A take between the two reads is a refusal too. */
static int watch_begin(struct act *a, struct error *err)
{
	int r = check(a, err);
	if (r < 0 || a->dirfd < 0) {
		return r;
	}
	struct lease l;
	r = lease_watch_begin(a->dirfd, &a->lw, &l);
	if (r == 0 && a->epoch && l.epoch != *a->epoch) {
		lease_watch_end(&a->lw);
		r = -EACCES;
	}
	if (r == -EACCES && !error_isset(err)) {
		error_set_kind(err, ERROR_HUMAN_HOLDS, r,
			       "a human took the desktop just now; nothing was sent");
	}
	return r;
}

/* What a human's take cut short, for the message (the log says it from out). */
static int stopped(struct act_out *out, size_t total, const char *what, struct error *err)
{
	out->stopped = true;
	return error_set_kind(
		err, ERROR_HUMAN_HOLDS, -EACCES,
		"stopped: a human took the desktop after %zu of %zu %s; the rest was not sent. The agent may act again once they hand it back with 'botdesk release'",
		out->sent, total, what);
}

static bool motion(struct act *a, unsigned x, unsigned y)
{
	return XTestFakeMotionEvent(a->dpy, -1, (int)x, (int)y, CurrentTime) != 0;
}

static void seq_motion(void *ctx, unsigned x, unsigned y)
{
	motion(ctx, x, y);
}

static void seq_button(void *ctx, unsigned b, bool down, unsigned delay_ms)
{
	struct act *a = ctx;
	XTestFakeButtonEvent(a->dpy, b, down, delay_ms);
}

static int no_xtest(struct act *a, struct error *err)
{
	return error_set(
		err, -ENOTSUP,
		"the desktop's X server %s has no XTEST extension: botdesk's own Xvnc always has it; is this display botdesk's?",
		a->display);
}

static int cursor(struct act *a, struct act_out *out, struct error *err)
{
	Window root, child;
	int rx, ry, wx, wy;
	unsigned mask;
	if (!XQueryPointer(a->dpy, DefaultRootWindow(a->dpy), &root, &child, &rx, &ry, &wx, &wy,
			   &mask)) {
		return error_set(err, -EIO, "the pointer is on another screen");
	}
	out->x = (unsigned)rx;
	out->y = (unsigned)ry;
	return 0;
}

/* A typist on the action's connection, inside the action's lease watch (the lease file opened
 * when the action began): typist_end() when done. */
static int typist_open(struct act *a, struct typist *t, struct error *err)
{
	*t = (struct typist){.watch = a->dirfd >= 0 ? &a->lw : NULL, .sigfd = a->sigfd};
	int r = typist_begin(t, a->dpy, err);
	if (r < 0) {
		return r;
	}
	if ((r = watch_begin(a, err)) < 0) {
		typist_end(t);
	}
	return r;
}

static int typing_lock(struct act *a, struct error *err)
{
	if (a->dirfd < 0) {
		return -EBADF;
	}
	int fd = lockfile_take(a->dirfd, TYPING_LOCK, TYPING_LOCK_WAIT_MS);
	if (fd == -ETIMEDOUT) {
		return error_set(
			err, fd,
			"another botdesk type or key on this desktop has been running for %d s; retry when it has finished",
			TYPING_LOCK_WAIT_MS / 1000);
	}
	return fd;
}

/* The pointer's events: the first motion (where a missing XTEST shows), then the sequence, and
 * the wait until the server has them. */
static int gesture(struct act *a, const struct act_req *rq, struct act_out *out,
		   unsigned (*path)[2], struct error *err)
{
	if (!motion(a, out->x, out->y)) {
		return no_xtest(a, err);
	}
	static const struct ptrseq_ops ops = {.motion = seq_motion, .button = seq_button};
	ptrseq_emit(rq, out->x, out->y, out->x2, out->y2, rq->n_path ? path : NULL, &ops, a);
	XSync(a->dpy, False);
	return 0;
}

/* A pointer action with keys held around it (--hold, a model's modifiers on a click): three
 * units, each inside the watch: the keys pressed, the gesture, the keys let go. A take between
 * two stops it there, and the take's own release lets go of what is held. */
static int held_pointer(struct act *a, const struct act_req *rq, struct act_out *out,
			unsigned (*path)[2], struct error *err)
{
	struct combo c;
	if (keys_parse_combo(rq->hold, &c, err) < 0) {
		return -EINVAL;
	}
	_cleanup_close_ int lock = typing_lock(a, err);
	if (lock < 0 && lock != -EBADF) {
		return lock;
	}
	struct typist t;
	int r = typist_open(a, &t, err);
	if (r < 0) {
		return r;
	}
	r = typist_combo(&t, &c, ACT_KEY_PRESS, err);
	if (r == 0 && lease_watch_enter(&a->lw) < 0) {
		t.stopped = true;
		r = -EACCES;
	} else if (r == 0) {
		r = gesture(a, rq, out, path, err);
		lease_watch_leave(&a->lw);
		t.done += r == 0;
	}
	if (r == 0 && rq->cmd == ACT_SCROLL) {
		/* Chromium gives a wheel event the modifiers its own keyboard state has when it
		 * dispatches it, later than the keys: let go at once, and its later notches of a
		 * ctrl+scroll came without ctrl. */
		(void)poll(NULL, 0, HOLD_WHEEL_GAP_MS);
	}
	/* Let go after a failed gesture too: keys left down would change every later input. */
	if (!t.stopped && t.done > 0) {
		struct error ignored = {{0}};
		int rr = typist_combo(&t, &c, ACT_KEY_RELEASE, r ? &ignored : err);
		r = r ? r : rr;
	}
	typist_end(&t);
	out->sent = t.done;
	if (t.stopped) {
		return stopped(out, 3, "steps (keys down, the pointer's gesture, keys up)", err);
	}
	return r;
}

static int pointer(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err)
{
	unsigned path[ACT_PATH_MAX][2];
	int r = act_resolve_points(rq, a->sw, a->sh, &out->x, &out->y, &out->x2, &out->y2, err);
	if (r == 0) {
		r = act_resolve_path(rq, a->sw, a->sh, path, err);
	}
	if (r == 0 && rq->at_pointer) {
		r = cursor(a, out, err);
	}
	if (r < 0) {
		return r;
	}
	_cleanup_(changes_end) struct changes ch = {.damage = 0};
	if (rq->changes &&
	    changes_begin(&ch, a->dpy, a->watching ? &a->watch : NULL, &a->changed) < 0) {
		return error_set(
			err, -ENOTSUP,
			"the desktop's X server %s has no DAMAGE extension: what changed cannot be told",
			a->display);
	}
	if (rq->hold) {
		r = held_pointer(a, rq, out, path, err);
	} else if ((r = watch_begin(a, err)) == 0) {
		/* The whole gesture inside the watch: a take waits for it rather than cut a click
		 * in two. */
		if (lease_watch_enter(&a->lw) < 0) {
			return error_set_kind(
				err, ERROR_HUMAN_HOLDS, -EACCES,
				"a human took the desktop just now; nothing was sent");
		}
		r = gesture(a, rq, out, path, err);
		lease_watch_leave(&a->lw);
		out->sent = r == 0;
	}
	if (r == 0 && rq->changes) {
		changes_collect(&ch, out);
	}
	if (r == 0) {
		/* The window it landed on, for the result (the MCP server's every answer). */
		win_under_pointer(a->dpy, &out->landed, out->landed_title,
				  sizeof(out->landed_title));
		out->landed_known = true;
	}
	return r;
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

/* key --hold-for: the combo pressed, held hold_ms (a signal ends the hold early), let go. Each
 * inside the watch; a take during the hold lets the keys go itself, and the release is then
 * not sent. */
static int hold_key(struct act *a, struct typist *t, const struct combo *c, uint64_t hold_ms,
		    struct error *err)
{
	int r = typist_combo(t, c, ACT_KEY_PRESS, err);
	if (r < 0) {
		return r;
	}
	XSync(a->dpy, False);
	struct pollfd pfd = {.fd = a->sigfd, .events = POLLIN};
	bool signalled = poll(&pfd, 1, (int)hold_ms) > 0;
	r = typist_combo(t, c, ACT_KEY_RELEASE, err);
	if (r == 0 && signalled) {
		r = error_set(err, -EINTR,
			      "the hold was interrupted by a signal; the key was let go");
	}
	return r;
}

static int keyboard(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err)
{
	struct combo combos[ACT_KEYS_MAX];
	_cleanup_free_ uint32_t *cps = NULL;
	size_t n = 0;
	if (rq->cmd == ACT_KEY) {
		for (size_t i = 0; i < rq->n_keys; i++) {
			if (keys_parse_combo(rq->keys[i], &combos[i], err) < 0) {
				return -EINVAL;
			}
		}
	} else {
		cps = malloc((rq->text_len + 1) * sizeof(uint32_t));
		if (!cps) {
			return -ENOMEM;
		}
		size_t pos = 0;
		while (pos < rq->text_len) {
			if (utf8_next(rq->text, rq->text_len, &pos, &cps[n++]) < 0) {
				return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
						      "the text is not UTF-8");
			}
		}
	}
	_cleanup_close_ int lock = typing_lock(a, err);
	if (lock < 0 && lock != -EBADF) {
		return lock;
	}
	int ev, er, major, minor;
	if (!XTestQueryExtension(a->dpy, &ev, &er, &major, &minor)) {
		return no_xtest(a, err);
	}
	struct typist t;
	int r = typist_open(a, &t, err);
	if (r < 0) {
		return r;
	}
	if (rq->cmd == ACT_KEY && rq->hold_ms) {
		r = hold_key(a, &t, &combos[0], rq->hold_ms, err);
		out->keys = 1;
	} else if (rq->cmd == ACT_KEY) {
		for (size_t i = 0; i < rq->n_keys && r == 0; i++) {
			r = typist_combo(&t, &combos[i], rq->key_mode, err);
			if (r == 0 && rq->delay_ms > 0 && i + 1 < rq->n_keys) {
				XSync(a->dpy, False);
				struct pollfd pfd = {.fd = a->sigfd, .events = POLLIN};
				r = poll(&pfd, 1, (int)rq->delay_ms) > 0 ? -EINTR : 0;
			}
		}
		out->keys = rq->n_keys;
	} else {
		r = typist_text(&t, cps, n, rq->delay_ms, err);
		out->chars = n;
	}
	typist_end(&t);
	out->remapped = t.remapped;
	out->sent = t.done;
	if (t.stopped && rq->hold_ms) {
		return stopped(out, 2, "key events (the press, the release after the hold)", err);
	}
	if (t.stopped) {
		return rq->cmd == ACT_KEY ? stopped(out, rq->n_keys, "key combos", err)
					  : stopped(out, n, "characters", err);
	}
	return r;
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

/* A JSON string of len bytes of UTF-8 (checked before): what `clipboard get --json` prints. */
static char *clip_json(const struct act_out *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		return NULL;
	}
	struct jsonout j;
	jsonout_begin(&j, f);
	jsonout_string_n(&j, "text", out->data ? out->data : "", out->data_len);
	jsonout_bool(&j, "owned", out->owned);
	jsonout_close(&j);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int clipboard(struct act *a, const struct act_req *rq, struct act_out *out,
		     struct error *err)
{
	int r = check(a, err);
	if (r < 0) {
		return r;
	}
	if (rq->cmd == ACT_CLIPBOARD_SET) {
		size_t bad;
		(void)utf8_validate(rq->text, rq->text_len, &out->chars, &bad);
		if (!a->program) {
			return error_set(err, -ENOTSUP, "no clipboard owner program was named");
		}
		return clip_set(a->program, a->display, a->xauthority, a->cgroup_fd, rq->primary,
				rq->text, rq->text_len, err);
	}
	r = clip_get(a->dpy, rq->primary, &out->data, &out->data_len, &out->owned, err);
	if (r == 0 && !(out->json = clip_json(out))) {
		return -ENOMEM;
	}
	return r;
}

static int windows(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err)
{
	int r = check(a, err);
	if (r < 0) {
		return r;
	}
	if (rq->cmd == ACT_WINDOWS) {
		return win_list_json(a->dpy, a->sw, a->sh, &out->json, &out->data, err);
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
		/* The Display is dead: abandoned, never closed. */
		a->dpy = NULL;
		a->watching = false;
		lease_watch_end(&a->lw);
		return error_set(err, -ECONNRESET, "the desktop's X server %s went away",
				 a->display);
	}
	/* A connection made a moment ago knows the size; a kept one asks (a RandR change). */
	int r = a->fresh ? 0 : xconn_screen_size(a->dpy, &a->sw, &a->sh);
	a->fresh = false;
	if (r < 0) {
		error_set(err, r, "cannot read the screen's size");
	}
	out->sw = a->sw;
	out->sh = a->sh;
	if (r == 0 && a->model_space) {
		r = modelpic_request(req, a->sw, a->sh, &model, err);
	}
	out->from_w = rq->from_w;
	out->from_h = rq->from_h;
	if (r == 0) {
		/* Changes before this action are not what a later wait-change waits for. */
		if (a->watching && rq->cmd != ACT_WAIT_CHANGE && rq->cmd != ACT_WAIT_IDLE &&
		    rq->cmd != ACT_SCREENSHOT && rq->cmd != ACT_CURSOR && rq->cmd != ACT_WAIT &&
		    rq->cmd != ACT_CLIPBOARD_GET && rq->cmd != ACT_WINDOWS) {
			screenwait_drain(&a->watch);
			a->changed = false;
		}
		switch (rq->cmd) {
		case ACT_CLICK:
		case ACT_MOVE:
		case ACT_DRAG:
		case ACT_SCROLL:
		case ACT_MOUSE_DOWN:
		case ACT_MOUSE_UP:
			r = pointer(a, rq, out, err);
			break;
		case ACT_WAIT:
			r = pause_for(a, rq, out, err);
			break;
		case ACT_CURSOR:
			r = cursor(a, out, err);
			break;
		case ACT_TYPE:
		case ACT_KEY:
			r = keyboard(a, rq, out, err);
			break;
		case ACT_SCREENSHOT:
			r = screenshot(a, rq, out, err);
			break;
		case ACT_WAIT_IDLE:
		case ACT_WAIT_CHANGE:
			r = wait_screen(a, rq, out, err);
			break;
		case ACT_CLIPBOARD_GET:
		case ACT_CLIPBOARD_SET:
			r = clipboard(a, rq, out, err);
			break;
		case ACT_WINDOWS:
		case ACT_WINDOW:
			r = windows(a, rq, out, err);
			break;
		case ACT_OPEN:
		case ACT_LAUNCH: {
			Window w = None;
			r = check(a, err);
			r = r ? r
			      : opener_run(a->dpy, rq, a->browser, a->env, a->cgroup_fd, &w, err);
			out->win = w;
			break;
		}
		default:
			r = -EINVAL;
		}
	}
	/* Also when the connection broke inside the watch: a lock left held would make every
	 * later take wait its full bound (the MCP server lives on). */
	lease_watch_end(&a->lw);
	if (r == -ECONNRESET) {
		/* The grab's own guard caught it. */
		a->dpy = NULL;
		a->watching = false;
	} else {
		xconn_guard_pop(&g);
	}
	return r;
}
