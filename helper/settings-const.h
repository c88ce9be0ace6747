/* The helper's bounds, the same in the installed helper (settings.c) and its test build
 * (tests/helper/settings-test.c). */
#pragma once

/* The whole install, lists refresh included. */
#define INSTALL_TIMEOUT_MS (15 * 60 * 1000)
/* How long the runner may take to send its one request, and to take the final result. */
#define REQUEST_TIMEOUT_MS (10 * 1000)
#define REPLY_TIMEOUT_MS (10 * 1000)
#define GRACE_MS (5 * 1000)
/* apt retries the dpkg lock once a second for this long instead of failing at once. */
#define DPKG_LOCK_TIMEOUT_S 120
/* Each query of "is there anything to do". */
#define QUERY_TIMEOUT_MS (60 * 1000)
