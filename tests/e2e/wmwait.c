/* The session's wait for the window manager, on a real desktop's X server (run by wm-wait.sh
 * through botdesk exec): an event that a check's round trip read into Xlib's queue is looked at
 * before the socket is waited on. The first check makes that happen on purpose: a second
 * connection changes a root property (a PropertyNotify for the watching connection), and the
 * watching connection's round trip reads it into its queue while the check still answers "not
 * yet". Waiting on the fd then would sleep on an empty socket: the wait callback fails the test
 * when it is called with events queued, so the result does not depend on timing. Also: the real
 * check says the running desktop's window manager owns its screen. Prints "ok" or why not. */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <stdio.h>

#include "xsetup.h"

struct race {
	Display *watching;
	Display *other;
	int checks;
	int waited_with_events;
};

static struct race *the_race; /* the check callback has no context argument */

static int racing_check(Display *dpy)
{
	struct race *rc = the_race;
	rc->checks++;
	if (rc->checks > 1) {
		return 1;
	}
	Atom a = XInternAtom(rc->other, "BOTDESK_WMWAIT_TEST", False);
	unsigned char v = 1;
	XChangeProperty(rc->other, DefaultRootWindow(rc->other), a, XA_CARDINAL, 8, PropModeReplace,
			&v, 1);
	XSync(rc->other, False);
	/* The event now precedes this round trip's reply on the socket: Xlib queues it. */
	XSync(dpy, False);
	return 0;
}

/* Never called when the fix holds: the second check answers before any wait. */
static int checking_wait(void *ctx, int fd)
{
	struct race *rc = ctx;
	(void)fd;
	if (XEventsQueued(rc->watching, QueuedAlready) > 0) {
		rc->waited_with_events = 1;
	}
	return 0;
}

static int run(Display *dpy, Display *other)
{
	if (xsetup_wm_owns_screen(dpy) != 1) {
		fprintf(stderr, "wmwait: the real check says no window manager owns the screen\n");
		return 1;
	}
	if (xsetup_watch_wm(dpy) < 0) {
		fprintf(stderr, "wmwait: cannot watch the root window\n");
		return 2;
	}
	struct race rc = {.watching = dpy, .other = other};
	the_race = &rc;
	int r = xsetup_wait_wm(dpy, racing_check, checking_wait, &rc);
	if (rc.waited_with_events) {
		fprintf(stderr,
			"wmwait: the wait slept on the socket with %d event(s) already in Xlib's queue\n",
			XEventsQueued(dpy, QueuedAlready));
		return 1;
	}
	if (r != 1 || rc.checks != 2) {
		fprintf(stderr,
			"wmwait: the wait returned %d after %d checks, expected 1 after 2\n", r,
			rc.checks);
		return 1;
	}
	printf("ok\n");
	return 0;
}

int main(void)
{
	Display *dpy = XOpenDisplay(NULL);
	Display *other = XOpenDisplay(NULL);
	int status = 2;
	if (!dpy || !other) {
		fprintf(stderr, "wmwait: cannot open the display\n");
	} else {
		status = run(dpy, other);
	}
	/* Closed, so the sanitizers' leak check sees nothing of Xlib's left. */
	if (other) {
		XCloseDisplay(other);
	}
	if (dpy) {
		XCloseDisplay(dpy);
	}
	return status;
}
