#include "screenwait.h"

#include <errno.h>
#include <poll.h>

#include "timeutil.h"

int screenwait_start(struct screenwait *w, Display *dpy)
{
	int error_base;
	*w = (struct screenwait){.dpy = dpy};
	if (!XDamageQueryExtension(dpy, &w->event_base, &error_base)) {
		return -ENOTSUP;
	}
	w->damage = XDamageCreate(dpy, DefaultRootWindow(dpy), XDamageReportNonEmpty);
	/* The server reports the whole window as damaged when the watch is made: that report is
	 * not a change. Empty the region, and let the round trip bring the report in to drop. */
	XDamageSubtract(dpy, w->damage, None, None);
	XSync(dpy, False);
	screenwait_drain(w);
	w->last_change_ms = 0;
	return 0;
}

void screenwait_stop(struct screenwait *w)
{
	if (w->damage) {
		XDamageDestroy(w->dpy, w->damage);
		w->damage = 0;
	}
}

bool screenwait_drain(struct screenwait *w)
{
	bool changed = false;
	while (XPending(w->dpy)) {
		XEvent ev;
		XNextEvent(w->dpy, &ev);
		if (ev.type == w->event_base + XDamageNotify) {
			changed = true;
		}
	}
	if (changed) {
		/* Empties the damaged region, so the next drawing reports again. */
		XDamageSubtract(w->dpy, w->damage, None, None);
		XFlush(w->dpy);
		w->last_change_ms = now_ms();
	}
	return changed;
}

/* Waits for the connection to have something to read, until deadline (monotonic ms). */
static void wait_readable(struct screenwait *w, uint64_t deadline)
{
	uint64_t now = now_ms();
	if (now >= deadline) {
		return;
	}
	struct pollfd pfd = {.fd = ConnectionNumber(w->dpy), .events = POLLIN};
	(void)poll(&pfd, 1, (int)(deadline - now));
}

int screenwait_change(struct screenwait *w, uint64_t timeout_ms, uint64_t *ret_waited_ms)
{
	uint64_t start = now_ms(), deadline = start + timeout_ms;
	for (;;) {
		if (screenwait_drain(w)) {
			*ret_waited_ms = now_ms() - start;
			return 0;
		}
		if (now_ms() >= deadline) {
			*ret_waited_ms = timeout_ms;
			return -ETIMEDOUT;
		}
		wait_readable(w, deadline);
	}
}

int screenwait_idle(struct screenwait *w, uint64_t quiet_ms, uint64_t timeout_ms,
		    uint64_t *ret_waited_ms)
{
	uint64_t start = now_ms(), deadline = start + timeout_ms;
	screenwait_drain(w);
	/* Quiet counts from the later of the start and the last change seen. */
	for (;;) {
		screenwait_drain(w);
		uint64_t now = now_ms();
		uint64_t since = w->last_change_ms > start ? w->last_change_ms : start;
		if (now >= since + quiet_ms) {
			*ret_waited_ms = now - start;
			return 0;
		}
		if (now >= deadline) {
			*ret_waited_ms = timeout_ms;
			return -ETIMEDOUT;
		}
		uint64_t until = since + quiet_ms < deadline ? since + quiet_ms : deadline;
		wait_readable(w, until);
	}
}
