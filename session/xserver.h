/* TigerVNC's X server: which binary, and the exact command line the session gives it. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "strv.h"

/* The RFB clipboard cap: TigerVNC's default, and what a viewer bridge may buffer at most. */
#define XSERVER_MAX_CUT_TEXT 262144

/* Prefers Xtigervnc, else Xvnc, on search_path, and refuses a server that is not TigerVNC's
 * (another vendor's Xvnc can take the name but has no -rfbunixpath), naming the packages that
 * provide the right one. ret is malloc'ed. */
int xserver_find(const char *search_path, char **ret, struct error *err);

/* Whether the help text of an X server names -rfbunixpath. */
bool xserver_help_has_unix_path(const char *text, size_t len);

struct xserver_args {
	const char *server; /* the binary, argv[0] */
	const char *profile;
	unsigned display;
	int displayfd;           /* where the server writes its number once it accepts clients */
	const char *xauth_path;  /* -auth: clients must present its cookie */
	const char *socket_path; /* the RFB unix socket, the only way in */
	unsigned width, height;
	bool glx; /* GLX loads Mesa and LLVM into the server: some 30 MiB, 11 of them private */
	const char *xkb_dir; /* -xkbdir: XKB data without the zap (xkbsafe.h), or NULL */
};

/* The server's argv: RFB on the unix socket only (mode 0600, no TCP at all), no VNC
 * authentication (the socket's mode is the gate), the clipboard flowing only from viewers into
 * the desktop. */
int xserver_argv(const struct xserver_args *a, struct strv *ret);
