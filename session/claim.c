#include "claim.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "fileio.h"
#include "parse.h"
#include "pathjoin.h"
#include "proc.h"
#include "util.h"
#include "xlock.h"
#include "xsocket.h"

void claim_init(struct claim *c)
{
	*c = (struct claim)CLAIM_INIT;
}

/* The X socket directory is shared by every user. Only root may make it (as the package, the
 * setup script or systemd-tmpfiles do): a directory a user made is that user's to rename other
 * users' sockets in. */
static int check_socket_dir(const char *dir, struct error *err)
{
	uid_t uid = 0;
	mode_t mode = 0;
	int r = xsocket_dir_check(dir, geteuid() == 0, &uid, &mode);
	if (r == -ENOENT) {
		return error_set(
			err, r,
			"%s is missing, and only root may create it (a directory a user made would let that user hijack other users' X sockets). As root: install -d -m 1777 -o root -g root %s",
			dir, dir);
	}
	if (r == -EPERM) {
		return error_set(
			err, r,
			"%s is owned by uid %u with mode %04o, so that owner could rename other users' X sockets and serve fake ones; it must be root's with mode 1777. As root: rm -rf %s && install -d -m 1777 -o root -g root %s",
			dir, (unsigned)uid, (unsigned)mode, dir, dir);
	}
	if (r < 0) {
		return error_set(
			err, r,
			"%s is unusable (%s); as root: rm -rf %s && install -d -m 1777 -o root -g root %s",
			dir, strerror(-r), dir, dir);
	}
	return 0;
}

static socklen_t abstract_addr(unsigned display, struct sockaddr_un *sa)
{
	*sa = (struct sockaddr_un){.sun_family = AF_UNIX};
	/* An abstract name starts with a NUL and has no terminator: its length is part of it, and
	 * it must be the same length X clients connect to. */
	int n = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, XSOCKET_DIR "/X%u", display);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

static int bind_to(const struct sockaddr_un *sa, socklen_t len)
{
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return negative_errno();
	}
	/* The socket file is born 0700 (bind applies the umask), so no other uid can ever connect:
	 * connect() needs write permission on it. The cookie alone is no gate against a user who
	 * fills every client slot without sending a byte. */
	mode_t old = umask(0077);
	int r = bind(fd, (const struct sockaddr *)sa, len);
	umask(old);
	if (r < 0) {
		return negative_errno();
	}
	return TAKE_FD(fd);
}

/* Something at the path: a live server's socket is somebody's claim; a dead socket or a stray
 * file is removed, as the X server itself would. */
static int clear_path(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		return errno == ENOENT ? 0 : negative_errno();
	}
	if (S_ISSOCK(st.st_mode)) {
		_cleanup_close_ int fd =
			socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		struct sockaddr_un sa = {.sun_family = AF_UNIX};
		if (fd < 0) {
			return negative_errno();
		}
		int r = path_format(sa.sun_path, sizeof(sa.sun_path), "%s", path);
		if (r < 0) {
			return r;
		}
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 || errno == EAGAIN) {
			return -EADDRINUSE;
		}
	}
	if (unlink(path) < 0 && errno != ENOENT) {
		/* Another user's file in the sticky directory: the number is not ours to take. */
		return errno == EPERM || errno == EACCES ? -EADDRINUSE : negative_errno();
	}
	return 0;
}

