/* Putting the desktop back at its configured size (RandR 1.2, through libXrandr) when a human
 * hands it back: their viewer may have resized it, and the agent's coordinates are in the
 * configured geometry. */
#pragma once

#include <X11/Xlib.h>

/* Connects to $DISPLAY with $XAUTHORITY (the gate's environment is the desktop's). */
int geometry_open(Display **ret);
void geometry_close(Display *dpy);

/* Makes the screen width x height with one output showing all of it, adding the mode when the
 * server has none of that size. 0 when it is (or already was) that size; 1 when it changed;
 * -errno when the server refused. */
int geometry_restore(Display *dpy, unsigned width, unsigned height);
