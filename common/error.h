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

/* Formats the message into err (if err is non-NULL) and returns r, so a failing path reads
 * "return error_set(err, -ENOENT, ...)". The first message set wins: the root cause is kept when
 * a caller adds context on top. */
int error_set(struct error *err, int r, const char *fmt, ...) _printf_(3, 4);
/* error_set that also says what the failure means; the kind goes with the message it comes
 * with, so the first one set wins too. */
int error_set_kind(struct error *err, enum error_kind kind, int r, const char *fmt, ...)
	_printf_(4, 5);
/* Like error_set but always replaces any message already there (and its kind, by "failed"). */
int error_replace(struct error *err, int r, const char *fmt, ...) _printf_(3, 4);
bool error_isset(const struct error *err);
