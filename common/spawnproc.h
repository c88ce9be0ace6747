/* Starting a program: fork, put the fds the child needs at fixed numbers, exec, and report an
 * exec failure through an O_CLOEXEC error pipe as an error of the caller, instead of as a child
 * that exits with 127. The one fork/exec of the tree's programs. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct spawn_fd {
	int fd;     /* an fd of ours (usually O_CLOEXEC) */
	int target; /* the number it gets in the child, inheritable */
};

struct spawn_opts {
	const struct spawn_fd *fds;
	size_t n_fds;
	/* When non-zero, the child gets LISTEN_FDS=<listen_fds> and LISTEN_PID=<its own pid>, the
	 * systemd socket-activation handshake for the sockets at fds 3.. (this allocates in the
	 * child: for single-threaded callers only). */
	unsigned listen_fds;
	/* Run in the child once its fds are in place, just before the exec; 0 or -errno, which
	 * fails the spawn. Async-signal-safe calls only. The caller's other fds are still open. */
	int (*child_setup)(void *userdata);
	void *userdata;
	/* Set when it was child_setup, not the exec, that failed. May be NULL. */
	bool *ret_setup_failed;
	/* When non-zero, the signal the child gets when the thread that spawned it ends
	 * (PR_SET_PDEATHSIG), set in the child before anything else; a child whose spawner is
	 * already gone by then exits at once instead. The kernel clears it when the program is
	 * setuid, setgid or has file capabilities, so it binds only programs that are none of
	 * these. */
	int parent_death_signal;
};

/* Runs path with exactly argv and envp. The child starts with every signal unblocked and
 * SIGPIPE at its default action, stdin/stdout/stderr inherited unless opts places others, and
 * no other fd than those in opts. -errno of the exec (or of child_setup) when it did not
 * happen; the child is then reaped. */
int spawn_program(const char *path, char *const argv[], char *const envp[],
		  const struct spawn_opts *opts, pid_t *ret_pid);
