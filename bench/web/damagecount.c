/* damagecount SECONDS: how many times the screen was painted in that time, counted by XDamage on
 * the root window (each notice taken in before the next can come): on a desktop where only
 * vncviewer draws, the frames per second it shows. Prints "frames N fps F". */
#include <X11/Xlib.h>
#include <X11/extensions/Xdamage.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 5;
	Display *dpy = XOpenDisplay(NULL);
	int ev, err;
	if (!dpy || !XDamageQueryExtension(dpy, &ev, &err)) {
		fprintf(stderr, "damagecount: no display with XDamage\n");
		return 1;
	}
	Damage d = XDamageCreate(dpy, DefaultRootWindow(dpy), XDamageReportNonEmpty);
	XSync(dpy, False);
	unsigned long frames = 0;
	double t0 = now_s(), end = t0 + secs;
	while (now_s() < end) {
		struct pollfd p = {.fd = ConnectionNumber(dpy), .events = POLLIN};
		if (!XPending(dpy)) {
			poll(&p, 1, (int)((end - now_s()) * 1000) + 1);
		}
		while (XPending(dpy)) {
			XEvent e;
			XNextEvent(dpy, &e);
			if (e.type == ev + XDamageNotify) {
				frames++;
				XDamageSubtract(dpy, d, None, None);
			}
		}
	}
	printf("frames %lu fps %.1f\n", frames, (double)frames / (now_s() - t0));
	return 0;
}
