#include "error.h"

#include <stdarg.h>
#include <stdio.h>

int error_put(struct error *err, enum error_kind kind, bool replace, int r, const char *fmt, ...)
{
	if (!err || (!replace && err->msg[0] != '\0')) {
		return r;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->kind = kind;
	return r;
}

bool error_isset(const struct error *err)
{
	return err && err->msg[0] != '\0';
}
