/* launcher.pid: "<pid> <starttime>", the launcher's pid and its kernel start time. A pid alone is
 * never trusted: pids are recycled, and stop must never signal a stranger. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct identity {
	pid_t pid;
	uint64_t starttime;
};

/* Parses the file's text. The old bare-pid format, garbage, overflow and implausible pids (0, 1,
 * negative, above the kernel's limit) are -EINVAL. */
int identity_parse(const char *text, struct identity *ret);
/* Reads launcher.pid under dirfd. -ENOENT when there is none. */
int identity_read(int dirfd, struct identity *ret);
/* The process exists, is not a zombie and was born at the recorded time. Any /proc failure
 * (hidepid, races) is false. */
bool identity_is_live(const struct identity *id);
/* Records pid with its start time read from /proc. */
int identity_write(int dirfd, pid_t pid, struct identity *ret);
/* The verified live launcher of the profile, or -ESRCH. */
int identity_live_launcher(int dirfd, struct identity *ret);
