#include "unit.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "pidpin.h"
#include "util.h"

static pid_t sleeper(void)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	return pid;
}

static void signals_the_process_with_that_start_time(void **state)
{
	pid_t pid = sleeper();
	struct proc_stat st, pinned;
	assert_int_equal(proc_stat_read(pid, &st), 0);
	int fd = pidpin_open(pid, st.starttime, &pinned);
	assert_true(fd >= 0);
	assert_int_equal(pinned.ppid, getpid());
	assert_int_equal(pidpin_send(fd, SIGKILL), 0);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* Reaped, the pinned fd cannot reach whatever gets the pid next. */
	assert_int_equal(pidpin_send(fd, SIGKILL), -ESRCH);
	close(fd);
	assert_int_equal(pidpin_open(pid, st.starttime, &pinned), -ESRCH);
}

static void refuses_another_start_time(void **state)
{
	pid_t pid = sleeper();
	struct proc_stat st, pinned = {.ppid = -5};
	assert_int_equal(proc_stat_read(pid, &st), 0);
	assert_int_equal(pidpin_open(pid, st.starttime + 1, &pinned), -ESRCH);
	/* Nothing was written for a refused pin. */
	assert_int_equal(pinned.ppid, -5);
	assert_int_equal(pidpin_open(0, 0, &pinned), -ESRCH);
	assert_int_equal(pidpin_open(-1, 0, &pinned), -ESRCH);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(signals_the_process_with_that_start_time),
		cmocka_unit_test(refuses_another_start_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
