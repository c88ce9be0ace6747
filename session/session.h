/* One desktop, from claiming its display number to stopping everything it started. */
#pragma once

#include <stdint.h>

#include "contract.h"
#include "dock.h"
#include "error.h"

/* The bring-up's waits share one deadline: the runner's (BOTDESK_WAIT_MS) less a margin, so that
 * the session's own message (which stage it gave up in) reaches launcher.log and the runner
 * before the runner's deadline; without BOTDESK_WAIT_MS (run by hand), SESSION_DEFAULT_WAIT_MS. */
#define SESSION_DEFAULT_WAIT_MS 30000
#define SESSION_WAIT_MARGIN_MAX_MS 1000
/* The bring-up's deadline, in monotonic ms, for a session that started at t0. */
uint64_t session_deadline(uint64_t t0, uint64_t wait_ms);
/* The whole teardown must end inside LAUNCHER_TEARDOWN_MS, well inside the runner's grace
 * (common/launcher.h): a KILL that lands before claim_release() leaves the path socket X<n> (Xvnc
 * does not remove a socket it was handed) and our X lock behind. So: TERM to every descendant,
 * SESSION_STOP_GRACE_MS (2 s) for them to end, KILL, at most SUPERVISOR_KILL_WAIT_MS (1 s) to
 * reap them, then the claim's files are removed whether or not everything was reaped. */
#define SESSION_STOP_GRACE_MS 2000

/* Runs the desktop until TERM or until an essential part of it ends. Returns the exit status
 * (0, 1 or LAUNCHER_EXIT_COLLISION); err says why when it is not 0. self is this program's path,
 * for the bus relay. */
int session_run(const struct session_config *cfg, const struct dock *dock, const char *self,
		char *const *environ_base, struct error *err);
