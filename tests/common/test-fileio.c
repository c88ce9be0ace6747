#include "unit.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A pipe's bytes, whatever their count against the buffer's doublings, and never more than max. */
static void reads_all_up_to_max(void **state)
{
	static const size_t sizes[] = {0, 1, 4095, 4096, 4097, 8192, 20000};
	static char data[20000];
	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] = (char)('a' + i % 26);
	}
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (size_t max = 4096; max <= 16384; max *= 2) {
			int p[2];
			assert_int_equal(pipe(p), 0);
			assert_int_equal(write_all(p[1], data, sizes[k]), 0);
			close(p[1]);
			char *buf = NULL;
			size_t len = 99;
			assert_int_equal(read_all_alloc(p[0], max, &buf, &len), 0);
			close(p[0]);
			size_t want = sizes[k] < max ? sizes[k] : max;
			assert_int_equal(len, want);
			assert_memory_equal(buf, data, want);
			assert_int_equal(buf[len], '\0');
			free(buf);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(publishes_by_path_with_the_mode),
		cmocka_unit_test(reads_all_up_to_max),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
