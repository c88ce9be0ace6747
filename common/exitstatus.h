/* How a child ended, in words: the one place that turns a wait status into text, so every
 * program of the tree tells a signal and an exit status apart the same way. And botdesk's own
 * exit statuses (docs/CLI.md, botdesk(1)), the same whichever of its programs exits. */
#pragma once

#include <stddef.h>

#include "error.h"

/* 0 success and 1 (EXIT_FAILURE) any other failure, as everywhere. */
#define EXIT_USAGE 2
#define EXIT_NOT_RUNNING 3
/* Every agent-side command while a human holds the lease (or it cannot be read). */
#define EXIT_HUMAN 4
/* type and key stopped by Ctrl-C, TERM or HUP, as a shell reports a SIGINT. */
#define EXIT_INTERRUPTED 130

/* The exit status of a command that ended with r (0 or -errno) and err: 2 and 4 only from the
 * kind its cause gave err, never from the errno, which one cause shares with others. */
int exit_status_of(int r, const struct error *err);

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
