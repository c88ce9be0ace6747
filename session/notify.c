#include "notify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "launcher.h"
#include "util.h"

int notify_take(int fd)
{
	if (fd < 0) {
		return 0;
	}
	/* First, before anything can fork. */
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
		return negative_errno();
	}
	struct stat st;
	int fl = fcntl(fd, F_GETFL);
	if (fstat(fd, &st) < 0 || fl < 0) {
		return negative_errno();
	}
	return S_ISFIFO(st.st_mode) && (fl & O_ACCMODE) == O_WRONLY ? 0 : -EINVAL;
}

void notify_send(int *fd, const char *line)
{
	if (*fd < 0) {
		return;
	}
	char buf[LAUNCHER_NOTIFY_LINE_MAX];
	int n = snprintf(buf, sizeof(buf), "%s\n", line);
	/* SIGPIPE is ignored (supervisor_init): a runner gone is EPIPE here, not our death. */
	if (n < 0 || (size_t)n >= sizeof(buf) || write_all(*fd, buf, (size_t)n) < 0) {
		*fd = safe_close(*fd);
	}
}

void notify_finish(int *fd, const char *line)
{
	notify_send(fd, line);
	*fd = safe_close(*fd);
}
