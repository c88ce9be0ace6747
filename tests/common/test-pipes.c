#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>

#include "pipes.h"
#include "util.h"

static bool is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

/* Both pipes carry bytes, each its own, and no end survives an exec. */
static void both_are_made(void **state)
{
	int a[2], b[2];
	assert_int_equal(pipes_open2(a, b), 0);
	int fds[] = {a[0], a[1], b[0], b[1]};
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(fcntl(fds[i], F_GETFD), FD_CLOEXEC);
	}
	assert_int_equal(write(a[1], "a", 1), 1);
	assert_int_equal(write(b[1], "b", 1), 1);
	char c = 0;
	assert_int_equal(read(b[0], &c, 1), 1);
	assert_int_equal(c, 'b');
	assert_int_equal(read(a[0], &c, 1), 1);
	assert_int_equal(c, 'a');
	for (size_t i = 0; i < 4; i++) {
		safe_close(fds[i]);
	}
}

/* Room for one pipe only (the fd limit right above the lowest two free numbers): the second
 * fails, and the first is not left open. */
static void the_first_is_closed_when_the_second_fails(void **state)
{
	int low = fcntl(0, F_DUPFD_CLOEXEC, 0);
	assert_true(low >= 0);
	safe_close(low);
	if (is_open(low + 1)) {
		skip();
	}
	struct rlimit old;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	struct rlimit tight = {.rlim_cur = (rlim_t)low + 2, .rlim_max = old.rlim_max};
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &tight), 0);
	int a[2] = {-1, -1}, b[2] = {-1, -1};
	int r = pipes_open2(a, b);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(r, -EMFILE);
	assert_false(is_open(low));
	assert_false(is_open(low + 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(both_are_made),
		cmocka_unit_test(the_first_is_closed_when_the_second_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
