/* How a child ended, in words: the one place that turns a wait status into text, so every
 * program of the tree tells a signal and an exit status apart the same way. */
#pragma once

#include <stddef.h>

enum exit_status_form {
	/* The end of a sentence about the child: "exited with status 1", "was killed by signal 9
	 * (Killed)". */
	EXIT_STATUS_SENTENCE,
	/* A parenthesis after "ended": "exit status 1", "signal 9 (Killed)". */
	EXIT_STATUS_NOUN,
};

/* Writes the wording of status (as waitpid returns it) into buf; a too small buf truncates the
 * text but always ends it. */
void exit_status_describe(int status, enum exit_status_form form, char *buf, size_t size);
