/* Finding and stopping an X server a dead launcher of this profile left behind. Any other server
 * is somebody else's and is never touched. */
#pragma once

#include <stdbool.h>

#include "error.h"
#include "profile.h"
#include "settings.h"

/* Call only when the profile has no live launcher per its state directory (which may be gone:
 * p->dirfd -1). Looks for the orphan through the recorded display's X lock (its pid in the dead
 * launcher's process group, or its command line naming our socket), else by one /proc scan for a
 * live launcher carrying this profile's BOTDESK_DESKTOP marker (its state directory was lost) or an
 * Xvnc whose arguments name our socket; stops it (with its whole group when that is a launcher's),
 * and drops the profile's stale state. ret_reaped says whether a process was stopped. */
int reap_orphan(const struct settings *s, struct profile *p, bool *ret_reaped, struct error *err);

/* Removes the X lock and path socket of :n (n < 0: nothing), but only while the lock still names
 * server, the one we stopped: a new server may already own the number. */
void reap_drop_x_files(const struct settings *s, int n, pid_t server);
