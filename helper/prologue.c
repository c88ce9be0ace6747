/* Start-up hardening: everything the caller could have arranged before exec (fds, signals, timers,
 * limits, scheduling, dumpability) is put back into a known state before the helper does anything
 * else. */
#include <fcntl.h>
#include <linux/ioprio.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>

#include "helper.h"
#include "util.h"

/* The kernel's usual timer slack (init's): 50 microseconds. */
#define TIMER_SLACK_NS 50000

int prologue_timers(void)
{
	/* Interval timers survive exec (alarm() is ITIMER_REAL): a caller's timer would kill us
	 * with SIGALRM, SIGVTALRM or SIGPROF once we are root, and leave the package manager
	 * running with no timeout, no group kill and the host lock gone. The timer slack survives
	 * too, and a huge one would let each of our timeouts fire hours late. */
	static const int timers[] = {ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF};
	for (size_t i = 0; i < ARRAY_SIZE(timers); i++) {
		struct itimerval off = {{0, 0}, {0, 0}};
		if (setitimer(timers[i], &off, NULL) < 0) {
			return negative_errno();
		}
	}
	if (prctl(PR_SET_TIMERSLACK, TIMER_SLACK_NS, 0, 0, 0) < 0) {
		return negative_errno();
	}
	return 0;
}

int prologue_stdio(void)
{
	/* With fd 2 closed, the next open() would become "stderr" and our messages would land in
	 * whatever file that is (polkit#429). Fill any hole in 0-2 with /dev/null first. */
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0) {
			continue;
		}
		if (errno != EBADF) {
			return negative_errno();
		}
		int nfd = open("/dev/null", O_RDWR | O_NOCTTY);
		if (nfd < 0) {
			return negative_errno();
		}
		if (nfd != fd) {
			safe_close(nfd);
			return -EBADF;
		}
	}
	return 0;
}

int prologue_socket(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		return -ENOTSOCK;
	}
	int v;
	socklen_t len = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &v, &len) < 0 || v != AF_UNIX) {
		return -EPROTOTYPE;
	}
	len = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &len) < 0 || v != SOCK_SEQPACKET) {
		return -EPROTOTYPE;
	}
	/* The peer must be the caller itself: a socket connected to somebody else's service
	 * (another uid) would make us talk on their behalf. */
	struct ucred cred;
	len = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || len != sizeof(cred)) {
		return -EPERM;
	}
	if (cred.uid != getuid()) {
		return -EPERM;
	}
	/* No SO_SNDTIMEO or SO_RCVTIMEO here: the caller can hold a dup of this very socket and
	 * change them. Every wait on it is a poll() against our own clock instead. */
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
		return negative_errno();
	}
	return 0;
}

void prologue_close_fds(int keep_upto)
{
	/* close_range() in one call, not a loop to RLIMIT_NOFILE that can take minutes
	 * (polkit#572); glibc falls back to /proc/self/fd on old kernels. */
	closefrom(keep_upto + 1);
}

int prologue_signals_default(void)
{
	struct sigaction sa = {.sa_handler = SIG_DFL};
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP) {
			continue;
		}
		/* glibc reserves two real-time signals for itself and refuses them: harmless. */
		if (sigaction(sig, &sa, NULL) < 0 && errno != EINVAL) {
			return negative_errno();
		}
	}
	sigset_t none;
	sigemptyset(&none);
	if (sigprocmask(SIG_SETMASK, &none, NULL) < 0) {
		return negative_errno();
	}
	return 0;
}

int prologue_signals(void)
{
	/* A caller's SIG_IGN survives exec; so does its signal mask. Start from the defaults. */
	int r = prologue_signals_default();
	if (r < 0) {
		return r;
	}
	/* Writes to a runner that went away must fail with EPIPE, not kill us mid-install. */
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR) {
		return negative_errno();
	}
	return 0;
}

int prologue_no_dump(void)
{
	/* Not dumpable: the caller (our real uid) can neither ptrace us nor read our memory, and no
	 * core file of a root process lands where the caller chose. */
	struct rlimit none = {0, 0};
	if (setrlimit(RLIMIT_CORE, &none) < 0 || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		return negative_errno();
	}
	return 0;
}

