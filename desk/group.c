#include "group.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/pidfd.h>
#include <time.h>

#include "pidpin.h"
#include "proc.h"
#include "procwalk.h"
#include "timeutil.h"
#include "util.h"

/* After KILL, the kernel needs only to schedule the victims: well under a second when idle, and
 * two leave room for a loaded 2-core machine reaping a whole desktop. */
#define KILL_WAIT_MS 2000

struct members {
	pid_t pgid;
	pid_t *out;
	size_t cap, n;
};

static int add_member(pid_t pid, const struct proc_stat *st, void *userdata)
{
	struct members *m = userdata;
	if (st->pgid == m->pgid && m->n < m->cap) {
		m->out[m->n++] = pid;
	}
	return 0;
}

/* The live (non-zombie) members of process group pgid, by a /proc scan. */
static int group_live_members(pid_t pgid, pid_t *out, size_t cap, size_t *ret_n)
{
	struct members m = {.pgid = pgid, .out = out, .cap = cap};
	int r = proc_walk(add_member, &m);
	if (r < 0) {
		return r;
	}
	*ret_n = m.n;
	return 0;
}

/* Polls pidfds of the given processes until one exits or the deadline passes. */
static void wait_any_exit(const pid_t *pids, size_t n, uint64_t deadline)
{
	struct pollfd pfd[GROUP_MAX_MEMBERS];
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		int fd = pidfd_open(pids[i], 0);
		if (fd < 0) {
			/* Gone between the scan and now: the caller rescans at once. */
			for (size_t j = 0; j < m; j++) {
				safe_close(pfd[j].fd);
			}
			return;
		}
		pfd[m++] = (struct pollfd){.fd = fd, .events = POLLIN};
	}
	uint64_t now = now_ms();
	if (m > 0 && now < deadline) {
		(void)poll(pfd, m, (int)(deadline - now));
	}
	for (size_t j = 0; j < m; j++) {
		safe_close(pfd[j].fd);
	}
}

/* Waits until no member of pgid is alive, at most timeout_ms, waking on pidfds. -ETIMEDOUT when
 * members remain. */
static int group_wait_gone(pid_t pgid, uint64_t timeout_ms)
{
	uint64_t deadline = now_ms() + timeout_ms;
	pid_t members[GROUP_MAX_MEMBERS];
	for (;;) {
		size_t n;
		int r = group_live_members(pgid, members, ARRAY_SIZE(members), &n);
		if (r < 0) {
			return r;
		}
		if (n == 0) {
			return 0;
		}
		if (now_ms() >= deadline) {
			return -ETIMEDOUT;
		}
		wait_any_exit(members, n, deadline);
	}
}

int group_terminate(pid_t pgid, uint64_t grace_ms, bool *ret_signalled)
{
	if (!pid_is_plausible((uint64_t)pgid)) {
		return -EINVAL;
	}
	bool signalled = kill(-pgid, SIGTERM) == 0;
	if (ret_signalled) {
		*ret_signalled = signalled;
	}
	if (!signalled) {
		return errno == ESRCH ? 0 : negative_errno();
	}
	/* SIGCONT too: a stopped member would otherwise sit on its pending TERM until KILL. */
	(void)kill(-pgid, SIGCONT);
	int r = group_wait_gone(pgid, grace_ms);
	if (r != -ETIMEDOUT) {
		return r;
	}
	(void)kill(-pgid, SIGKILL);
	return group_wait_gone(pgid, KILL_WAIT_MS);
}

static int wait_pidfd(int fd, uint64_t timeout_ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int n = poll(&p, 1, (int)timeout_ms);
	return n > 0 ? 0 : -ETIMEDOUT;
}

int process_terminate(pid_t pid, uint64_t starttime, uint64_t grace_ms)
{
	/* From here on a signal can only reach the process we checked, even if the pid is recycled
	 * meanwhile. */
	struct proc_stat st;
	_cleanup_close_ int fd = pidpin_open(pid, starttime, &st);
	if (fd < 0) {
		return fd;
	}
	if (!proc_stat_is_live(&st)) {
		return 0;
	}
	int r = pidpin_send(fd, SIGTERM);
	if (r < 0) {
		return r == -ESRCH ? 0 : r;
	}
	if (wait_pidfd(fd, grace_ms) == 0) {
		return 0;
	}
	(void)pidpin_send(fd, SIGKILL);
	return wait_pidfd(fd, KILL_WAIT_MS);
}
