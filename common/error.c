#include "error.h"

#include <stdarg.h>
#include <stdio.h>

/* The message and its kind go together: a first message set keeps both (replace: always). */
__attribute__((format(printf, 4, 0))) static void vset(struct error *err, enum error_kind kind,
						       bool replace, const char *fmt, va_list ap)
{
	if (!err || (!replace && err->msg[0] != '\0')) {
		return;
	}
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	err->kind = kind;
}

int error_set(struct error *err, int r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vset(err, ERROR_FAILED, false, fmt, ap);
	va_end(ap);
	return r;
}

int error_set_kind(struct error *err, enum error_kind kind, int r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vset(err, kind, false, fmt, ap);
	va_end(ap);
	return r;
}

int error_replace(struct error *err, int r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vset(err, ERROR_FAILED, true, fmt, ap);
	va_end(ap);
	return r;
}

bool error_isset(const struct error *err)
{
	return err && err->msg[0] != '\0';
}
