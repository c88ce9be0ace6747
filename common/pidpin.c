#include "pidpin.h"

#include <signal.h>
#include <sys/pidfd.h>

#include "util.h"

int pidpin_open(pid_t pid, uint64_t starttime, struct proc_stat *ret_st)
{
	if (!pid_is_plausible((uint64_t)pid)) {
		return -ESRCH;
	}
	/* pidfd_open gives O_CLOEXEC without being asked. */
	_cleanup_close_ int fd = pidfd_open(pid, 0);
	if (fd < 0) {
		return negative_errno();
	}
	struct proc_stat st;
	if (proc_stat_read(pid, &st) < 0 || st.starttime != starttime) {
		return -ESRCH;
	}
	*ret_st = st;
	return TAKE_FD(fd);
}

int pidpin_send(int pidfd, int sig)
{
	return pidfd_send_signal(pidfd, sig, NULL, 0) < 0 ? negative_errno() : 0;
}
