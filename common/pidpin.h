/* Signalling a process found by pid without hitting another one that got its pid since: pin
 * the pid with a pidfd first, then check by the start time that it still names the process
 * expected, and signal through the pidfd only. */
#pragma once

#include <stdint.h>
#include <sys/types.h>

#include "proc.h"

/* A pidfd (O_CLOEXEC) on pid, opened before pid's stat is read and its start time compared with
 * starttime: from then on the fd can only reach the process checked. ret_st gets that stat, for
 * the caller's further checks (it may be a zombie). -ESRCH when pid is gone or names another
 * process now. */
int pidpin_open(pid_t pid, uint64_t starttime, struct proc_stat *ret_st);

/* Sends sig through a pinned fd: 0 or -errno (-ESRCH once the process has ended). */
int pidpin_send(int pidfd, int sig);
