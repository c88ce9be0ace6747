/* The helper's bounds, the same in the installed helper (settings.c) and its test build
 * (tests/helper/settings-test.c): both take them from helper_settings_bounds(), so a bound added
 * here reaches both builds. */
#pragma once

#include "helper.h"

/* The whole install, lists refresh included. */
#define INSTALL_TIMEOUT_MS (15 * 60 * 1000)
/* How long the runner may take to send its one request, and to take the final result. */
#define REQUEST_TIMEOUT_MS (10 * 1000)
#define REPLY_TIMEOUT_MS (10 * 1000)
#define GRACE_MS (5 * 1000)
/* apt retries the dpkg lock once a second for this long instead of failing at once. */
#define DPKG_LOCK_TIMEOUT_S 120
/* The audit log: per uid, at most AUDIT_BURST lines a window (a member looping the helper
 * added 628 lines a second, without bound). */
#define AUDIT_WINDOW_MS (60 * 1000)
#define AUDIT_BURST 30
/* Each query of "is there anything to do". */
#define QUERY_TIMEOUT_MS (60 * 1000)

/* Every bound field of the settings; paths and test knobs are each build's own. One function
 * called by both builds, so a new bound cannot be set in one and forgotten in the other. */
static inline void helper_settings_bounds(struct helper_settings *s)
{
	s->request_timeout_ms = REQUEST_TIMEOUT_MS;
	s->reply_timeout_ms = REPLY_TIMEOUT_MS;
	s->install_timeout_ms = INSTALL_TIMEOUT_MS;
	s->query_timeout_ms = QUERY_TIMEOUT_MS;
	s->install_interval_ms = PROTO_INSTALL_INTERVAL_S * 1000;
	s->grace_ms = GRACE_MS;
	s->dpkg_lock_timeout_s = DPKG_LOCK_TIMEOUT_S;
	s->audit_window_ms = AUDIT_WINDOW_MS;
	s->audit_burst = AUDIT_BURST;
}
