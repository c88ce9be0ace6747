#include "fileio.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return negative_errno();
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

ssize_t read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	size_t got = 0;
	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return negative_errno();
		}
		if (n == 0) {
			break;
		}
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int read_all_alloc(int fd, size_t max, char **ret_buf, size_t *ret_len)
{
	size_t cap = max < 4096 ? max : 4096, len = 0;
	_cleanup_free_ char *buf = malloc(cap + 1);
	if (!buf) {
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n = read_all(fd, buf + len, cap - len);
		if (n < 0) {
			return (int)n;
		}
		len += (size_t)n;
		if (len < cap || cap == max) {
			break;
		}
		cap = cap > max / 2 ? max : cap * 2;
		char *nb = realloc(buf, cap + 1);
		if (!nb) {
			return -ENOMEM;
		}
		buf = nb;
	}
	buf[len] = '\0';
	*ret_len = len;
	*ret_buf = TAKE_PTR(buf);
	return 0;
}

int fd_is_own_regular(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() ? 0 : -EPERM;
}

int open_regular_at(int dirfd, const char *name, int flags, mode_t mode)
{
	int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, mode);
	if (fd < 0) {
		return negative_errno();
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int r = negative_errno();
		safe_close(fd);
		return r;
	}
	/* A FIFO or device planted under our name could block us or feed us endless bytes. */
	if (!S_ISREG(st.st_mode)) {
		safe_close(fd);
		return -EINVAL;
	}
	return fd;
}

int read_file_at(int dirfd, const char *name, char *buf, size_t size, size_t *ret_len)
{
	if (size == 0) {
		return -EINVAL;
	}
	_cleanup_close_ int fd = open_regular_at(dirfd, name, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0) {
		return fd;
	}
	/* Read one byte more than fits, to tell "exactly full" from "too big". */
	ssize_t n = read_all(fd, buf, size);
	if (n < 0) {
		return (int)n;
	}
	if ((size_t)n >= size) {
		return -EFBIG;
	}
	buf[n] = '\0';
	if (ret_len) {
		*ret_len = (size_t)n;
	}
	return 0;
}

int write_file_atomic_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode)
{
	char tmp[256];
	int n = snprintf(tmp, sizeof(tmp), ".%s.tmp.%ld", name, (long)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		return -ENAMETOOLONG;
	}
	/* A leftover temporary of a crashed writer with our pid is ours to replace. */
	(void)unlinkat(dirfd, tmp, 0);
	_cleanup_close_ int fd =
		openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0) {
		return negative_errno();
	}
	int r = write_all(fd, data, len);
	if (r == 0 && fchmod(fd, mode) < 0) {
		r = negative_errno();
	}
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) < 0) {
		r = negative_errno();
	}
	if (r < 0) {
		(void)unlinkat(dirfd, tmp, 0);
	}
	return r;
}

int opendir_fd(int fd, DIR **ret)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		int r = negative_errno();
		safe_close(fd);
		return r;
	}
	*ret = d;
	return 0;
}

int unlink_at_if_exists(int dirfd, const char *name)
{
	if (unlinkat(dirfd, name, 0) < 0 && errno != ENOENT) {
		return negative_errno();
	}
	return 0;
}

static int mkdir_one(const char *path, mode_t mode)
{
	if (mkdir(path, mode) < 0) {
		return errno == EEXIST ? 0 : negative_errno();
	}
	/* mkdir() applies the umask; a private directory must be private whatever the caller's. */
	if (chmod(path, mode) < 0) {
		return negative_errno();
	}
	return 0;
}

int mkdir_p(const char *path, mode_t mode)
{
	_cleanup_free_ char *p = strdup(path);
	if (!p) {
		return -ENOMEM;
	}
	for (char *s = p + 1; *s; s++) {
		if (*s != '/') {
			continue;
		}
		*s = '\0';
		int r = mkdir_one(p, mode);
		*s = '/';
		if (r < 0) {
			return r;
		}
	}
	return mkdir_one(p, mode);
}

int write_file_atomic(const char *path, const void *data, size_t len, mode_t mode)
{
	_cleanup_free_ char *copy = strdup(path);
	if (!copy) {
		return -ENOMEM;
	}
	char *slash = strrchr(copy, '/');
	const char *dir = ".";
	if (slash) {
		dir = slash == copy ? "/" : copy;
	}
	const char *base = slash ? slash + 1 : copy;
	if (slash) {
		*slash = '\0';
	}
	if (!*base) {
		return -EISDIR;
	}
	_cleanup_close_ int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		return negative_errno();
	}
	return write_file_atomic_at(dfd, base, data, len, mode);
}

int write_user_file(const char *path, const void *data, size_t len)
{
	mode_t mask = umask(0);
	umask(mask);
	return write_file_atomic(path, data, len, 0666 & ~mask);
}
