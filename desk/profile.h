/* A profile's state directory: its name, its path and an fd every state file is opened through. */
#pragma once

#include <stdbool.h>

#include "activity.h"
#include "error.h"
#include "launcher.h"
#include "profilename.h"
#include "settings.h"

/* The files of a profile's directory. */
#define STATE_DISPLAY "display"
/* The sockets the launcher publishes there (common/launcher.h). */
#define STATE_SOCKET LAUNCHER_SOCKET
#define STATE_VIEW_SOCKET LAUNCHER_VIEW_SOCKET
#define STATE_XVNC_SOCKET LAUNCHER_XVNC_SOCKET
#define STATE_XAUTHORITY "Xauthority"
#define STATE_ENV "env"
#define STATE_PIDFILE "launcher.pid"
#define STATE_LOG "launcher.log"
#define STATE_START_LOCK "start.lock"
#define STATE_ACTIVITY ACTIVITY_FILE /* common/activity.h */
#define STATE_XDG "xdg"
#define STATE_STOPPED "stopped"
#define STATE_GEOMETRY "geometry"
#define STATE_MEMORY "memory" /* the session's PSS figure (session/memfile.h) */

struct profile {
	char name[PROFILE_NAME_MAX + 1];
	char *dir; /* absolute path of the directory */
	int dirfd; /* O_PATH-free directory fd, O_CLOEXEC; -1 when the directory does not exist */
};

/* Every struct profile starts so: profile_close() of one never opened then closes nothing (a
 * zeroed dirfd would be somebody's stdin). */
#define PROFILE_INIT        \
	{                   \
		.dirfd = -1 \
	}

/* Opens (and with create, makes, mode 0700) the profile's directory. Without create, an absent
 * directory is not an error: ret->dirfd is -1. */
int profile_open(const struct settings *s, const char *name, bool create, struct profile *ret,
		 struct error *err);
void profile_close(struct profile *p);

/* "<dir>/<file>", malloc'ed. */
char *profile_path(const struct profile *p, const char *file);
