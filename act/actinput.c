#include "actinput.h"

#include <X11/extensions/XTest.h>
#include <poll.h>
#include <stdlib.h>

#include "changes.h"
#include "keys.h"
#include "lockfile.h"
#include "ptrseq.h"
#include "typing.h"
#include "utf8.h"
#include "util.h"
#include "windows.h"

/* One `type` or `key` at a time per desktop: two would hand out the same spare keycodes. */
#define TYPING_LOCK "typing.lock"
#define TYPING_LOCK_WAIT_MS 10000
/* How long keys held around a scroll stay down after its last notch (held_pointer()). */
#define HOLD_WHEEL_GAP_MS 50

int actinput_check(struct act *a, struct error *err)
{
	return a->check ? a->check(a->ctx, err) : 0;
}

/* The lease checked once more with its message, then kept open for the checks before each event
 * (lease.h). A take between the two reads is a refusal too. */
static int watch_begin(struct act *a, struct error *err)
{
	int r = actinput_check(a, err);
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

int actinput_cursor(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err)
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

int actinput_pointer(struct act *a, const struct act_req *rq, struct act_out *out,
		     struct error *err)
{
	unsigned path[ACT_PATH_MAX][2];
	int r = act_resolve_points(rq, a->sw, a->sh, &out->x, &out->y, &out->x2, &out->y2, err);
	if (r == 0) {
		r = act_resolve_path(rq, a->sw, a->sh, path, err);
	}
	if (r == 0 && rq->at_pointer) {
		r = actinput_cursor(a, rq, out, err);
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

int actinput_keys(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err)
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
