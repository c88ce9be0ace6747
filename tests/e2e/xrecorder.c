/* The test suite's X client for the action tests. Run on the desktop (botdesk exec):
 *
 *   xrecorder          a window over the whole screen, with the keyboard focus, that prints one
 *                      line per event it gets: "ready" once it is mapped and focused, then
 *                      "press B X Y" / "release B X Y" / "motion X Y" (root coordinates),
 *                      "key KEYSYM STATE" and, for a key that types, "char U+XXXX"
 *                      (translated with the client's own, lazily refreshed XKB map, as any
 *                      toolkit does); a press draws a square, so the screen changes.
 *   xrecorder --keymap prints the whole keyboard map (every keycode's groups, types, keysyms and
 *                      modifiers), for comparing before and after typing.
 */
#include <X11/XKBlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <stdio.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>

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

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy) {
		fprintf(stderr, "xrecorder: cannot open the display\n");
		return 1;
	}
	if (argc > 1 && strcmp(argv[1], "--keymap") == 0) {
		int r = dump_keymap(dpy);
		XCloseDisplay(dpy);
		return r;
	}
	int screen = DefaultScreen(dpy);
	XSetWindowAttributes wa = {
		.override_redirect = True,
		.background_pixel = BlackPixel(dpy, screen),
		.event_mask = ButtonPressMask | ButtonReleaseMask | PointerMotionMask |
			      KeyPressMask | KeyReleaseMask | StructureNotifyMask | ExposureMask,
	};
	Window w = XCreateWindow(
		dpy, RootWindow(dpy, screen), 0, 0, (unsigned)DisplayWidth(dpy, screen),
		(unsigned)DisplayHeight(dpy, screen), 0, CopyFromParent, InputOutput,
		CopyFromParent, CWOverrideRedirect | CWBackPixel | CWEventMask, &wa);
	GC gc = XCreateGC(dpy, w, 0, NULL);
	XSetForeground(dpy, gc, WhitePixel(dpy, screen));
	XMapRaised(dpy, w);
	for (;;) {
		XEvent ev;
		XNextEvent(dpy, &ev);
		switch (ev.type) {
		case MapNotify:
			XSetInputFocus(dpy, w, RevertToParent, CurrentTime);
			XSync(dpy, False);
			printf("ready\n");
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
		case KeyPress: {
			char buf[64];
			KeySym ks = NoSymbol;
			XLookupString(&ev.xkey, buf, sizeof(buf), &ks, NULL);
			printf("key %#lx %#x\n", ks, ev.xkey.state);
			uint32_t c = ks == XK_Return ? '\n' : xkb_keysym_to_utf32((xkb_keysym_t)ks);
			if (c >= 0x20 || c == '\n' || c == '\t') {
				printf("char U+%04X\n", c);
			}
			break;
		}
		case MappingNotify:
			XRefreshKeyboardMapping(&ev.xmapping);
			break;
		default:
			break;
		}
	}
}
