/* hold-zombies COMMAND [ARG...]: runs COMMAND as a child subreaper that never reaps orphans.
 *
 * Whatever COMMAND leaves behind (a desktop launcher and its group, once `botdesk start` has
 * exited) is reparented to us when its own parent dies, and we wait only for COMMAND itself, so
 * those processes stay zombies when they die. That is how a slow init looks to `botdesk stop`:
 * a stop that waited for zombies to vanish would never finish in time. Exits with COMMAND's
 * status; the zombies go to init when we exit. */
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "util.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: hold-zombies COMMAND [ARG...]\n", stderr);
		return 2;
	}
	/* An inherited SIG_IGN for SIGCHLD would make the kernel reap for us. */
	signal(SIGCHLD, SIG_DFL);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		perror("hold-zombies: PR_SET_CHILD_SUBREAPER");
		return 2;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("hold-zombies: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror("hold-zombies: exec");
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("hold-zombies: waitpid");
			return 2;
		}
	}
	if (WIFEXITED(status)) {
		return WEXITSTATUS(status);
	}
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
