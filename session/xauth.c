#include "xauth.h"

#include <X11/Xauth.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>

#include "util.h"

int xauth_cookie_new(struct xauth_cookie *ret)
{
	size_t got = 0;
	while (got < sizeof(ret->data)) {
		ssize_t n = getrandom(ret->data + got, sizeof(ret->data) - got, 0);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return negative_errno();
		}
		got += (size_t)n;
	}
	return 0;
}

/* Splits path into an opened parent directory and the last component. */
static int open_parent(const char *path, int *ret_dirfd, char **ret_base)
{
	_cleanup_free_ char *d = strdup(path);
	_cleanup_free_ char *b = strdup(path);
	if (!d || !b) {
		return -ENOMEM;
	}
	int fd = open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		return negative_errno();
	}
	char *base = strdup(basename(b));
	if (!base) {
		safe_close(fd);
		return -ENOMEM;
	}
	*ret_dirfd = fd;
	*ret_base = base;
	return 0;
}

int xauth_write(const char *path, unsigned display, const struct xauth_cookie *cookie,
		struct error *err)
{
	struct utsname u;
	if (uname(&u) < 0) {
		return error_set(err, negative_errno(), "cannot learn the host name: %s",
				 strerror(errno));
	}
	char number[16];
	snprintf(number, sizeof(number), "%u", display);
	/* libXau's struct wants mutable buffers. */
	char name[] = XAUTH_COOKIE_NAME;
	char data[XAUTH_COOKIE_LEN];
	memcpy(data, cookie->data, sizeof(data));
	Xauth entry = {
		.family = FamilyLocal,
		.address_length = (unsigned short)strlen(u.nodename),
		.address = u.nodename,
		.number_length = (unsigned short)strlen(number),
		.number = number,
		.name_length = (unsigned short)strlen(XAUTH_COOKIE_NAME),
		.name = name,
		.data_length = XAUTH_COOKIE_LEN,
		.data = data,
	};

	_cleanup_close_ int dirfd = -1;
	_cleanup_free_ char *base = NULL;
	int r = open_parent(path, &dirfd, &base);
	if (r < 0) {
		return error_set(err, r, "cannot open the directory of %s: %s", path, strerror(-r));
	}
	char tmp[256];
	snprintf(tmp, sizeof(tmp), ".%s.tmp.%ld", base, (long)getpid());
	(void)unlinkat(dirfd, tmp, 0);
	int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		return error_set(err, negative_errno(), "cannot create %s: %s", path,
				 strerror(errno));
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		r = negative_errno();
		safe_close(fd);
		goto fail;
	}
	bool ok = XauWriteAuth(f, &entry) == 1;
	ok = fflush(f) == 0 && ok;
	ok = fclose(f) == 0 && ok;
	if (!ok) {
		r = -EIO;
		goto fail;
	}
	explicit_bzero(data, sizeof(data));
	if (renameat(dirfd, tmp, dirfd, base) < 0) {
		r = negative_errno();
		goto fail;
	}
	return 0;
fail:
	(void)unlinkat(dirfd, tmp, 0);
	return error_set(err, r, "cannot write the X cookie to %s: %s", path, strerror(-r));
}