int claim_sockets(struct claim *c, const char *dir, unsigned display, struct error *err)
{
	c->display = display;
	int r = check_socket_dir(dir, err);
	if (r < 0) {
		return r;
	}
	/* The abstract name first: binding it is the one claim that is atomic for every uid, root
	 * included, and holding it means no server that listens there can be using the path. It
	 * is never listened on: any uid can connect to an abstract name, so a listening one would
	 * let a stranger fill the server's client slots. A client that finds it refusing falls
	 * back to the path socket, as libxcb does. */
	struct sockaddr_un sa;
	socklen_t len = abstract_addr(display, &sa);
	int fd = bind_to(&sa, len);
	if (fd < 0) {
		return error_set(err, fd, "cannot claim X display :%u (@%s): %s", display,
				 sa.sun_path + 1, strerror(-fd));
	}
	c->abstract_fd = fd;

	if (path_format(c->path, sizeof(c->path), "%s/X%u", dir, display) < 0) {
		return error_set(err, -ENAMETOOLONG, "the X socket directory %s is too long", dir);
	}
	r = clear_path(c->path);
	if (r < 0) {
		return error_set(err, r, "cannot claim X display :%u (%s): %s", display, c->path,
				 r == -EADDRINUSE ? "another user's server or file holds it"
						  : strerror(-r));
	}
	sa = (struct sockaddr_un){.sun_family = AF_UNIX};
	/* c->path fits: sun_path is the larger. */
	(void)path_format(sa.sun_path, sizeof(sa.sun_path), "%s", c->path);
	fd = bind_to(&sa, sizeof(sa));
	if (fd >= 0 && listen(fd, SOMAXCONN) < 0) {
		int saved = negative_errno();
		safe_close(fd);
		fd = saved;
	}
	if (fd < 0) {
		return error_set(err, fd, "cannot claim X display :%u (%s): %s", display, c->path,
				 strerror(-fd));
	}
	c->path_fd = fd;
	struct stat st;
	if (lstat(c->path, &st) == 0) {
		c->path_made = true;
		c->path_dev = st.st_dev;
		c->path_ino = st.st_ino;
	}
	return 0;
}

int claim_keymap(struct claim *c, const char *dir, struct error *err)
{
	uid_t owner;
	if (xsocket_keymap_squatted(dir, c->display, geteuid(), &owner) && geteuid() != 0) {
		return error_set(
			err, -EADDRINUSE,
			"cannot use X display :%u: %s/server-%u.xkm belongs to uid %u, and Xvnc's keymap compiler must create that file; this number counts as taken",
			c->display, dir, c->display, (unsigned)owner);
	}
	/* Ours (or, for root, anybody's) and left by a server that was killed mid-start: the
	 * compiler refuses to overwrite it. */
	char path[4096];
	if (path_format(path, sizeof(path), "%s/server-%u.xkm", dir, c->display) < 0) {
		return error_set(err, -ENAMETOOLONG, "the keymap path in %s is too long", dir);
	}
	if (unlink(path) < 0 && errno != ENOENT) {
		return error_set(err, -EADDRINUSE, "cannot use X display :%u: cannot remove %s: %s",
				 c->display, path, strerror(errno));
	}
	return 0;
}

/* A lock already there: 0 when it was stale and is gone, -EADDRINUSE when it stays. */
static int clear_lock(int dirfd, const char *name)
{
	char buf[64];
	int r = read_file_at(dirfd, name, buf, sizeof(buf), NULL);
	if (r == -ENOENT) {
		return 0;
	}
	pid_t pid;
	struct proc_stat st;
	if (r == 0 && xlock_parse(buf, &pid) == 0 && proc_stat_read(pid, &st) == 0 &&
	    proc_stat_is_live(&st)) {
		return -EADDRINUSE;
	}
	if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT) {
		return -EADDRINUSE;
	}
	return 0;
}

/* The temporary's name: X's own prefix never (.tX<n>-lock is a server's), and a random part
 * nobody can guess. The directory is shared: a name others could predict (our pid) was theirs to
 * create first, and a file of theirs we cannot remove in the sticky directory blocked every
 * start. */
#define TEMP_LOCK_TRIES 8

