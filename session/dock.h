/* The dock: launchers for the programs present on the host, and nothing else (a launcher for a
 * missing program is a broken button). */
#pragma once

#include <stddef.h>

#include "strv.h"

#define DOCK_MAX 4

struct dock_item {
	const char *id;   /* the launcher's file name stem, e.g. "terminal" */
	const char *name; /* what the button says */
	const char *icon;
	struct strv argv; /* argv[0] resolved to an absolute path */
};

struct dock {
	struct dock_item items[DOCK_MAX];
	size_t n;
};

/* A terminal, a file manager and an editor when one of each is on search_path, and the browser
 * command (words separated by blanks; NULL for none) when its program is. */
int dock_resolve(const char *search_path, const char *browser, struct dock *ret);
void dock_free(struct dock *d);
