#include "pathjoin.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

static int checked(char *buf, size_t size, int n)
{
	if (n < 0 || (size_t)n >= size) {
		if (size > 0) {
			buf[0] = '\0';
		}
		return -ENAMETOOLONG;
	}
	return 0;
}

int path_join(char *buf, size_t size, const char *a, const char *b)
{
	return path_format(buf, size, "%s/%s", a, b);
}

int path_format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return checked(buf, size, n);
}