static int write_temp_lock(int dirfd, unsigned display, pid_t pid, char *ret_name, size_t size)
{
	int r = -EEXIST;
	for (int i = 0; i < TEMP_LOCK_TRIES && r == -EEXIST; i++) {
		uint64_t rnd;
		if (getrandom(&rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
			return -EIO;
		}
		r = path_format(ret_name, size, ".tX%u-lock.botdesk.%016llx", display,
				(unsigned long long)rnd);
		if (r < 0) {
			return r;
		}
		_cleanup_close_ int fd =
			openat(dirfd, ret_name,
			       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
		if (fd < 0) {
			r = negative_errno();
			continue;
		}
		char text[16];
		int n = snprintf(text, sizeof(text), "%10d\n", (int)pid);
		r = write_all(fd, text, (size_t)n);
		/* The mode X gives its locks, whatever our umask made of it. */
		if (r == 0 && fchmod(fd, 0444) < 0) {
			r = negative_errno();
		}
		if (r < 0) {
			(void)unlinkat(dirfd, ret_name, 0);
		}
		return r;
	}
	/* Names no one could have guessed, taken every time: whoever fills the directory holds
	 * the number, which another number may not suffer from. */
	return r == -EEXIST ? -EADDRINUSE : r;
}

int claim_lock(struct claim *c, const char *lock_dir, pid_t pid, struct error *err)
{
	c->lock_dirfd = open(lock_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->lock_dirfd < 0) {
		return error_set(err, negative_errno(), "cannot open the X lock directory %s: %s",
				 lock_dir, strerror(errno));
	}
	char tmp[64] = "";
	int r = path_format(c->lock_name, sizeof(c->lock_name), ".X%u-lock", c->display);
	if (r == 0) {
		r = write_temp_lock(c->lock_dirfd, c->display, pid, tmp, sizeof(tmp));
	}
	if (r < 0) {
		/* Any failure to write in the shared directory is this number's: exit 75 lets
		 * the runner try another (a squatter cannot block every start). */
		return error_set(
			err, -EADDRINUSE,
			"cannot write a temporary X lock in %s for :%u: %s; this number counts as taken",
			lock_dir, c->display, strerror(-r));
	}
	for (int attempt = 0; attempt < 3; attempt++) {
		if (linkat(c->lock_dirfd, tmp, c->lock_dirfd, c->lock_name, 0) == 0) {
			struct stat st;
			if (fstatat(c->lock_dirfd, c->lock_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
				c->lock_made = true;
				c->lock_pid = pid;
				c->lock_dev = st.st_dev;
				c->lock_ino = st.st_ino;
			}
			r = 0;
			break;
		}
		r = negative_errno();
		if (r != -EEXIST) {
			break;
		}
		r = clear_lock(c->lock_dirfd, c->lock_name);
		if (r < 0) {
			break;
		}
		r = -EADDRINUSE;
	}
	(void)unlinkat(c->lock_dirfd, tmp, 0);
	if (r < 0) {
		return error_set(err, r == -EEXIST ? -EADDRINUSE : r,
				 "cannot write the X lock %s/%s: %s", lock_dir, c->lock_name,
				 r == -EADDRINUSE || r == -EEXIST ? "another process holds it"
								  : strerror(-r));
	}
	return 0;
}

void claim_close_sockets(struct claim *c)
{
	c->path_fd = safe_close(c->path_fd);
}

void claim_release(struct claim *c)
{
	claim_close_sockets(c);
	c->abstract_fd = safe_close(c->abstract_fd);
	struct stat st;
	if (c->path_made && lstat(c->path, &st) == 0 && S_ISSOCK(st.st_mode) &&
	    st.st_uid == geteuid() && st.st_dev == c->path_dev && st.st_ino == c->path_ino) {
		(void)unlink(c->path);
	}
	c->path_made = false;
	/* The same inode and still naming our pid: an inode number alone may have been reused
	 * by a lock somebody wrote after ours was removed. */
	char text[32];
	pid_t pid;
	if (c->lock_made && fstatat(c->lock_dirfd, c->lock_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_dev == c->lock_dev && st.st_ino == c->lock_ino &&
	    read_file_at(c->lock_dirfd, c->lock_name, text, sizeof(text), NULL) == 0 &&
	    xlock_parse(text, &pid) == 0 && pid == c->lock_pid) {
		(void)unlinkat(c->lock_dirfd, c->lock_name, 0);
	}
	c->lock_made = false;
	c->lock_dirfd = safe_close(c->lock_dirfd);
}
