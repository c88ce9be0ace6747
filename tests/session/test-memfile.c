/* The desktop's memory figure for `botdesk list` (session/memfile.h): rewritten only when the
 * figure changes, its mtime renewed otherwise, a PSS made again when the resident set moved. */
#include "session-test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "memfile.h"

static void age(const char *dir, time_t secs)
{
	struct timespec ts[2] = {{.tv_sec = time(NULL) - secs}, {.tv_sec = time(NULL) - secs}};
	assert_int_equal(utimensat(AT_FDCWD, st_path(dir, MEMFILE_NAME), ts, 0), 0);
}

/* The figure, read into a buffer of ours: no allocation (meson's MALLOC_PERTURB_ would touch a
 * fresh megabyte, which is memory that moved). */
static unsigned long long figure(const char *dir)
{
	char buf[64] = "";
	FILE *f = fopen(st_path(dir, MEMFILE_NAME), "re");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_true(strncmp(buf, "pss_kb=", 7) == 0);
	return strtoull(buf + 7, NULL, 10);
}

static void test_rewrites_only_on_change(void **state)
{
	(void)state;
	char *dir = unit_mkdtemp();
	char env[8192];
	snprintf(env, sizeof(env), "%s", st_path(dir, "env"));
	struct memfile m = MEMFILE_INIT;
	assert_int_equal(memfile_renew(&m, env), 0);
	unsigned long long first = figure(dir);
	struct stat a, b;
	assert_int_equal(stat(st_path(dir, MEMFILE_NAME), &a), 0);

	/* Nothing moved: the same file (no rename), a renewed mtime. */
	age(dir, 100);
	assert_int_equal(memfile_renew(&m, env), 0);
	assert_int_equal(stat(st_path(dir, MEMFILE_NAME), &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	assert_true(b.st_mtime >= time(NULL) - 5);

	/* 32 MiB more of our own: the resident set moved, a new PSS, a new figure, a new file. */
	size_t size = 32u << 20;
	char *p = malloc(size);
	assert_non_null(p);
	memset(p, 1, size);
	assert_int_equal(memfile_renew(&m, env), 0);
	assert_int_equal(stat(st_path(dir, MEMFILE_NAME), &b), 0);
	assert_int_not_equal(a.st_ino, b.st_ino);
	assert_true(figure(dir) >= first + 30 * 1024);
	assert_int_equal(((volatile char *)p)[size - 1], 1);
	free(p);
	memfile_remove(env);
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rewrites_only_on_change),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
