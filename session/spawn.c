#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "util.h"

/* Above any fd a child is asked for, so moving fds into place never overwrites one still to be
 * moved. */
#define SPAWN_FD_PARKING 64

static _noreturn_ void child_fail(int errfd, int r)
{
	int e = -r;
	(void)write_all(errfd, &e, sizeof(e));
	_exit(127);
}

/* Runs in the child between fork and exec. The session is single-threaded, so the allocations
 * here are safe. */
static _noreturn_ void child_exec(const char *path, char *const argv[], char *const envp[],
				  const struct spawn_opts *o, int errfd)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);

	size_t n_fds = o ? o->n_fds : 0;
	int parked[16];
	if (n_fds > ARRAY_SIZE(parked)) {
		child_fail(errfd, -E2BIG);
	}
	for (size_t i = 0; i < n_fds; i++) {
		parked[i] = fcntl(o->fds[i].fd, F_DUPFD_CLOEXEC, SPAWN_FD_PARKING);
		if (parked[i] < 0) {
			child_fail(errfd, negative_errno());
		}
	}
	for (size_t i = 0; i < n_fds; i++) {
		/* dup2 leaves the new fd without FD_CLOEXEC, so it survives the exec. */
		if (dup2(parked[i], o->fds[i].target) < 0) {
			child_fail(errfd, negative_errno());
		}
	}

	char *const *env = envp;
	char **with_listen = NULL;
	if (o && o->listen_fds > 0) {
		size_t n = 0;
		while (envp[n]) {
			n++;
		}
		with_listen = calloc(n + 3, sizeof(char *));
		char *fds_var = NULL, *pid_var = NULL;
		if (!with_listen || asprintf(&fds_var, "LISTEN_FDS=%u", o->listen_fds) < 0 ||
		    asprintf(&pid_var, "LISTEN_PID=%ld", (long)getpid()) < 0) {
			child_fail(errfd, -ENOMEM);
		}
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			if (!startswith(envp[i], "LISTEN_FDS=") &&
			    !startswith(envp[i], "LISTEN_PID=") &&
			    !startswith(envp[i], "LISTEN_FDNAMES=")) {
				with_listen[k++] = envp[i];
			}
		}
		with_listen[k++] = fds_var;
		with_listen[k++] = pid_var;
		with_listen[k] = NULL;
		env = with_listen;
	}
	execve(path, argv, env);
	child_fail(errfd, negative_errno());
}

int spawn_program(const char *path, char *const argv[], char *const envp[],
		  const struct spawn_opts *opts, pid_t *ret_pid)
{
	int errpipe[2];
	if (pipe2(errpipe, O_CLOEXEC) < 0) {
		return negative_errno();
	}
	pid_t pid = fork();
	if (pid < 0) {
		int r = negative_errno();
		safe_close(errpipe[0]);
		safe_close(errpipe[1]);
		return r;
	}
	if (pid == 0) {
		safe_close(errpipe[0]);
		child_exec(path, argv, envp, opts, errpipe[1]);
	}
	safe_close(errpipe[1]);
	/* The write end closes at a successful exec (O_CLOEXEC), so EOF means the program runs. */
	int e = 0;
	ssize_t n = read_all(errpipe[0], &e, sizeof(e));
	safe_close(errpipe[0]);
	if (n == (ssize_t)sizeof(e)) {
		(void)waitpid(pid, NULL, 0);
		return e > 0 ? -e : -EIO;
	}
	*ret_pid = pid;
	return 0;
}
