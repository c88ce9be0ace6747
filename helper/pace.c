/* One install at a time per caller uid, with a pause between: a member looping `botdesk install`
 * kept dpkg's lock busy so that the administrator's own apt-get failed 7 tries of 8. Each uid has
 * a stamp file in a root-only directory; its mtime is when that uid's last install started or
 * ended, whichever is later, and the next may start only an interval after it. Nothing the
 * caller sends names a path here: the file's name is its uid, as a number. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>

#include "fileio.h"
#include "helper.h"
#include "util.h"

int pace_open_dir(const char *path)
{
	/* Made here when missing. One that is not root's own 0700 directory (a symlink, another
	 * owner, looser modes) was not made by us, and could hold stamps or links someone planted:
	 * refused. */
	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		return negative_errno();
	}
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return negative_errno();
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 077) != 0) {
		safe_close(fd);
		return -EPERM;
	}
	return fd;
}

/* The uid's stamp, opened; ret_fresh when it did not exist (no install of this uid yet). */
static int open_stamp(int dir, uid_t uid, bool *ret_fresh)
{
	char name[16];
	snprintf(name, sizeof(name), "%u", (unsigned)uid);
	int flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
	bool fresh = true;
	int fd = openat(dir, name, flags | O_CREAT | O_EXCL, 0600);
	if (fd < 0 && errno == EEXIST) {
		fresh = false;
		fd = openat(dir, name, flags);
	}
	if (fd < 0) {
		return negative_errno();
	}
	if (fd_is_own_regular(fd) < 0) {
		safe_close(fd);
		return -EPERM;
	}
	*ret_fresh = fresh;
	return fd;
}

static uint64_t ms_of(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000 + (uint64_t)ts->tv_nsec / 1000000;
}

int pace_start(const char *dir_path, uid_t uid, uint64_t interval_ms, uint64_t *ret_wait_ms)
{
	_cleanup_close_ int dir = pace_open_dir(dir_path);
	if (dir < 0) {
		return dir;
	}
	bool fresh;
	_cleanup_close_ int fd = open_stamp(dir, uid, &fresh);
	if (fd < 0) {
		return fd;
	}
	/* Another helper of this uid holds the stamp (its install runs): this one comes too soon.
	 * Only helpers can lock it (the file is root's), and none waits for the lock. */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK) {
			return negative_errno();
		}
		*ret_wait_ms = interval_ms;
		return -EAGAIN;
	}
	struct stat st;
	struct timespec now;
	if (fstat(fd, &st) < 0 || clock_gettime(CLOCK_REALTIME, &now) < 0) {
		return negative_errno();
	}
	/* Wall-clock time, as the mtime is: a stamp from the future (the clock was set back) does
	 * not hold anybody up. */
	uint64_t then = ms_of(&st.st_mtim), t = ms_of(&now);
	if (!fresh && then <= t && t - then < interval_ms) {
		*ret_wait_ms = interval_ms - (t - then);
		return -EAGAIN;
	}
	if (futimens(fd, NULL) < 0) {
		return negative_errno();
	}
	return TAKE_FD(fd);
}

void pace_end(int fd)
{
	/* The pause counts from the end too: a long install is not followed by the next at once. */
	if (fd >= 0) {
		(void)futimens(fd, NULL);
		safe_close(fd);
	}
}
