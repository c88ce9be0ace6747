/* Claiming an X display number race-free, across users.
 *
 * A lock file cannot pre-claim a number (an X server refuses any live pid in /tmp/.X<n>-lock, its
 * own included), but binding the abstract socket @/tmp/.X11-unix/X<n> is atomic for every uid on
 * the host. So the session binds the abstract name and keeps it, bound but never listening, as
 * its claim for the desktop's whole life; binds the path socket 0700 (its owner alone can
 * connect) and hands it to Xvnc the systemd way (LISTEN_FDS, with -nolisten local so Xvnc makes
 * no abstract socket of its own); then writes the X lock naming Xvnc's pid, so lock-only tools
 * and the runner see the claim at once. */
#pragma once

#include <stdbool.h>
#include <sys/types.h>
#include <sys/un.h>

#include "error.h"
#include "xsocket.h"

struct claim {
	unsigned display;
	int abstract_fd; /* bound, never listening: the claim, held until release */
	int path_fd;     /* listening, until handed over */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)]; /* <socket dir>/X<n> */
	bool path_made;
	dev_t path_dev;
	ino_t path_ino;
	int lock_dirfd;
	char lock_name[32]; /* .X<n>-lock */
	bool lock_made;
	pid_t lock_pid;
	dev_t lock_dev;
	ino_t lock_ino;
};

/* A claim that holds nothing: claim_release() of it touches nothing (a zeroed fd is stdin). */
#define CLAIM_INIT                                                 \
	{                                                          \
		.abstract_fd = -1, .path_fd = -1, .lock_dirfd = -1 \
	}
void claim_init(struct claim *c);

/* Binds :display's abstract name (the claim, always under XSOCKET_DIR, where clients look) and
 * listens on its 0700 path socket in dir (O_CLOEXEC; XSOCKET_DIR unless the X directory was moved,
 * common/launcher.h). Fails unless dir is root's with mode 1777 (root alone may create it).
 * -EADDRINUSE when the number is somebody else's: a bound abstract name, a path socket that
 * accepts connections, or a file at the path we may not remove. */
int claim_sockets(struct claim *c, const char *dir, unsigned display, struct error *err);

/* Xvnc compiles its keymap into <dir>/server-<n>.xkm and dies when it cannot create it. A stale
 * file of ours is removed; another user's makes the number taken (-EADDRINUSE). */
int claim_keymap(struct claim *c, const char *dir, struct error *err);

/* Publishes <lock_dir>/.X<n>-lock naming pid in X's own format ("%10d\n", mode 0444), created
 * whole with link() so nobody ever reads a partial one. A stale lock (dead pid) is replaced;
 * -EADDRINUSE when a live process holds it or it cannot be removed. */
int claim_lock(struct claim *c, const char *lock_dir, pid_t pid, struct error *err);

/* Closes our copy of the path socket once the server holds its own. */
void claim_close_sockets(struct claim *c);

/* Removes the path socket and the lock, each only if it is still the one we made (the server
 * does not remove a path socket it was handed). */
void claim_release(struct claim *c);
