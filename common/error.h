/* A message for the user, filled where the cause is known and printed once by main(). */
#pragma once

#include "util.h"

/* What a failure means beyond "it failed", for the exit status (common/exitstatus.h). Said where
 * the cause is known, never guessed back from an errno afterwards: one errno has many causes
 * (EACCES is a human's lease and an --output nobody may write alike). */
enum error_kind {
	/* Exit 1. */
	ERROR_FAILED = 0,
	/* Exit 2: the caller's input is wrong (a point off the screen, an unknown key). */
	ERROR_BAD_INPUT,
	/* Exit 4: a human holds the desktop, or its lease cannot be read. */
	ERROR_HUMAN_HOLDS,
};

struct error {
	char msg[1536];
	enum error_kind kind;
};

/* Formats the message into err (if err is non-NULL) with its kind, and returns r, so a failing
 * path reads "return error_set(err, -ENOENT, ...)". Unless replace is set, the first message
 * set wins: the root cause is kept when a caller adds context on top; the kind goes with the
 * message it comes with. */
int error_put(struct error *err, enum error_kind kind, bool replace, int r, const char *fmt, ...)
	_printf_(5, 6);
/* A failure ("failed"), the first message kept. */
#define error_set(err, r, ...) error_put((err), ERROR_FAILED, false, (r), __VA_ARGS__)
/* error_set that also says what the failure means. */
#define error_set_kind(err, kind, r, ...) error_put((err), (kind), false, (r), __VA_ARGS__)
/* Always replaces any message already there (and its kind, by "failed"). */
#define error_replace(err, r, ...) error_put((err), ERROR_FAILED, true, (r), __VA_ARGS__)
bool error_isset(const struct error *err);
