#include "claim.h"

#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "fileio.h"
#include "parse.h"
#include "proc.h"
#include "util.h"
#include "xlock.h"

void claim_init(struct claim *c)
{
	*c = (struct claim){.abstract_fd = -1, .path_fd = -1, .lock_dirfd = -1};
}

/* The X socket directory is shared by every user: sticky and world-writable, as the X server
 * (or systemd-tmpfiles) makes it. */
static int ensure_socket_dir(struct error *err)
{
	if (mkdir(CLAIM_SOCKET_DIR, 01777) == 0) {
		/* mkdir obeys the umask; the directory must still be writable by all. */
		if (chmod(CLAIM_SOCKET_DIR, 01777) < 0) {
			return error_set(err, negative_errno(), "cannot chmod %s: %s",
					 CLAIM_SOCKET_DIR, strerror(errno));
		}
		return 0;
	}
	if (errno != EEXIST) {
		return error_set(err, negative_errno(), "cannot create %s: %s", CLAIM_SOCKET_DIR,
				 strerror(errno));
	}
	struct stat st;
	if (lstat(CLAIM_SOCKET_DIR, &st) < 0 || !S_ISDIR(st.st_mode)) {
		return error_set(err, -ENOTDIR,
				 "%s is not a directory; X servers need it to be one (ask the "
				 "administrator to remove it)",
				 CLAIM_SOCKET_DIR);
	}
	return 0;
}

static socklen_t abstract_addr(unsigned display, struct sockaddr_un *sa)
{
	*sa = (struct sockaddr_un){.sun_family = AF_UNIX};
	/* An abstract name starts with a NUL and has no terminator: its length is part of it, and
	 * it must be the same length X clients connect to. */
	int n = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, CLAIM_SOCKET_DIR "/X%u",
			 display);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

static int listen_on(const struct sockaddr_un *sa, socklen_t len, bool world_connectable)
{
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return negative_errno();
	}
	/* X makes its path socket connectable by anyone (the cookie is the gate), whatever our
	 * umask. */
	mode_t old = world_connectable ? umask(0) : 0;
	int r = bind(fd, (const struct sockaddr *)sa, len);
	if (world_connectable) {
		umask(old);
	}
	if (r < 0 || listen(fd, SOMAXCONN) < 0) {
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
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
		if (fd < 0) {
			return negative_errno();
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

int claim_sockets(struct claim *c, unsigned display, struct error *err)
{
	c->display = display;
	int r = ensure_socket_dir(err);
	if (r < 0) {
		return r;
	}
	/* The abstract name first: it is the one atomic claim, and holding it means no server
	 * that listens there can be using the path. */
	struct sockaddr_un sa;
	socklen_t len = abstract_addr(display, &sa);
	int fd = listen_on(&sa, len, false);
	if (fd < 0) {
		return error_set(err, fd, "cannot claim X display :%u (@%s): %s", display,
				 sa.sun_path + 1, strerror(-fd));
	}
	c->abstract_fd = fd;

	snprintf(c->path, sizeof(c->path), CLAIM_SOCKET_DIR "/X%u", display);
	r = clear_path(c->path);
	if (r < 0) {
		return error_set(err, r, "cannot claim X display :%u (%s): %s", display, c->path,
				 r == -EADDRINUSE ? "another user's server or file holds it"
						  : strerror(-r));
	}
	sa = (struct sockaddr_un){.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", c->path);
	fd = listen_on(&sa, sizeof(sa), true);
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

static int write_temp_lock(int dirfd, const char *tmp, pid_t pid)
{
	(void)unlinkat(dirfd, tmp, 0);
	_cleanup_close_ int fd =
		openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
	if (fd < 0) {
		return negative_errno();
	}
	char text[16];
	int n = snprintf(text, sizeof(text), "%10d\n", (int)pid);
	int r = write_all(fd, text, (size_t)n);
	/* The mode X gives its locks, whatever our umask made of it. */
	if (r == 0 && fchmod(fd, 0444) < 0) {
		r = negative_errno();
	}
	return r;
}

int claim_lock(struct claim *c, const char *lock_dir, pid_t pid, struct error *err)
{
	c->lock_dirfd = open(lock_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->lock_dirfd < 0) {
		return error_set(err, negative_errno(), "cannot open the X lock directory %s: %s",
				 lock_dir, strerror(errno));
	}
	snprintf(c->lock_name, sizeof(c->lock_name), ".X%u-lock", c->display);
	/* Not X's own temporary name (.tX<n>-lock): ours cannot collide with a server's. */
	char tmp[64];
	snprintf(tmp, sizeof(tmp), ".tX%u-lock.botdesk.%ld", c->display, (long)getpid());
	int r = write_temp_lock(c->lock_dirfd, tmp, pid);
	if (r < 0) {
		return error_set(err, r, "cannot write %s/%s: %s", lock_dir, tmp, strerror(-r));
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
	c->abstract_fd = safe_close(c->abstract_fd);
	c->path_fd = safe_close(c->path_fd);
}

void claim_release(struct claim *c)
{
	claim_close_sockets(c);
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
