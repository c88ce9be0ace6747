/* One log family. Only main() decides what reaches the user; library code returns errors. */
#pragma once

#include <stdarg.h>

#include "util.h"

/* The name every message starts with ("botdesk", "botdesk-session", ...). */
void log_set_program(const char *name);

enum log_level {
	/* "<program>: <message>\n" on stderr. */
	LOG_ERROR,
	/* The same: what a long-running program says it did (its log). */
	LOG_INFO,
	/* "<program>: warning: <message>\n" on stderr. */
	LOG_WARN,
	/* "<program>: debug: <message>\n", only when BOTDESK_DEBUG was set at start-up. */
	LOG_DEBUG,
};

/* One message, written whole in one write so concurrent writers do not interleave mid-line. */
void log_at(enum log_level level, const char *fmt, ...) _printf_(2, 3);
#define log_error(...) log_at(LOG_ERROR, __VA_ARGS__)
#define log_info(...) log_at(LOG_INFO, __VA_ARGS__)
#define log_warn(...) log_at(LOG_WARN, __VA_ARGS__)
#define log_debug(...) log_at(LOG_DEBUG, __VA_ARGS__)
void log_set_debug(bool on);
