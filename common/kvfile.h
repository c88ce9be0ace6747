/* The "key = value" line files botdesk reads (botdesk.conf, the host's policy.conf): one reader
 * for the line splitting, trimming, comments and the errors that name the file and line, so both
 * files take the same syntax and say the same thing about it. */
#pragma once

#include <stdio.h>

#include "error.h"

/* Takes one line's key and value. Returns 0 when taken, -ENOENT for a key it does not know,
 * -EINVAL with *ret_want set to what the value should have been, or another -errno that ends the
 * read as it is. */
typedef int kvfile_set_fn(void *ctx, const char *key, const char *value, const char **ret_want);

/* Reads f line by line to its end, handing every key and value to set. Blank lines and lines
 * whose first non-blank is '#' are skipped; blanks around the key and the value are not part of
 * them. advice ends each message about a line of path ("" for none). */
int kvfile_read(FILE *f, const char *path, const char *advice, kvfile_set_fn *set, void *ctx,
		struct error *err);
/* The same over text (up to its first NUL). */
int kvfile_parse(const char *text, const char *path, const char *advice, kvfile_set_fn *set,
		 void *ctx, struct error *err);
