/* One walk over /proc: every live process the kernel lets us see, with its stat already read,
 * handed to the caller's filter. Processes that vanish or hide mid-walk are skipped, not errors:
 * a process we cannot read is one we never act on. */
#pragma once

#include <sys/types.h>

#include "proc.h"

/* Called for each live process. 0 goes on; any other value ends the walk and is what proc_walk
 * returns (a positive one for "found", -errno for a failure). */
typedef int (*proc_walk_fn)(pid_t pid, const struct proc_stat *st, void *userdata);

/* -errno when /proc cannot be listed, else 0 or what fn ended the walk with. */
int proc_walk(proc_walk_fn fn, void *userdata);
