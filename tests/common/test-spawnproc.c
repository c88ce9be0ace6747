#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawnproc.h"
#include "util.h"

extern char **environ;

static int wait_code(pid_t pid)
{
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void an_exec_failure_is_the_callers_error(void **state)
{
	char path[] = "/nonexistent/botdesk-unit";
	char *argv[] = {path, NULL};
	pid_t pid = -1;
	assert_int_equal(spawn_program(argv[0], argv, environ, NULL, &pid), -ENOENT);
	assert_int_equal(pid, -1);
	/* The failed child was reaped by the spawn, not left to us. */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
}

/* The error pipe gets the lowest free fds in the parent, so one of 3..10 is its number in the
 * child: placing fds there must not silence the report. */
static void an_exec_failure_is_told_whatever_the_targets(void **state)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(null >= 0);
	struct spawn_fd fds[8];
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++) {
		fds[i] = (struct spawn_fd){null, 3 + (int)i};
	}
	const struct spawn_opts o = {.fds = fds, .n_fds = ARRAY_SIZE(fds)};
	char path[] = "/nonexistent/botdesk-unit";
	char *argv[] = {path, NULL};
	pid_t pid = -1;
	assert_int_equal(spawn_program(argv[0], argv, environ, &o, &pid), -ENOENT);
	close(null);
}

static int refuse(void *userdata)
{
	(*(int *)userdata)++;
	return -EPERM;
}

static void a_setup_failure_says_so(void **state)
{
	char path[] = "/bin/true";
	char *argv[] = {path, NULL};
	int calls = 0;
	bool in_setup = false;
	const struct spawn_opts o = {
		.child_setup = refuse, .userdata = &calls, .ret_setup_failed = &in_setup};
	pid_t pid = -1;
	assert_int_equal(spawn_program(argv[0], argv, environ, &o, &pid), -EPERM);
	assert_true(in_setup);
	/* It ran in the child: our counter did not move. */
	assert_int_equal(calls, 0);
}

static void only_the_given_fds_are_inherited(void **state)
{
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	/* An inheritable fd of ours must not reach the program. */
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int leak = fcntl(null, F_DUPFD, 40);
	assert_true(leak >= 40);
	close(null);
	char script[128];
	snprintf(script, sizeof(script), "test -e /proc/self/fd/%d && exit 9; echo hi >&5", leak);
	char sh[] = "/bin/sh", c[] = "-c";
	char *argv[] = {sh, c, script, NULL};
	/* One fd may go to several numbers. */
	const struct spawn_fd fds[] = {{p[1], 5}, {p[1], 3}};
	const struct spawn_opts o = {.fds = fds, .n_fds = ARRAY_SIZE(fds)};
	pid_t pid;
	assert_int_equal(spawn_program(argv[0], argv, environ, &o, &pid), 0);
	close(p[1]);
	assert_int_equal(wait_code(pid), 0);
	char buf[8] = "";
	assert_int_equal(read(p[0], buf, sizeof(buf)), 3);
	assert_memory_equal(buf, "hi\n", 3);
	close(p[0]);
	close(leak);
}

/* A child spawned with a death signal ends when its spawner does: a middle process spawns a
 * sleeper and ends; the sleeper's pidfd becomes readable (it ended) within a bounded wait. */
static void a_child_dies_with_its_spawner(void **state)
{
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	pid_t middle = fork();
	assert_true(middle >= 0);
	if (middle == 0) {
		char path[] = "/bin/sleep", arg[] = "100";
		char *argv[] = {path, arg, NULL};
		struct spawn_opts o = {.parent_death_signal = SIGKILL};
		pid_t pid = -1;
		if (spawn_program(argv[0], argv, environ, &o, &pid) < 0 ||
		    write(p[1], &pid, sizeof(pid)) != (ssize_t)sizeof(pid)) {
			_exit(1);
		}
		_exit(0);
	}
	close(p[1]);
	pid_t sleeper = -1;
	assert_int_equal(read(p[0], &sleeper, sizeof(sleeper)), (ssize_t)sizeof(sleeper));
	close(p[0]);
	/* Opened before the middle is reaped: the sleeper is the subreaper's (or init's) child
	 * then, never ours, so a pidfd is the way to wait for it. */
	int fd = (int)syscall(SYS_pidfd_open, sleeper, 0);
	assert_int_equal(wait_code(middle), 0);
	if (fd < 0) {
		/* Already gone and reaped by init. */
		assert_int_equal(kill(sleeper, 0), -1);
		return;
	}
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	int n = poll(&pfd, 1, 10000);
	if (n != 1) {
		kill(sleeper, SIGKILL);
	}
	close(fd);
	assert_int_equal(n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_exec_failure_is_the_callers_error),
		cmocka_unit_test(an_exec_failure_is_told_whatever_the_targets),
		cmocka_unit_test(a_setup_failure_says_so),
		cmocka_unit_test(only_the_given_fds_are_inherited),
		cmocka_unit_test(a_child_dies_with_its_spawner),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
