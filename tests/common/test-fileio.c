#include "unit.h"

#include <errno.h>
#include <sys/stat.h>

#include "fileio.h"

static void publishes_by_path_with_the_mode(void **state)
{
	char *dir = unit_mkdtemp();
	char path[4200], link[4200];
	snprintf(path, sizeof(path), "%s/cookie", dir);
	assert_int_equal(write_file_atomic(path, "one", 3, 0600), 0);
	assert_int_equal(write_file_atomic(path, "two!", 4, 0640), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(st.st_size, 4);

	/* A symlink at the name is replaced, never written through. */
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(write_file_atomic(link, "x", 1, 0600), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 4);

	snprintf(path, sizeof(path), "%s/", dir);
	assert_int_equal(write_file_atomic(path, "x", 1, 0600), -EISDIR);
	snprintf(path, sizeof(path), "%s/absent/file", dir);
	assert_int_equal(write_file_atomic(path, "x", 1, 0600), -ENOENT);
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(publishes_by_path_with_the_mode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
