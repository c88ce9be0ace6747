/* What the session's cmocka tests include: unit.h and its own file helpers. */
#pragma once

#include "../unit.h"

#include <fcntl.h>
#include <sys/stat.h>

/* "<dir>/<name>" in a static buffer (one at a time). */
static inline const char *st_path(const char *dir, const char *name)
{
	static char buf[8192];
	snprintf(buf, sizeof(buf), "%s/%s", dir, name);
	return buf;
}

/* The whole file, malloc'ed and NUL-terminated; NULL when absent. */
static inline char *st_read(const char *dir, const char *name)
{
	FILE *f = fopen(st_path(dir, name), "re");
	if (!f) {
		return NULL;
	}
	char *buf = malloc(1 << 20);
	assert_non_null(buf);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static inline void st_write(const char *dir, const char *name, const char *text, mode_t mode)
{
	unit_write(dir, name, text);
	assert_int_equal(chmod(st_path(dir, name), mode), 0);
}
