#include "webctl.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "pathjoin.h"
#include "unixsock.h"
#include "util.h"

/* How long --ticket waits for the server's answer. */
#define TICKET_WAIT_MS 2000

int webctl_lock(int dirfd)
{
	_cleanup_close_ int fd =
		openat(dirfd, WEB_LOCK, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		return negative_errno();
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		return errno == EWOULDBLOCK ? -EBUSY : negative_errno();
	}
	return TAKE_FD(fd);
}

static int ctl_addr(int dirfd, struct sockaddr_un *sa)
{
	*sa = (struct sockaddr_un){.sun_family = AF_UNIX};
	/* Through the directory fd: its path may be longer than a socket address holds. */
	return path_format(sa->sun_path, sizeof(sa->sun_path), "/proc/self/fd/%d/%s", dirfd,
			   WEB_CTL_SOCK);
}

int webctl_listen(int dirfd)
{
	struct sockaddr_un sa;
	int r = ctl_addr(dirfd, &sa);
	if (r < 0) {
		return r;
	}
	/* Under web.lock: whatever is there is a dead server's. */
	if (unlinkat(dirfd, WEB_CTL_SOCK, 0) < 0 && errno != ENOENT) {
		return negative_errno();
	}
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		return negative_errno();
	}
	mode_t old = umask(0177);
	r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (r < 0 || listen(fd, 8) < 0) {
		return negative_errno();
	}
	return TAKE_FD(fd);
}

int webctl_ticket(int dirfd, char *out, size_t size)
{
	struct sockaddr_un sa;
	int r = ctl_addr(dirfd, &sa);
	if (r < 0) {
		return r;
	}
	_cleanup_close_ int fd = unix_connect(&sa, 0);
	if (fd < 0) {
		return fd;
	}
	size_t got = 0;
	while (got + 1 < size) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int n = poll(&p, 1, TICKET_WAIT_MS);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return n < 0 ? negative_errno() : -ETIMEDOUT;
		}
		ssize_t k = read(fd, out + got, size - 1 - got);
		if (k < 0) {
			return negative_errno();
		}
		if (k == 0) {
			break;
		}
		got += (size_t)k;
	}
	out[got] = '\0';
	char *nl = strchr(out, '\n');
	if (!nl) {
		return -EPROTO;
	}
	*nl = '\0';
	return 0;
}
