/* The X cookie: 16 random bytes of MIT-MAGIC-COOKIE-1 in the profile's Xauthority, written with
 * libXau. It never appears on a command line (argv is world-readable through /proc). */
#pragma once

#include "error.h"

#define XAUTH_COOKIE_NAME "MIT-MAGIC-COOKIE-1"
#define XAUTH_COOKIE_LEN 16

struct xauth_cookie {
	unsigned char data[XAUTH_COOKIE_LEN];
};

int xauth_cookie_new(struct xauth_cookie *ret);

/* Publishes the cookie for :display at path (mode 0600, write-then-rename, never through a
 * symlink), for the local host name: what libX11 looks up for a unix-socket display. */
int xauth_write(const char *path, unsigned display, const struct xauth_cookie *cookie,
		struct error *err);
