/* The test suite's X client for the tests of what input reaches a desktop (the agent's actions,
 * MCP, the gate's doors, the browser viewer). Run on the desktop (botdesk exec):
 *
 *   xrecorder          a window over the whole screen that holds the pointer and the keyboard
 *                      and prints one line per event it gets: "ready W H" once it holds both
 *                      (the screen is W x H), then "press B X Y" / "release B X Y" /
 *                      "motion X Y" (root coordinates), "key KEYSYM STATE" and, for a key that
 *                      types, "char U+XXXX" (translated with the client's own, lazily refreshed
 *                      XKB map, as any toolkit does), and "root W H" when the screen changes
 *                      size. A press draws a square, so the screen changes.
 *   xrecorder --keymap prints the whole keyboard map (every keycode's groups, types, keysyms and
 *                      modifiers), for comparing before and after typing.
 *   xrecorder --diag   prints what decides where input goes, for a test that lost an event: the
 *                      root's children from the bottom of the stack to the top, the pointer and
 *                      the window under it, and the focus.
 *
 * It exits 1, saying why on stderr, if it loses its grab: a test then fails naming the cause
 * instead of waiting for events that went elsewhere.
 */
#include <X11/XKBlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <xkbcommon/xkbcommon.h>

/* Larger than any screen the tests set (the gate's tests resize it), so the window still
 * covers the screen after a resize. */
#define COVER 4096

#define POINTER_EVENTS (ButtonPressMask | ButtonReleaseMask | PointerMotionMask)

static int dump_keymap(Display *dpy)
{
	XkbDescPtr x = XkbGetMap(dpy, XkbAllClientInfoMask, XkbUseCoreKbd);
	if (!x) {
		return 1;
	}
	for (int k = x->min_key_code; k <= x->max_key_code; k++) {
		int ng = XkbKeyNumGroups(x, k);
		printf("%d groups=%d info=%#x mod=%#x", k, ng, XkbKeyGroupInfo(x, k),
		       x->map->modmap[k]);
		for (int g = 0; g < ng; g++) {
			XkbKeyTypePtr t = XkbKeyKeyType(x, k, g);
			printf(" | type=%d", XkbKeyKeyTypeIndex(x, k, g));
			for (int l = 0; l < t->num_levels; l++) {
				printf(" %#lx", XkbKeySymEntry(x, k, l, g));
			}
		}
		printf("\n");
	}
	XkbStateRec st;
	XkbGetState(dpy, XkbUseCoreKbd, &st);
	printf("group=%d locked=%#x\n", st.group, st.locked_mods);
	XkbFreeKeyboard(x, 0, True);
	return 0;
}

static int diag(Display *dpy)
{
	Window root = DefaultRootWindow(dpy), parent, *kids = NULL;
	unsigned n = 0;
	if (!XQueryTree(dpy, root, &root, &parent, &kids, &n)) {
		return 1;
	}
	printf("root children, bottom to top:\n");
	for (unsigned i = 0; i < n; i++) {
		XWindowAttributes a;
		if (!XGetWindowAttributes(dpy, kids[i], &a)) {
			continue;
		}
		XClassHint ch = {0};
		XGetClassHint(dpy, kids[i], &ch);
		printf("  %#lx %dx%d%+d%+d %s%s %s\n", kids[i], a.width, a.height, a.x, a.y,
		       a.map_state == IsViewable ? "viewable" : "unmapped",
		       a.override_redirect ? " override-redirect" : "",
		       ch.res_class ? ch.res_class : "-");
		XFree(ch.res_name);
		XFree(ch.res_class);
	}
	XFree(kids);
	Window r, child, focus;
	int rx, ry, wx, wy, revert;
	unsigned mask;
	XQueryPointer(dpy, root, &r, &child, &rx, &ry, &wx, &wy, &mask);
	XGetInputFocus(dpy, &focus, &revert);
	printf("pointer %d,%d over %#lx, buttons %#x; focus %#lx\n", rx, ry, child, mask, focus);
	return 0;
}

/* Whether a mapped window of another client is stacked above w. */
static int covered(Display *dpy, Window root, Window w)
{
	Window r, parent, *kids = NULL;
	unsigned n = 0;
	int above = 0;
	if (!XQueryTree(dpy, root, &r, &parent, &kids, &n)) {
		return 0;
	}
	for (unsigned i = n; i-- > 0 && kids[i] != w;) {
		XWindowAttributes a;
		if (XGetWindowAttributes(dpy, kids[i], &a) && a.map_state != IsUnmapped) {
			above = 1;
			break;
		}
	}
	XFree(kids);
	return above;
}

/* Takes both grabs, retrying while another client holds one (a grab has no event that says it
 * ended), for at most five seconds. */
static int grab(Display *dpy, Window w)
{
	const struct timespec pause = {.tv_nsec = 10 * 1000 * 1000};
	int p = AlreadyGrabbed, k = AlreadyGrabbed;
	for (int i = 0; i < 500; i++) {
		if (p != GrabSuccess) {
			p = XGrabPointer(dpy, w, False, POINTER_EVENTS, GrabModeAsync,
					 GrabModeAsync, None, None, CurrentTime);
		}
		if (k != GrabSuccess) {
			k = XGrabKeyboard(dpy, w, False, GrabModeAsync, GrabModeAsync, CurrentTime);
		}
		if (p == GrabSuccess && k == GrabSuccess) {
			return 0;
		}
		nanosleep(&pause, NULL);
	}
	fprintf(stderr, "xrecorder: cannot grab the %s: another client holds it\n",
		p != GrabSuccess ? "pointer" : "keyboard");
	return -1;
}

