#include "lockfile.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/time.h>
#include <time.h>

#include "fileio.h"
#include "util.h"

static void on_alarm(int sig)
{
	(void)sig;
}

static bool past(const struct timespec *deadline)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec ||
	       (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

/* The same on an open fd. */
static int lockfile_wait(int fd, uint64_t timeout_ms)
{
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		return 0;
	}
	if (errno != EWOULDBLOCK) {
		return negative_errno();
	}
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += (time_t)(timeout_ms / 1000);
	deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	/* Block in flock() and let a timer interrupt it: the kernel wakes us the moment the holder
	 * lets go, with no polling interval. SA_RESTART is off, so flock returns EINTR. The timer
	 * repeats, so a tick that lands before flock() has blocked is followed by another, and the
	 * deadline is kept on our own clock. */
	struct sigaction sa = {.sa_handler = on_alarm}, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	/* Ticks of 100 ms at the most, never of 0 (which would disarm the timer). */
	uint64_t tick_ms = timeout_ms < 100 ? timeout_ms : 100;
	if (tick_ms == 0) {
		tick_ms = 1;
	}
	struct timeval tick = {.tv_sec = (time_t)(tick_ms / 1000),
			       .tv_usec = (suseconds_t)(tick_ms % 1000) * 1000};
	struct itimerval it = {.it_interval = tick, .it_value = tick}, none = {0};
	setitimer(ITIMER_REAL, &it, NULL);
	int r;
	do {
		r = flock(fd, LOCK_EX) == 0 ? 0 : negative_errno();
	} while (r == -EINTR && !past(&deadline));
	setitimer(ITIMER_REAL, &none, NULL);
	sigaction(SIGALRM, &old, NULL);
	return r == -EINTR ? -ETIMEDOUT : r;
}

int lockfile_take(int dirfd, const char *path, uint64_t timeout_ms)
{
	_cleanup_close_ int fd = open_regular_at(dirfd, path, O_RDWR | O_CREAT, 0600);
	if (fd < 0) {
		return fd;
	}
	int r = lockfile_wait(fd, timeout_ms);
	if (r < 0) {
		return r;
	}
	return TAKE_FD(fd);
}
