/* Building a path into a fixed buffer, checked: a path cut short by the buffer can name another,
 * existing file (".../X1" of ".../X10"), so a path that does not fit is an error and the buffer
 * is left empty, never a prefix. */
#pragma once

#include <stddef.h>

#include "util.h"

/* buf = a "/" b. 0, or -ENAMETOOLONG when it does not fit in size bytes (buf is then ""). */
int path_join(char *buf, size_t size, const char *a, const char *b);

/* buf = the printf-style fmt, for a path that holds numbers ("%s/.X%u-lock"). 0, or
 * -ENAMETOOLONG as path_join. */
int path_format(char *buf, size_t size, const char *fmt, ...) _printf_(3, 4);
