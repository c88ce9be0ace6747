/* act_run()'s input actions (act.h), through XTEST on the action's connection, each event inside
 * the lease watch (lease.h): the pointer's gestures (with keys held around them, --hold), the
 * cursor's position, the key combos and the text. Each returns as act_run() does. */
#pragma once

#include "act.h"

/* The lease's check (a->check), right before anything reaches the desktop: 0 or its refusal. */
int actinput_check(struct act *a, struct error *err);

/* click, move, drag, scroll, mouse-down, mouse-up: the points resolved, the gesture sent, what
 * it changed (--changes) and the window it landed on into out. */
int actinput_pointer(struct act *a, const struct act_req *rq, struct act_out *out,
		     struct error *err);
/* cursor: where the pointer is, into out->x, out->y (rq is unused: any request). */
int actinput_cursor(struct act *a, const struct act_req *rq, struct act_out *out,
		    struct error *err);
/* type and key (--hold-for too), one at a time per desktop (the typing lock); Ctrl-C (a->sigfd)
 * stops them between two keys. */
int actinput_keys(struct act *a, const struct act_req *rq, struct act_out *out, struct error *err);
