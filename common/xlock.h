/* X's lock files, "<dir>/.X<n>-lock": the server's pid as "%10d\n". One parser for the runner
 * (is the number taken? whose server is it?) and the session (is it still ours to remove?). */
#pragma once

#include <sys/types.h>

/* Leading spaces, digits, at most one trailing newline and nothing else; a plausible pid. */
int xlock_parse(const char *text, pid_t *ret);
/* Reads and parses "<dir>/.X<n>-lock" (never through a symlink). */
int xlock_read(const char *dir, unsigned n, pid_t *ret);
