/* repaint: a window over the whole screen that repaints all of it, alternating two pictures (a
 * gradient and its mirror, so no encoder can send a frame as one colour), as fast as the X
 * server takes them (each put waited for): the full-screen repaint whose frames web-fps.sh
 * counts in a browser and in vncviewer. Runs until killed. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy) {
		fprintf(stderr, "repaint: cannot open the display\n");
		return 1;
	}
	int screen = DefaultScreen(dpy);
	Window root = RootWindow(dpy, screen);
	unsigned w = (unsigned)DisplayWidth(dpy, screen), h = (unsigned)DisplayHeight(dpy, screen);
	XSetWindowAttributes wa = {.override_redirect = True};
	Window win = XCreateWindow(dpy, root, 0, 0, w, h, 0, CopyFromParent, InputOutput,
				   CopyFromParent, CWOverrideRedirect, &wa);
	XMapRaised(dpy, win);
	GC gc = XCreateGC(dpy, win, 0, NULL);
	XImage *img[2];
	for (int k = 0; k < 2; k++) {
		char *px = malloc((size_t)w * h * 4);
		if (!px) {
			return 1;
		}
		img[k] = XCreateImage(dpy, DefaultVisual(dpy, screen), 24, ZPixmap, 0, px, w, h, 32,
				      0);
		for (unsigned y = 0; y < h; y++) {
			for (unsigned x = 0; x < w; x++) {
				unsigned xx = k ? w - 1 - x : x;
				XPutPixel(img[k], (int)x, (int)y,
					  ((xx * 255 / w) << 16) | ((y * 255 / h) << 8) |
						  ((xx + y) & 255));
			}
		}
	}
	for (unsigned long i = 0;; i++) {
		XPutImage(dpy, win, gc, img[i & 1], 0, 0, 0, 0, w, h);
		XSync(dpy, False);
	}
}
