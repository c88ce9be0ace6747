/* What the session's cmocka tests include: cmocka and scratch-directory helpers. */
#pragma once

// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline char *st_mkdtemp(void)
{
	char *d = strdup("/tmp/botdesk-session-test.XXXXXX");
	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

static inline void st_rm_rf(char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

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
	const char *p = st_path(dir, name);
	FILE *f = fopen(p, "we");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(p, mode), 0);
}
