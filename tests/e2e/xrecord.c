/* An X client on the desktop that records what arrives there, for the gate's tests: a window
 * covering the screen that takes the focus, and one line on stdout per event:
 *     ready W H          mapped and focused; the screen is W x H
 *     motion X Y         the pointer moved to X,Y (root coordinates)
 *     key KEYSYM         a key was pressed (hex keysym)
 *     root W H           the screen changed size
 * It runs until killed. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy) {
		fprintf(stderr, "xrecord: cannot open the display\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	int screen = DefaultScreen(dpy);
	Window root = RootWindow(dpy, screen);
	unsigned w = (unsigned)DisplayWidth(dpy, screen), h = (unsigned)DisplayHeight(dpy, screen);
	XSetWindowAttributes wa = {.override_redirect = True,
				   .event_mask = KeyPressMask | PointerMotionMask |
						 StructureNotifyMask | ButtonPressMask};
	Window win = XCreateWindow(dpy, root, 0, 0, 4096, 4096, 0, CopyFromParent, InputOutput,
				   CopyFromParent, CWOverrideRedirect | CWEventMask, &wa);
	XSelectInput(dpy, root, StructureNotifyMask);
	XMapRaised(dpy, win);
	for (;;) {
		XEvent ev;
		XNextEvent(dpy, &ev);
		if (ev.type == MapNotify && ev.xmap.window == win) {
			XSetInputFocus(dpy, win, RevertToParent, CurrentTime);
			XSync(dpy, False);
			printf("ready %u %u\n", w, h);
		} else if (ev.type == MotionNotify) {
			printf("motion %d %d\n", ev.xmotion.x_root, ev.xmotion.y_root);
		} else if (ev.type == KeyPress) {
			printf("key %lx\n", XLookupKeysym(&ev.xkey, 0));
		} else if (ev.type == ConfigureNotify && ev.xconfigure.window == root) {
			printf("root %d %d\n", ev.xconfigure.width, ev.xconfigure.height);
		}
	}
}
