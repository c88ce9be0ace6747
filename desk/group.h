/* Ending processes we have verified as ours, and waiting until they are really gone. A zombie
 * counts as gone: how promptly init reaps must not change how long a stop takes. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define GROUP_MAX_MEMBERS 512

/* TERM to the group, KILL after grace_ms, and waits (bounded) until no member is alive. Returns 0
 * when the group is gone, -ETIMEDOUT when something survived even KILL (a process in
 * uninterruptible sleep). ret_signalled says whether anything was there to signal. */
int group_terminate(pid_t pgid, uint64_t grace_ms, bool *ret_signalled);

/* The same for one process, identified by its pid and start time so a recycled pid is never
 * signalled (common/pidpin.h). -ESRCH, like 0, means it is gone. */
int process_terminate(pid_t pid, uint64_t starttime, uint64_t grace_ms);
