/* The desktop's objects' figures (issue 26), on a running desktop, whole process each time:
 *   - clipboard set -> paste available: from spawning `botdesk clipboard set TEXT` until another
 *     X client (this program, as a pasting application would) has converted the clipboard and
 *     read TEXT back; and the conversion alone (what a paste costs the application);
 *   - `botdesk windows --json` with 20 windows on the desktop (this program maps 20 top-level
 *     windows first, and waits until the window manager lists them), and the listing alone
 *     in-process (what the MCP tool costs).
 * Usage, as the desktop's user:
 *   bench-objects PATH-TO-botdesk PROFILE-DIR [ROUNDS]
 * (PROFILE-DIR is the profile's state directory: its env file names the display.) */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlib.h"
#include "clipboard.h"
#include "windows.h"
#include "xconn.h"

#define WINDOWS 20

static unsigned long listed(Display *dpy)
{
	Atom type;
	int format;
	unsigned long n = 0, after;
	unsigned char *d = NULL;
	XGetWindowProperty(dpy, DefaultRootWindow(dpy), XInternAtom(dpy, "_NET_CLIENT_LIST", False),
			   0, 65536, False, XA_WINDOW, &type, &format, &n, &after, &d);
	if (d) {
		XFree(d);
	}
	return n;
}

/* 20 top-level windows, mapped and managed (bounded wait: 10 s). */
static int map_windows(Display *dpy)
{
	unsigned long before = listed(dpy);
	for (int i = 0; i < WINDOWS; i++) {
		Window w = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 20 * i, 20 * i, 300,
					       200, 0, 0, 0xffffff);
		char title[32];
		snprintf(title, sizeof(title), "bench window %d", i);
		XStoreName(dpy, w, title);
		XMapWindow(dpy, w);
	}
	XSync(dpy, False);
	double deadline = bench_now_ms() + 10000;
	while (listed(dpy) < before + WINDOWS) {
		if (bench_now_ms() > deadline) {
			return -1;
		}
		usleep(10000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: bench-objects PATH-TO-botdesk PROFILE-DIR [ROUNDS]\n");
		return 2;
	}
	char *bd = argv[1];
	int rounds = argc > 3 ? atoi(argv[3]) : 50;
	if (rounds < 1 || rounds > 10000) {
		rounds = 50;
	}
	char display[256], xauth[4096];
	if (bench_read_env(argv[2], display, xauth, sizeof(display)) < 0) {
		fprintf(stderr, "no running desktop's env file in %s\n", argv[2]);
		return 1;
	}
	struct error err = {{0}};
	Display *dpy;
	if (xconn_open(display, xauth, &dpy, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	double *set = calloc((size_t)rounds, sizeof(double)),
	       *get = calloc((size_t)rounds, sizeof(double)),
	       *win = calloc((size_t)rounds, sizeof(double)),
	       *lst = calloc((size_t)rounds, sizeof(double));
	if (!set || !get || !win || !lst) {
		return 1;
	}
	for (int i = 0; i < rounds; i++) {
		char text[64];
		snprintf(text, sizeof(text), "bench round %d: ü 😀", i);
		char *args[] = {bd, (char[]){"clipboard"}, (char[]){"set"}, text, NULL};
		double t0 = bench_now_ms();
		if (bench_time_quiet(bd, args, 0) < 0) {
			fprintf(stderr, "botdesk clipboard set failed\n");
			return 1;
		}
		double t1 = bench_now_ms();
		char *got = NULL;
		size_t len = 0;
		bool owned;
		if (clip_get(dpy, false, &got, &len, &owned, &err) < 0 || len != strlen(text) ||
		    memcmp(got, text, len) != 0) {
			fprintf(stderr, "the paste did not get the text back: %s\n", err.msg);
			return 1;
		}
		free(got);
		double t2 = bench_now_ms();
		set[i] = t2 - t0;
		get[i] = t2 - t1;
	}
	bench_report("clipboard set -> paste available (whole botdesk process + paste)", set,
		     (size_t)rounds);
	bench_report("  the paste alone (one conversion, another client)", get, (size_t)rounds);
	if (map_windows(dpy) < 0) {
		fprintf(stderr, "the window manager did not list %d new windows\n", WINDOWS);
		return 1;
	}
	for (int i = 0; i < rounds; i++) {
		char *args[] = {bd, (char[]){"windows"}, (char[]){"--json"}, NULL};
		win[i] = bench_time_quiet(bd, args, 0);
		if (win[i] < 0) {
			fprintf(stderr, "botdesk windows --json failed\n");
			return 1;
		}
		char *json = NULL, *text = NULL;
		double t0 = bench_now_ms();
		if (win_list_json(dpy, 1, 1, &json, &text, &err) < 0) {
			return 1;
		}
		lst[i] = bench_now_ms() - t0;
		free(json);
		free(text);
	}
	char what[96];
	snprintf(what, sizeof(what), "windows --json, %lu windows (whole botdesk process)",
		 listed(dpy));
	bench_report(what, win, (size_t)rounds);
	bench_report("  the listing alone, in-process (the MCP tool)", lst, (size_t)rounds);
	XCloseDisplay(dpy);
	return 0;
}
