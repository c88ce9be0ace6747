/* flock(2) with a bound on the wait. */
#pragma once

#include <stdint.h>

/* Opens (creating, mode 0600, never through a symlink) and locks path exclusively, waiting at
 * most timeout_ms. Returns the locked fd, -ETIMEDOUT when the wait ran out. */
int lockfile_take(int dirfd, const char *path, uint64_t timeout_ms);
