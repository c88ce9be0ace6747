#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "activity.h"
#include "profilename.h"

static int open_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

/* No stamp reads as none; a stamp makes the file, and a later one moves its time forward. */
static void stamps_and_reads(void **state)
{
	char *dir = unit_mkdtemp();
	int fd = open_dir(dir);
	int64_t ms;
	assert_int_equal(activity_read_ms(fd, &ms), -ENOENT);
	activity_stamp(fd);
	assert_int_equal(activity_read_ms(fd, &ms), 0);
	assert_true(llabs(ms / 1000 - (int64_t)time(NULL)) <= 5);
	struct timespec old[2] = {{.tv_sec = 1000}, {.tv_sec = 1000}};
	assert_int_equal(utimensat(fd, ACTIVITY_FILE, old, 0), 0);
	assert_int_equal(activity_read_ms(fd, &ms), 0);
	assert_int_equal(ms, 1000 * 1000);
	activity_stamp(fd);
	assert_int_equal(activity_read_ms(fd, &ms), 0);
	assert_true(ms > 1000 * 1000);
	struct stat st;
	assert_int_equal(fstatat(fd, ACTIVITY_FILE, &st, 0), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	close(fd);
	unit_rm_rf(dir);
}

/* A symbolic link planted as the stamp is not followed: its target keeps its time. */
static void follows_no_link(void **state)
{
	char *dir = unit_mkdtemp();
	int fd = open_dir(dir);
	assert_int_equal(mknodat(fd, "target", S_IFREG | 0600, 0), 0);
	struct timespec old[2] = {{.tv_sec = 1000}, {.tv_sec = 1000}};
	assert_int_equal(utimensat(fd, "target", old, 0), 0);
	assert_int_equal(symlinkat("target", fd, ACTIVITY_FILE), 0);
	activity_stamp(fd);
	struct stat st;
	assert_int_equal(fstatat(fd, "target", &st, 0), 0);
	assert_int_equal(st.st_mtime, 1000);
	close(fd);
	unit_rm_rf(dir);
}

static void profile_names(void **state)
{
	static const char *const good[] = {"default", "a", "Work-2.b_c", "x."};
	static const char *const bad[] = {"", ".hidden", "..", "a/b", "../x", "a b", "é", "a\nb"};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_true(profile_name_valid(good[i]));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(profile_name_valid(bad[i]));
	}
	char name[PROFILE_NAME_MAX + 2];
	memset(name, 'a', sizeof(name));
	name[PROFILE_NAME_MAX] = '\0';
	assert_true(profile_name_valid(name));
	name[PROFILE_NAME_MAX] = 'a';
	name[PROFILE_NAME_MAX + 1] = '\0';
	assert_false(profile_name_valid(name));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stamps_and_reads),
		cmocka_unit_test(follows_no_link),
		cmocka_unit_test(profile_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
