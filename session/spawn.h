/* Starting the session's programs: fork, put the fds the child needs at fixed numbers, exec, and
 * report an exec failure as an error of the caller instead of a child that exits with 127. */
#pragma once

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
	 * systemd socket-activation handshake for the sockets at fds 3.. */
	unsigned listen_fds;
};

/* Runs path with exactly argv and envp. The child starts with every signal unblocked and at its
 * default action, stdin/stdout/stderr inherited, and no other fd than those in opts. */
int spawn_program(const char *path, char *const argv[], char *const envp[],
		  const struct spawn_opts *opts, pid_t *ret_pid);
