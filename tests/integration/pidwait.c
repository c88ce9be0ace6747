/* pidwait TIMEOUT_MS PID...: waits until every PID has exited, a zombie counting as exited.
 *
 * The tests' event-driven wait for processes that are not their children: a pidfd turns
 * readable the moment its process exits, whoever reaps it and however late. Exit 0 when all are
 * gone, 1 when the bound passed first, 2 on a usage or system error. */
#include <poll.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <time.h>

#include "parse.h"
#include "util.h"

#define MAX_PIDS 64
#define MAX_TIMEOUT_MS (600 * 1000)

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	uint64_t timeout_ms;
	if (argc < 3 || argc - 2 > MAX_PIDS ||
	    parse_u64(argv[1], MAX_TIMEOUT_MS, &timeout_ms) < 0) {
		fputs("usage: pidwait TIMEOUT_MS PID...\n", stderr);
		return 2;
	}
	struct pollfd pfd[MAX_PIDS];
	size_t n = 0;
	for (int i = 2; i < argc; i++) {
		unsigned pid;
		if (parse_uint_range(argv[i], 1, 4194304, &pid) < 0) {
			fprintf(stderr, "pidwait: '%s' is not a pid\n", argv[i]);
			return 2;
		}
		int fd = pidfd_open((pid_t)pid, 0);
		if (fd < 0) {
			if (errno == ESRCH) {
				continue;
			}
			perror("pidwait: pidfd_open");
			return 2;
		}
		pfd[n++] = (struct pollfd){.fd = fd, .events = POLLIN};
	}
	uint64_t deadline = now_ms() + timeout_ms;
	size_t left = n;
	while (left > 0) {
		uint64_t now = now_ms();
		if (now >= deadline) {
			return 1;
		}
		int r = poll(pfd, n, (int)(deadline - now));
		if (r < 0 && errno != EINTR) {
			perror("pidwait: poll");
			return 2;
		}
		for (size_t i = 0; i < n; i++) {
			if (pfd[i].fd >= 0 && pfd[i].revents) {
				pfd[i].fd = safe_close(pfd[i].fd);
				left--;
			}
		}
	}
	return 0;
}
