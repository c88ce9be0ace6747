/* filewait TIMEOUT_MS PATH: waits until PATH exists (as any kind of file, a dangling symlink
 * included), woken by inotify on its directory rather than by a polling interval. Exit 0 once it
 * exists, 1 when the bound passed first, 2 on a usage or system error. */
#include <libgen.h>
#include <poll.h>
#include <stdio.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>

#include "parse.h"
#include "util.h"

#define MAX_TIMEOUT_MS (600 * 1000)

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

int main(int argc, char **argv)
{
	uint64_t timeout_ms;
	if (argc != 3 || parse_u64(argv[1], MAX_TIMEOUT_MS, &timeout_ms) < 0) {
		fputs("usage: filewait TIMEOUT_MS PATH\n", stderr);
		return 2;
	}
	_cleanup_free_ char *copy = strdup(argv[2]);
	if (!copy) {
		return 2;
	}
	_cleanup_close_ int ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	/* Watch first, then look: a file created in between still wakes us. */
	if (ifd < 0 || inotify_add_watch(ifd, dirname(copy), IN_CREATE | IN_MOVED_TO) < 0) {
		perror("filewait: inotify");
		return 2;
	}
	uint64_t deadline = now_ms() + timeout_ms;
	while (!exists(argv[2])) {
		uint64_t now = now_ms();
		if (now >= deadline) {
			return 1;
		}
		struct pollfd p = {.fd = ifd, .events = POLLIN};
		if (poll(&p, 1, (int)(deadline - now)) < 0 && errno != EINTR) {
			perror("filewait: poll");
			return 2;
		}
		char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
		while (read(ifd, buf, sizeof(buf)) > 0) {
		}
	}
	return 0;
}
