/* The note `botdesk stop` leaves in the profile's directory for a `botdesk run` watching the
 * desktop: which launcher it stopped, and who asked. A stop by the desktop's owner ends `run` as
 * a success, so a service manager (systemd's Restart=on-failure, a pod's restartPolicy) does not
 * bring back a desktop its owner has just stopped. */
#pragma once

#include <sys/types.h>

#include "identity.h"

struct stopmark {
	struct identity launcher; /* the launcher that was stopped */
	pid_t by_pid;             /* the process that stopped it */
	uid_t by_uid;
};

/* Records that this process (getpid(), getuid()) is stopping launcher. Written before the first
 * signal, so a `run` that sees the launcher end finds it. */
int stopmark_write(int dirfd, const struct identity *launcher);

/* The note for launcher, removed once read. -ENOENT when there is none, or it names another
 * launcher (one stopped earlier with nobody watching), -EINVAL when it is malformed. */
int stopmark_take(int dirfd, const struct identity *launcher, struct stopmark *ret);

/* Removes the note, whatever it names. */
void stopmark_clear(int dirfd);
