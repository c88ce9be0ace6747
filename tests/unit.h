/* What every cmocka unit test includes. */
#pragma once

// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A scratch directory removed by the caller with rm_rf(). */
static inline char *unit_mkdtemp(void)
{
	char *d = strdup("/tmp/botdesk-unit.XXXXXX");
	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

static inline void unit_write(const char *dir, const char *name, const char *text)
{
	char path[8192];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static inline void unit_rm_rf(char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

/* A test's fixture whose first member is its scratch directory (char *dir): unit_fixture returns
 * one of size bytes, zeroed but for the directory, made; unit_fixture_free, a cmocka teardown,
 * removes the directory and frees the fixture. */
static inline void *unit_fixture(size_t size)
{
	char **f = calloc(1, size);
	assert_non_null(f);
	*f = unit_mkdtemp();
	return f;
}

static inline int unit_fixture_free(void **state)
{
	char **f = *state;
	unit_rm_rf(*f);
	free(f);
	return 0;
}

/* Waits until child has ended and leaves it a zombie: waitid with WNOWAIT does not reap it. */
static inline void unit_wait_zombie(pid_t child)
{
	siginfo_t si;
	assert_int_equal(waitid(P_PID, (id_t)child, &si, WEXITED | WNOWAIT), 0);
}

/* A child that ends at once, left a zombie; the caller reaps it (waitpid). */
static inline pid_t unit_zombie(void)
{
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		_exit(0);
	}
	unit_wait_zombie(child);
	return child;
}
