#include "log.h"

#include <stdio.h>

static const char *program = "botdesk";
static bool debug;

void log_set_program(const char *name)
{
	program = name;
}

void log_set_debug(bool on)
{
	debug = on;
}

__attribute__((format(printf, 2, 0))) static void vlog(const char *prefix, const char *fmt,
						       va_list ap)
{
	/* One buffered write per message, so concurrent writers do not interleave mid-line. */
	char buf[2048];
	int n = snprintf(buf, sizeof(buf), "%s: %s", program, prefix);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		return;
	}
	int m = vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	if (m < 0) {
		return;
	}
	size_t len = (size_t)n + (size_t)m;
	if (len >= sizeof(buf) - 1) {
		len = sizeof(buf) - 2;
	}
	buf[len++] = '\n';
	fwrite(buf, 1, len, stderr);
	fflush(stderr);
}

void log_at(enum log_level level, const char *fmt, ...)
{
	static const char *const prefix[] = {
		[LOG_ERROR] = "",
		[LOG_INFO] = "",
		[LOG_WARN] = "warning: ",
		[LOG_DEBUG] = "debug: ",
	};
	if ((level == LOG_DEBUG && !debug) || (unsigned)level >= ARRAY_SIZE(prefix)) {
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vlog(prefix[level], fmt, ap);
	va_end(ap);
}