static int set_limit(int resource, rlim_t soft, rlim_t hard, rlim_t floor)
{
	struct rlimit want = {soft, hard}, cur;
	if (setrlimit(resource, &want) == 0) {
		return 0;
	}
	/* Without CAP_SYS_RESOURCE (Docker's default capability set) not even root may raise a
	 * hard limit: the caller's stands. It is kept only when an install can run to its end
	 * under it; init's limits are no way out (prlimit() on pid 1 needs that same capability
	 * while our real uid is the caller's). */
	if (errno != EPERM) {
		return negative_errno();
	}
	if (getrlimit(resource, &cur) < 0) {
		return negative_errno();
	}
	if (cur.rlim_max < floor) {
		return -EPERM;
	}
	want.rlim_max = cur.rlim_max;
	want.rlim_cur = soft < cur.rlim_max ? soft : cur.rlim_max;
	if (setrlimit(resource, &want) < 0) {
		return negative_errno();
	}
	return 0;
}

int prologue_rlimits(void)
{
	/* Limits the caller set survive exec and would reach apt-get and dpkg as root: a file size
	 * of 0 kills dpkg with SIGXFSZ half-way through unpacking, which leaves a half-installed
	 * package and a journal that breaks every later apt run on the host. The package manager
	 * gets this table instead. Where a hard limit cannot be raised, one at least at the floor
	 * is kept (soft raised as far as it goes), and one below it is refused (-EPERM). */
	static const struct {
		int resource;
		rlim_t soft, hard, floor;
	} limits[] = {
		/* CPU time counts from before the exec: any limit would let the caller kill us
		 * (SIGXCPU, then SIGKILL) in the middle of an install. */
		{RLIMIT_CPU, RLIM_INFINITY, RLIM_INFINITY, RLIM_INFINITY},
		{RLIMIT_RTTIME, RLIM_INFINITY, RLIM_INFINITY, RLIM_INFINITY},
		{RLIMIT_FSIZE, RLIM_INFINITY, RLIM_INFINITY, RLIM_INFINITY},
		{RLIMIT_DATA, RLIM_INFINITY, RLIM_INFINITY, RLIM_INFINITY},
		{RLIMIT_AS, RLIM_INFINITY, RLIM_INFINITY, RLIM_INFINITY},
		{RLIMIT_STACK, 8u << 20, RLIM_INFINITY, 8u << 20},
		{RLIMIT_NOFILE, 1024, 524288, 1024},
		{RLIMIT_NPROC, RLIM_INFINITY, RLIM_INFINITY, 4096},
		{RLIMIT_SIGPENDING, 65536, 65536, 1024},
		{RLIMIT_MSGQUEUE, 819200, 819200, 819200},
		{RLIMIT_MEMLOCK, 8u << 20, 8u << 20, 64u << 10},
		/* Linux enforces neither: set for a known state, any value will do. */
		{RLIMIT_RSS, RLIM_INFINITY, RLIM_INFINITY, 0},
		{RLIMIT_LOCKS, RLIM_INFINITY, RLIM_INFINITY, 0},
		/* Lowering, which always works. */
		{RLIMIT_NICE, 0, 0, 0},
		{RLIMIT_RTPRIO, 0, 0, 0},
	};
	for (size_t i = 0; i < ARRAY_SIZE(limits); i++) {
		int r = set_limit(limits[i].resource, limits[i].soft, limits[i].hard,
				  limits[i].floor);
		if (r < 0) {
			return r;
		}
	}
	return 0;
}

int prologue_oom(void)
{
	/* oom_score_adj survives exec, and any user may raise its own: at 1000 dpkg would be the
	 * OOM killer's first victim, killed half-way through an unpack. Root's default instead.
	 * Lowering it needs CAP_SYS_RESOURCE only below a floor set by a privileged writer (never
	 * the caller): where that forbids 0, -EACCES, and the helper refuses. */
	int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		return negative_errno();
	}
	int r = write(fd, "0", 1) == 1 ? 0 : negative_errno();
	safe_close(fd);
	return r;
}

int prologue_sched(void)
{
	/* The caller's nice value, scheduling policy, I/O priority and CPU affinity survive exec
	 * and would be inherited by apt and dpkg: an install at nice 19, SCHED_IDLE and idle I/O
	 * on one CPU holds the host lock for as long as the caller likes. Root's defaults instead
	 * (SCHED_OTHER also clears SCHED_RESET_ON_FORK and makes RLIMIT_RTTIME moot). */
	struct sched_param param = {.sched_priority = 0};
	cpu_set_t all;
	CPU_ZERO(&all);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		CPU_SET(cpu, &all);
	}
	if (setpriority(PRIO_PROCESS, 0, 0) < 0 || sched_setscheduler(0, SCHED_OTHER, &param) < 0 ||
	    syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		    IOPRIO_PRIO_VALUE(IOPRIO_CLASS_NONE, 0)) < 0 ||
	    sched_setaffinity(0, sizeof(all), &all) < 0) {
		return negative_errno();
	}
	return 0;
}
