/* A PNG of a running desktop's screen, fitted inside a box. */
#pragma once

#include <stddef.h>

#include "error.h"

/* Connects to display (e.g. ":21") authenticating with the cookie in the xauthority file (never
 * through the process environment, so concurrent grabs of two profiles each use their own),
 * grabs the root window, scales it to fit inside max_w x max_h keeping the aspect ratio, and
 * encodes a PNG into a malloc'ed buffer. */
int thumbnail_png(const char *display, const char *xauthority, unsigned max_w, unsigned max_h,
		  unsigned char **ret_png, size_t *ret_len, struct error *err);
