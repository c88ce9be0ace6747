#include "changes.h"

#include <errno.h>
#include <poll.h>

#include "timeutil.h"

/* Boxes this close are one change (a button's border and its label). */
#define TOUCH_PX 8

static struct act_rect unite(struct act_rect a, struct act_rect b)
{
	unsigned x0 = a.x < b.x ? a.x : b.x, y0 = a.y < b.y ? a.y : b.y;
	unsigned ax1 = a.x + a.w, bx1 = b.x + b.w, ay1 = a.y + a.h, by1 = b.y + b.h;
	unsigned x1 = ax1 > bx1 ? ax1 : bx1, y1 = ay1 > by1 ? ay1 : by1;
	return (struct act_rect){x0, y0, x1 - x0, y1 - y0};
}

static bool touch(struct act_rect a, struct act_rect b)
{
	return a.x <= b.x + b.w + TOUCH_PX && b.x <= a.x + a.w + TOUCH_PX &&
	       a.y <= b.y + b.h + TOUCH_PX && b.y <= a.y + a.h + TOUCH_PX;
}

static unsigned long long area(struct act_rect r)
{
	return (unsigned long long)r.w * r.h;
}

void changes_add(struct act_rect *boxes, size_t *n, struct act_rect r)
{
	if (r.w == 0 || r.h == 0) {
		return;
	}
	/* Merged into what it touches; the union may now touch others: merge those in too. */
	for (size_t i = 0; i < *n; i++) {
		if (!touch(boxes[i], r)) {
			continue;
		}
		r = unite(boxes[i], r);
		boxes[i] = boxes[--*n];
		i = (size_t)-1;
	}
	if (*n < ACT_CHANGED_MAX) {
		boxes[(*n)++] = r;
		return;
	}
	size_t best = 0;
	unsigned long long grow = ~0ULL;
	for (size_t i = 0; i < *n; i++) {
		unsigned long long g = area(unite(boxes[i], r)) - area(boxes[i]);
		if (g < grow) {
			grow = g;
			best = i;
		}
	}
	boxes[best] = unite(boxes[best], r);
}

/* Takes the events that arrived: our rectangles into out (when given), the watch's kept armed. */
static bool take_events(struct changes *c, struct act_out *out)
{
	bool ours = false;
	while (XPending(c->dpy)) {
		XEvent ev;
		XNextEvent(c->dpy, &ev);
		if (ev.type != c->event_base + XDamageNotify) {
			continue;
		}
		const XDamageNotifyEvent *d = (const XDamageNotifyEvent *)&ev;
		if (d->damage == c->damage) {
			ours = true;
			if (out) {
				changes_add(out->regions, &out->n_regions,
					    (struct act_rect){(unsigned)d->area.x,
							      (unsigned)d->area.y, d->area.width,
							      d->area.height});
			}
		} else if (c->watch && d->damage == c->watch->damage) {
			XDamageSubtract(c->dpy, c->watch->damage, None, None);
			c->watch->last_change_ms = now_ms();
			*c->watch_changed = true;
		}
	}
	return ours;
}

int changes_begin(struct changes *c, Display *dpy, struct screenwait *watch, bool *watch_changed)
{
	int error_base;
	*c = (struct changes){.dpy = dpy, .watch = watch, .watch_changed = watch_changed};
	if (!XDamageQueryExtension(dpy, &c->event_base, &error_base)) {
		return -ENOTSUP;
	}
	c->damage = XDamageCreate(dpy, DefaultRootWindow(dpy), XDamageReportRawRectangles);
	/* What the server reports as the watch is made is no change of the action's. */
	XSync(dpy, False);
	(void)take_events(c, NULL);
	return 0;
}

void changes_end(struct changes *c)
{
	if (c->damage) {
		XDamageDestroy(c->dpy, c->damage);
		XFlush(c->dpy);
		c->damage = 0;
	}
}

void changes_collect(struct changes *c, struct act_out *out)
{
	out->n_regions = 0;
	uint64_t start = now_ms(), last = 0;
	for (;;) {
		if (take_events(c, out)) {
			last = now_ms();
		}
		uint64_t now = now_ms(), until = start + ACT_CHANGES_WAIT_MS;
		if (last && last + ACT_CHANGES_QUIET_MS < until) {
			until = last + ACT_CHANGES_QUIET_MS;
		}
		if (now >= until) {
			break;
		}
		struct pollfd p = {.fd = ConnectionNumber(c->dpy), .events = POLLIN};
		(void)poll(&p, 1, (int)(until - now));
	}
	changes_end(c);
}
