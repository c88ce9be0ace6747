/* The runner's side of botdesk-thumbnail: run it on a verified running desktop, take its PNG. */
#pragma once

#include <stddef.h>

#include "error.h"
#include "settings.h"

/* Runs s->thumbnailer for display (authenticating with the xauthority file), fitted inside
 * max_w x max_h, and returns the PNG in a malloc'ed buffer. Bounded: a thumbnailer that has not
 * finished within 20 s is killed. */
int thumbnailer_run(const struct settings *s, const char *display, const char *xauthority,
		    unsigned max_w, unsigned max_h, unsigned char **ret_png, size_t *ret_len,
		    struct error *err);
