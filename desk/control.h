/* The runner's side of the control lease (common/lease.h): taking and handing back a desktop,
 * the check every agent-side action makes first, and how the lease is shown. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "lease.h"
#include "profile.h"
#include "settings.h"

/* How long release waits for the gate to confirm the hand-back (input gated again, the screen
 * at its configured size): it takes a few milliseconds. */
#define CONTROL_APPLIED_WAIT_MS 2000

/* Makes `to` the holder (common/lease.h's rules); every call that reaches the file is a use of
 * the desktop for the idle clock. */
int control_set(const struct settings *s, struct profile *p, enum lease_holder to,
		const char *reason, struct lease *ret, bool *ret_changed, struct error *err);

/* Waits (bounded) until the desktop's gate has applied `epoch`: when it returns 0 the viewers'
 * input follows the lease and a hand-back has restored the screen. -ETIMEDOUT otherwise. */
int control_wait_applied(struct profile *p, uint64_t epoch, uint64_t timeout_ms);

/* 0 when the agent holds the lease; -EACCES with the message in err, of kind ERROR_HUMAN_HOLDS,
 * when a human does (or the lease cannot be read, which counts as a human). */
int control_need_agent(struct profile *p, struct lease *ret, struct error *err);

/* The lease, and the agent's request for a human when rq is non-NULL (lease.h). */
void control_print_text(const char *profile, const struct lease *l, const struct lease_request *rq,
			FILE *f);
/* The same as one JSON line; "requested" is {"since", "reason"} or null. */
void control_print_json(const char *profile, const struct lease *l, const struct lease_request *rq,
			FILE *f);
