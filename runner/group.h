/* Ending processes we have verified as ours, and waiting until they are really gone. A zombie
 * counts as gone: how promptly init reaps must not change how long a stop takes. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define GROUP_MAX_MEMBERS 512

/* The live (non-zombie) members of process group pgid, by a /proc scan. */
int group_live_members(pid_t pgid, pid_t *out, size_t cap, size_t *ret_n);

/* Waits until no member of pgid is alive, at most timeout_ms, waking on pidfds. -ETIMEDOUT when
 * members remain. */
int group_wait_gone(pid_t pgid, uint64_t timeout_ms);

/* TERM to the group, KILL after grace_ms, and waits (bounded) until no member is alive. Returns 0
 * when the group is gone, -ETIMEDOUT when something survived even KILL (a process in
 * uninterruptible sleep). ret_signalled says whether anything was there to signal. */
int group_terminate(pid_t pgid, uint64_t grace_ms, bool *ret_signalled);

/* The same for one process, identified by its pid and start time so a recycled pid is never
 * signalled (common/pidpin.h). -ESRCH, like 0, means it is gone. */
int process_terminate(pid_t pid, uint64_t starttime, uint64_t grace_ms);
