/* A profile's X cookie: the MIT-MAGIC-COOKIE-1 for one local display, read from the profile's own
 * Xauthority file with libXau. Shared by the Xlib connection (xconn.h) and the pointer actions'
 * own XCB connection (act/xptr.h), so both authenticate alike. */
#pragma once

#include <stddef.h>

#include "error.h"

#define XCOOKIE_NAME "MIT-MAGIC-COOKIE-1"
#define XCOOKIE_MAX 64

/* The display number of ":N" or ":N.S"; -EINVAL for anything else (a host, a name). */
int xcookie_display_number(const char *display, unsigned *ret);

/* The cookie for display from the xauthority file (never through a symlink, never through the
 * process environment), into ret (XCOOKIE_MAX bytes); its length in *ret_len. The caller wipes
 * it once it is sent. */
int xcookie_read(const char *display, const char *xauthority, char *ret, int *ret_len,
		 struct error *err);