static void print_key(XKeyEvent *ev)
{
	char buf[64];
	KeySym ks = NoSymbol;
	XLookupString(ev, buf, sizeof(buf), &ks, NULL);
	printf("key %#lx %#x\n", ks, ev->state);
	uint32_t c = ks == XK_Return ? '\n' : xkb_keysym_to_utf32((xkb_keysym_t)ks);
	if (c >= 0x20 || c == '\n' || c == '\t') {
		printf("char U+%04X\n", c);
	}
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy) {
		fprintf(stderr, "xrecorder: cannot open the display\n");
		return 1;
	}
	if (argc > 1 && strcmp(argv[1], "--diag") == 0) {
		int r = diag(dpy);
		XCloseDisplay(dpy);
		return r;
	}
	if (argc > 1 && strcmp(argv[1], "--keymap") == 0) {
		int r = dump_keymap(dpy);
		XCloseDisplay(dpy);
		return r;
	}
	/* Xlib loads its XKB map, and only then asks to be told of changes to it, at the first
	 * key it translates; a keysym put on a spare keycode in between was never seen, and that
	 * key came out as NoSymbol. A toolkit loads its map at start: so does the recorder. */
	(void)XKeysymToKeycode(dpy, XK_a);
	int screen = DefaultScreen(dpy);
	Window root = RootWindow(dpy, screen);
	XSetWindowAttributes wa = {
		.override_redirect = True,
		.background_pixel = BlackPixel(dpy, screen),
		.event_mask = POINTER_EVENTS | KeyPressMask | KeyReleaseMask | StructureNotifyMask |
			      EnterWindowMask | LeaveWindowMask | FocusChangeMask,
	};
	Window w =
		XCreateWindow(dpy, root, 0, 0, COVER, COVER, 0, CopyFromParent, InputOutput,
			      CopyFromParent, CWOverrideRedirect | CWBackPixel | CWEventMask, &wa);
	GC gc = XCreateGC(dpy, w, 0, NULL);
	XSetForeground(dpy, gc, WhitePixel(dpy, screen));
	/* The desktop's own windows (the panel's bars, mapped a moment after start when the host
	 * is busy) are stacked above a window mapped before them: watched, to stay on top, so
	 * that the squares drawn stay in the screenshots. */
	XSelectInput(dpy, root, StructureNotifyMask | SubstructureNotifyMask);
	XMapRaised(dpy, w);
	int ready = 0;
	for (;;) {
		XEvent ev;
		XNextEvent(dpy, &ev);
		switch (ev.type) {
		case MapNotify:
		case ConfigureNotify: {
			/* Reported twice for w (on w and on the root): the window it is about. */
			Window about = ev.type == MapNotify ? ev.xmap.window : ev.xconfigure.window;
			if (about == root) {
				printf("root %d %d\n", ev.xconfigure.width, ev.xconfigure.height);
			} else if (about == w && ev.type == MapNotify && !ready) {
				/* Held, every device event comes here wherever the pointer is:
				 * a press on a panel's button that was mapped above us would
				 * open its menu, whose grab would take every later event. */
				if (grab(dpy, w) < 0) {
					return 1;
				}
				ready = 1;
				printf("ready %d %d\n", DisplayWidth(dpy, screen),
				       DisplayHeight(dpy, screen));
			} else if (about != w && covered(dpy, root, w)) {
				XRaiseWindow(dpy, w);
				XFlush(dpy);
			}
			break;
		}
		case EnterNotify:
		case LeaveNotify:
			/* Only the end of our own grab makes these now: nothing else can grab. */
			if (ready && ev.xcrossing.mode == NotifyUngrab) {
				fprintf(stderr, "xrecorder: lost the pointer grab\n");
				return 1;
			}
			break;
		case FocusOut:
			if (ready && ev.xfocus.mode == NotifyUngrab) {
				fprintf(stderr, "xrecorder: lost the keyboard grab\n");
				return 1;
			}
			break;
		case ButtonPress:
		case ButtonRelease:
			printf("%s %u %d %d\n", ev.type == ButtonPress ? "press" : "release",
			       ev.xbutton.button, ev.xbutton.x_root, ev.xbutton.y_root);
			if (ev.type == ButtonPress) {
				XFillRectangle(dpy, w, gc, ev.xbutton.x_root - 4,
					       ev.xbutton.y_root - 4, 8, 8);
				XFlush(dpy);
			}
			break;
		case MotionNotify:
			printf("motion %d %d\n", ev.xmotion.x_root, ev.xmotion.y_root);
			break;
		case KeyPress:
			print_key(&ev.xkey);
			break;
		case MappingNotify:
			XRefreshKeyboardMapping(&ev.xmapping);
			break;
		default:
			break;
		}
	}
}
