/* The env file a launcher publishes: KEY=VALUE lines, at least DISPLAY. */
#pragma once

#include <stddef.h>

#define ENVFILE_MAX_VARS 32

struct envfile {
	size_t n;
	char *keys[ENVFILE_MAX_VARS];
	char *values[ENVFILE_MAX_VARS];
};

/* Parses text (modified in place: keys and values point into it). Blank lines and '#' comments
 * are skipped, a UTF-8 BOM is tolerated, white space around lines is dropped. A key must be a
 * shell-style name; a malformed line is -EINVAL. */
int envfile_parse(char *text, struct envfile *ret);
/* Reads name under dirfd (never through a symlink) into buf and parses it. */
int envfile_read(int dirfd, const char *name, char *buf, size_t size, struct envfile *ret);
const char *envfile_get(const struct envfile *e, const char *key);
