#include "exitstatus.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

void exit_status_describe(int status, enum exit_status_form form, char *buf, size_t size)
{
	bool sentence = form == EXIT_STATUS_SENTENCE;
	if (WIFEXITED(status)) {
		snprintf(buf, size, sentence ? "exited with status %d" : "exit status %d",
			 WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		snprintf(buf, size, sentence ? "was killed by signal %d (%s)" : "signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else {
		snprintf(buf, size, sentence ? "ended (wait status %d)" : "wait status %d", status);
	}
}

int exit_status_of(int r, const struct error *err)
{
	if (r == 0) {
		return 0;
	}
	if (err && err->kind == ERROR_BAD_INPUT) {
		return EXIT_USAGE;
	}
	if (err && err->kind == ERROR_HUMAN_HOLDS) {
		return EXIT_HUMAN;
	}
	/* Only type and key return it, from their signalfd: every read and write of the tree
	 * retries an interrupted call. */
	return r == -EINTR ? EXIT_INTERRUPTED : EXIT_FAILURE;
}
