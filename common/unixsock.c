#include "unixsock.h"

#include <sys/socket.h>

#include "util.h"

int unix_connect(const struct sockaddr_un *sa, int flags)
{
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags, 0);
	if (fd < 0) {
		return negative_errno();
	}
	if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) < 0) {
		return negative_errno();
	}
	return TAKE_FD(fd);
}
