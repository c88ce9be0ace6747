/* The X layer's shared places, and the rules that keep another local user out of a desktop:
 * the socket directory must be root's and sticky, a display's socket is its owner's alone, and
 * the server on a number is checked to be the owner's before a client of ours talks to it.
 * Linked by the runner (doctor, exec, thumbnail, allocation) and the session (the claim). */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

/* Where X clients look for display sockets; X servers hard-code it too. */
#define XSOCKET_DIR "/tmp/.X11-unix"

/* Checks that dir is a directory owned by root with mode 1777 (sticky: nobody may rename or
 * remove another user's socket in it). When it is missing and may_create is set (root only),
 * creates it so. 0; -ENOENT missing; -ENOTDIR not a directory (or a symlink); -EPERM wrong
 * owner or mode (ret_uid and ret_mode, when non-NULL, say what was found). */
int xsocket_dir_check(const char *dir, bool may_create, uid_t *ret_uid, mode_t *ret_mode);

/* Whether the X server answering display :n (first the abstract name, then the path socket in
 * dir, the order libxcb tries them) runs as uid. The kernel's SO_PEERCRED names the process that
 * listened, so nobody can fake it. 0 when the first one that accepts is uid's; -EPERM when it is
 * somebody else's (ret_uid says whose); -ECONNREFUSED when none accepts. */
int xsocket_server_owned_by(const char *dir, unsigned n, uid_t uid, uid_t *ret_uid);

/* Xvnc compiles its keymap to <dir>/server-<n>.xkm (dir is /tmp for a user whose uid cannot
 * write /var/lib/xkb) and opens it O_EXCL: a file another user left there makes Xvnc die on that
 * number. true when such a foreign file is there (ret_uid: its owner). */
bool xsocket_keymap_squatted(const char *dir, unsigned n, uid_t uid, uid_t *ret_uid);
