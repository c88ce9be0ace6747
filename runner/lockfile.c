#include "lockfile.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/time.h>

#include "fileio.h"
#include "util.h"

static void on_alarm(int sig)
{
	(void)sig;
}

int lockfile_wait(int fd, uint64_t timeout_ms)
{
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		return 0;
	}
	if (errno != EWOULDBLOCK) {
		return negative_errno();
	}
	/* Block in flock() and let a one-shot timer interrupt it: the kernel wakes us the moment
	 * the holder lets go, with no polling interval. SA_RESTART is off so flock returns EINTR.
	 */
	struct sigaction sa = {.sa_handler = on_alarm}, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old);
	struct itimerval it = {.it_value = {.tv_sec = (time_t)(timeout_ms / 1000),
					    .tv_usec = (suseconds_t)(timeout_ms % 1000) * 1000}};
	if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0) {
		it.it_value.tv_usec = 1;
	}
	struct itimerval none = {0};
	setitimer(ITIMER_REAL, &it, NULL);
	int r = flock(fd, LOCK_EX) == 0 ? 0 : negative_errno();
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
