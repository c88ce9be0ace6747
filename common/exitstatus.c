#include "exitstatus.h"

#include <stdbool.h>
#include <stdio.h>
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
