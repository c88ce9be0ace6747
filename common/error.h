/* A message for the user, filled where the cause is known and printed once by main(). */
#pragma once

#include "util.h"

struct error {
	char msg[1536];
};

/* Formats the message into err (if err is non-NULL) and returns r, so a failing path reads
 * "return error_set(err, -ENOENT, ...)". The first message set wins: the root cause is kept when
 * a caller adds context on top. */
int error_set(struct error *err, int r, const char *fmt, ...) _printf_(3, 4);
/* Like error_set but always replaces any message already there. */
int error_replace(struct error *err, int r, const char *fmt, ...) _printf_(3, 4);
bool error_isset(const struct error *err);
