#include "screensize.h"

#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "util.h"

static int open_dir(const char *env_path)
{
	_cleanup_free_ char *d = strdup(env_path);
	if (!d) {
		return -ENOMEM;
	}
	int fd = open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? negative_errno() : fd;
}

int screensize_publish(const char *env_path, unsigned w, unsigned h)
{
	_cleanup_close_ int dirfd = open_dir(env_path);
	if (dirfd < 0) {
		return dirfd;
	}
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%ux%u\n", w, h);
	return write_file_atomic_at(dirfd, SCREENSIZE_FILE, buf, (size_t)n, 0600);
}

void screensize_remove(const char *env_path)
{
	_cleanup_close_ int dirfd = open_dir(env_path);
	if (dirfd >= 0) {
		(void)unlink_at_if_exists(dirfd, SCREENSIZE_FILE);
	}
}
