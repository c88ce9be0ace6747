#include "error.h"

#include <stdarg.h>
#include <stdio.h>

__attribute__((format(printf, 2, 0))) static void vset(struct error *err, const char *fmt,
						       va_list ap)
{
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
}

int error_set(struct error *err, int r, const char *fmt, ...)
{
	if (err && err->msg[0] == '\0') {
		va_list ap;
		va_start(ap, fmt);
		vset(err, fmt, ap);
		va_end(ap);
	}
	return r;
}

int error_set_kind(struct error *err, enum error_kind kind, int r, const char *fmt, ...)
{
	if (err && err->msg[0] == '\0') {
		va_list ap;
		va_start(ap, fmt);
		vset(err, fmt, ap);
		va_end(ap);
		err->kind = kind;
	}
	return r;
}

int error_replace(struct error *err, int r, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vset(err, fmt, ap);
		va_end(ap);
		err->kind = ERROR_FAILED;
	}
	return r;
}

bool error_isset(const struct error *err)
{
	return err && err->msg[0] != '\0';
}
