#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "lockfile.h"

/* Another open file description holds the lock: a bounded wait must end, with -ETIMEDOUT. */
static void times_out_while_held(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int holder = lockfile_take(dfd, "x.lock", 0);
	assert_true(holder >= 0);
	assert_int_equal(lockfile_take(dfd, "x.lock", 0), -ETIMEDOUT);
	assert_int_equal(lockfile_take(dfd, "x.lock", 1), -ETIMEDOUT);
	assert_int_equal(lockfile_take(dfd, "x.lock", 150), -ETIMEDOUT);
	close(holder);
	close(dfd);
	unit_rm_rf(dir);
}

/* The wait ends as soon as the holder lets go, long before its bound: a child holds the lock
 * until we write to a pipe, then exits. */
static void taken_when_released(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int go[2], held[2];
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(held), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		int fd = lockfile_take(dfd, "x.lock", 0);
		char c = fd >= 0 ? 'y' : 'n';
		(void)!write(held[1], &c, 1);
		(void)!read(go[0], &c, 1);
		_exit(0);
	}
	char c;
	assert_int_equal(read(held[0], &c, 1), 1);
	assert_int_equal(c, 'y');
	assert_int_equal(write(go[1], "x", 1), 1);
	/* A whole minute of bound: only a release can end this wait in time for the test. */
	int fd = lockfile_take(dfd, "x.lock", 60000);
	assert_true(fd >= 0);
	close(fd);
	waitpid(child, NULL, 0);
	/* The timer and handler are gone again: no SIGALRM arrives later. */
	struct itimerval it;
	assert_int_equal(getitimer(ITIMER_REAL, &it), 0);
	assert_true(it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0);
	close(dfd);
	unit_rm_rf(dir);
}

static void refuses_a_symlink(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_int_equal(symlinkat("/etc/hostname", dfd, "x.lock"), 0);
	assert_int_equal(lockfile_take(dfd, "x.lock", 10), -ELOOP);
	close(dfd);
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(times_out_while_held),
		cmocka_unit_test(taken_when_released),
		cmocka_unit_test(refuses_a_symlink),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
