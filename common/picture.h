/* A picture of the screen as the programs hand it over: the bounds of a picture's size (--max,
 * the MCP max, botdesk-thumbnail's argument) and where --output puts it (thumbnail and
 * screenshot alike). */
#pragma once

#include <stddef.h>

#include "error.h"

#define PICTURE_SIDE_MIN 16
#define PICTURE_SIDE_MAX 8192
/* For messages: "--max takes " PICTURE_MAX_RULE ", not '...'". */
#define PICTURE_MAX_RULE "WIDTHxHEIGHT (16 to 8192 each)"

/* WIDTHxHEIGHT within the bounds; -EINVAL otherwise. */
int picture_parse_max(const char *s, unsigned *ret_w, unsigned *ret_h);

/* --output PATH: "-" is standard output, refused (-ENOTTY) when that is a terminal, where binary
 * would garble it and show nothing; anything else (./- too) a file written by a temporary beside
 * it and a rename, so a reader never sees half, its mode from the umask (a picture can show
 * anything on the desktop, like any file the user makes). The message names the path. */
int picture_write_output(const char *path, const void *data, size_t len, struct error *err);
