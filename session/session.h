/* One desktop, from claiming its display number to stopping everything it started. */
#pragma once

#include "contract.h"
#include "dock.h"
#include "error.h"

/* Exit status when the display number turned out to be somebody else's: the runner retries once
 * with a fresh number (EX_TEMPFAIL). */
#define SESSION_EXIT_COLLISION 75

/* Bounds on the bring-up's waits. */
#define SESSION_XVNC_TIMEOUT_MS 10000
#define SESSION_BUS_TIMEOUT_MS 10000
#define SESSION_WM_TIMEOUT_MS 10000
/* TERM to KILL for what is left at the end; under the runner's own 5 s. */
#define SESSION_STOP_GRACE_MS 3000

/* Runs the desktop until TERM or until an essential part of it ends. Returns the exit status
 * (0, 1 or SESSION_EXIT_COLLISION); err says why when it is not 0. self is this program's path,
 * for the bus relay. */
int session_run(const struct session_config *cfg, const struct dock *dock, const char *self,
		char *const *environ_base, struct error *err);
