/* What botdesk-act and botdesk-act-pointer take from the runner, what they print when an action
 * is done, and how its outcome becomes the exit status: the same for every action, whichever
 * program ran it. */
#pragma once

#include "act.h"
#include "actargs.h"
#include "error.h"
#include "profile.h"

/* The runner's hand-over (runner/actions.c): PROFILE DIR DIRFD DISPLAY XAUTHORITY LOG_TEXT
 * ACTION [ARG...]. Fills ret's name, dir and dirfd (made O_CLOEXEC: no child of ours inherits
 * it); -EINVAL, with the usage line for prog logged, when argv is not that. */
int actprint_take_handoff(int argc, char **argv, const char *prog, struct profile *ret);

/* The result on stdout: the point, the position, the counts (or nothing without --json, but for
 * cursor and the waits). Screenshots are the caller's. */
void actprint_result(const struct act_req *rq, const struct act_out *out);

/* The text of `type`: its argument, a file (rq->file), or standard input; at most ACT_TEXT_MAX
 * bytes, checked (act_check_text). What was read goes into rq->text and *ret (the caller frees
 * it). */
int actprint_read_text(struct act_req *rq, char **ret, struct error *err);

/* The exit status for r and err (exit_status_of): 0; 2 bad input; 4 a human holds the desktop;
 * 130 interrupted; 1 any other failure. The message (err's, else r's) goes to stderr. */
int actprint_exit(int r, const struct error *err);
