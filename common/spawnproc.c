#include "spawnproc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "util.h"

/* Above any fd a child is asked for, so moving fds into place never overwrites one still to be
 * moved. */
#define SPAWN_FD_PARKING 64

/* What the child reports on the error pipe: the errno and whether child_setup gave it. */
struct child_report {
	int error;
	int in_setup;
};

static _noreturn_ void child_fail_at(int errfd, int r, bool in_setup)
{
	struct child_report rep = {.error = -r, .in_setup = in_setup};
	(void)write_all(errfd, &rep, sizeof(rep));
	_exit(127);
}

static _noreturn_ void child_fail(int errfd, int r)
{
	child_fail_at(errfd, r, false);
}

/* Marks every fd above stderr but the targets close-on-exec, so the program gets only what it
 * was given even from a caller holding an inheritable fd; the error pipe stays usable until the
 * exec. A kernel without CLOSE_RANGE_CLOEXEC leaves it to the callers' O_CLOEXEC. */
static void others_cloexec(const struct spawn_opts *o, size_t n_fds)
{
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) < 0) {
		return;
	}
	for (size_t i = 0; i < n_fds; i++) {
		if (o->fds[i].target > 2) {
			(void)fcntl(o->fds[i].target, F_SETFD, 0);
		}
	}
}

/* Runs in the child between fork and exec. Only the LISTEN_FDS environment allocates, and only
 * single-threaded callers ask for it. */
static _noreturn_ void child_exec(const char *path, char *const argv[], char *const envp[],
				  const struct spawn_opts *o, int errfd, pid_t spawner)
{
	if (o && o->parent_death_signal) {
		/* The spawner may have died between the fork and here, before the signal was
		 * armed: then its pid is no longer our parent's, and we end as it would have
		 * ended us. */
		if (prctl(PR_SET_PDEATHSIG, o->parent_death_signal, 0, 0, 0) < 0) {
			child_fail(errfd, negative_errno());
		}
		if (getppid() != spawner) {
			_exit(127);
		}
	}
	/* Out of the way of the targets first: a target may have the error pipe's number. */
	errfd = fcntl(errfd, F_DUPFD_CLOEXEC, SPAWN_FD_PARKING);
	if (errfd < 0) {
		_exit(127);
	}
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

	others_cloexec(o, n_fds);
	if (o && o->child_setup) {
		int r = o->child_setup(o->userdata);
		if (r < 0) {
			child_fail_at(errfd, r, true);
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
	_cleanup_close_pair_ int errpipe[2] = {-1, -1};
	if (pipe2(errpipe, O_CLOEXEC) < 0) {
		return negative_errno();
	}
	pid_t spawner = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		return negative_errno();
	}
	if (pid == 0) {
		safe_close(errpipe[0]);
		child_exec(path, argv, envp, opts, errpipe[1], spawner);
	}
	errpipe[1] = safe_close(errpipe[1]);
	/* The write end closes at a successful exec (O_CLOEXEC), so EOF means the program runs. */
	struct child_report rep = {0};
	ssize_t n = read_all(errpipe[0], &rep, sizeof(rep));
	errpipe[0] = safe_close(errpipe[0]);
	if (n == (ssize_t)sizeof(rep)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
		}
		if (opts && opts->ret_setup_failed) {
			*opts->ret_setup_failed = rep.in_setup;
		}
		return rep.error > 0 ? -rep.error : -EIO;
	}
	*ret_pid = pid;
	return 0;
}
