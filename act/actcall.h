/* What the three action programs (botdesk-act, botdesk-act-pointer, botdesk-act-a11y) do alike
 * around their action: the runner's hand-over taken, the action's words parsed, the lease read
 * again before the desktop is touched, the action's line logged. Steps of their mains: what these
 * refuse, they log. */
#pragma once

#include <stdbool.h>

#include "act.h"
#include "actargs.h"
#include "error.h"
#include "profile.h"

/* One action as the runner hands it over (runner/actions.c): PROFILE DIR DIRFD DISPLAY
 * XAUTHORITY LOG_TEXT ACTION [ARG...]. */
struct act_call {
	struct profile p;
	const char *display, *xauthority;
	bool log_text; /* the log has the typed text too (the log_typed_text setting) */
	struct act_req rq;
	struct error err; /* what went wrong, for actprint_exit() */
};

/* The hand-over into c (actprint_take_handoff: the directory's fd made close-on-exec) for the
 * program prog. -EINVAL, with the usage line logged, when argv is not one. */
int act_call_take(int argc, char **argv, const char *prog, struct act_call *c);

/* ACTION [ARG...] into c->rq. -EINVAL, with the message and the pointer to --help logged, when
 * they are wrong. */
int act_call_parse(int argc, char **argv, struct act_call *c);

/* msg logged with the pointer to --help; returns EXIT_USAGE, for main to return. */
int act_call_usage(const char *msg);

/* struct act's check (ctx: the struct profile): the lease read again, 0 while the agent holds
 * the desktop, else the refusal with its message (control_need_agent). */
int act_call_lease_check(void *ctx, struct error *err);

/* The action's line in the profile's log (r: what it returned) and the desktop's activity
 * stamp; not for a refusal, which sent nothing (a take part way through is logged where it
 * stopped). */
void act_call_log(struct act_call *c, const struct act_out *out, int r);
