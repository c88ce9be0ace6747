#include "xsocket.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "pathjoin.h"
#include "util.h"

static int dir_verdict(const struct stat *st, uid_t *ret_uid, mode_t *ret_mode)
{
	if (!S_ISDIR(st->st_mode)) {
		return -ENOTDIR;
	}
	if (ret_uid) {
		*ret_uid = st->st_uid;
	}
	if (ret_mode) {
		*ret_mode = st->st_mode & 07777;
	}
	/* Anyone else owning it could rename a victim's socket away and serve a fake one in its
	 * place; without the sticky bit any user could. */
	if (st->st_uid != 0 || (st->st_mode & 07777) != 01777) {
		return -EPERM;
	}
	return 0;
}

int xsocket_dir_check(const char *dir, bool may_create, uid_t *ret_uid, mode_t *ret_mode)
{
	struct stat st;
	if (lstat(dir, &st) == 0) {
		return dir_verdict(&st, ret_uid, ret_mode);
	}
	if (errno != ENOENT) {
		return negative_errno();
	}
	if (!may_create) {
		return -ENOENT;
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		return negative_errno();
	}
	/* Opened without following a link, then fixed through the fd: a name somebody swapped in
	 * after the mkdir is never chmod'ed. mkdir obeys the umask, hence the explicit mode. */
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		return negative_errno();
	}
	if (st.st_uid == 0 && geteuid() == 0 && fchmod(fd, 01777) == 0 && fstat(fd, &st) < 0) {
		return negative_errno();
	}
	return dir_verdict(&st, ret_uid, ret_mode);
}

/* "<dir>/X<n>" into buf; -ENAMETOOLONG when it does not fit. */
static int xsocket_path(const char *dir, unsigned n, char *buf, size_t size)
{
	return path_format(buf, size, "%s/X%u", dir, n);
}

/* Connects to one address; 1 with the peer's uid when something accepted, 0 when nothing is
 * there (refused, missing, or not ours to reach), -errno otherwise. */
static int peer_uid(const struct sockaddr_un *sa, socklen_t len, uid_t *ret_uid)
{
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		return negative_errno();
	}
	if (connect(fd, (const struct sockaddr *)sa, len) < 0 && errno != EAGAIN) {
		if (errno == ECONNREFUSED || errno == ENOENT || errno == EACCES) {
			return 0;
		}
		return negative_errno();
	}
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0) {
		return negative_errno();
	}
	*ret_uid = cred.uid;
	return 1;
}

int xsocket_server_owned_by(const char *dir, unsigned n, uid_t uid, uid_t *ret_uid)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int r = xsocket_path(dir, n, path, sizeof(path));
	if (r < 0) {
		return r;
	}
	/* libxcb tries the abstract name first and falls back to the path only when nothing
	 * listens there, so a stranger listening on the abstract name would get our clients
	 * even while our path socket is fine. */
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	size_t plen = strlen(path);
	memcpy(sa.sun_path + 1, path, plen);
	socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + plen);
	uid_t who;
	r = peer_uid(&sa, alen, &who);
	if (r == 0) {
		sa = (struct sockaddr_un){.sun_family = AF_UNIX};
		memcpy(sa.sun_path, path, plen + 1);
		r = peer_uid(&sa, sizeof(sa), &who);
	}
	if (r < 0) {
		return r;
	}
	if (r == 0) {
		return -ECONNREFUSED;
	}
	if (ret_uid) {
		*ret_uid = who;
	}
	return who == uid ? 0 : -EPERM;
}

bool xsocket_keymap_squatted(const char *dir, unsigned n, uid_t uid, uid_t *ret_uid)
{
	char path[4096];
	struct stat st;
	if (path_format(path, sizeof(path), "%s/server-%u.xkm", dir, n) < 0 ||
	    lstat(path, &st) < 0 || st.st_uid == uid) {
		return false;
	}
	if (ret_uid) {
		*ret_uid = st.st_uid;
	}
	return true;
}
