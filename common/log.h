/* One log family. Only main() decides what reaches the user; library code returns errors. */
#pragma once

#include <stdarg.h>

#include "util.h"

/* The name every message starts with ("botdesk", "botdesk-session", ...). */
void log_set_program(const char *name);

/* "<program>: <message>\n" on stderr. */
void log_error(const char *fmt, ...) _printf_(1, 2);
/* "<program>: <message>\n" on stderr: what a long-running program says it did (its log). */
void log_info(const char *fmt, ...) _printf_(1, 2);
/* "<program>: warning: <message>\n" on stderr. */
void log_warn(const char *fmt, ...) _printf_(1, 2);
/* "<program>: <message>\n" on stderr, only when BOTDESK_DEBUG was set at start-up. */
void log_debug(const char *fmt, ...) _printf_(1, 2);
void log_set_debug(bool on);
