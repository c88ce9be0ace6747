#include "launch.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>

#include "deskcg.h"
#include "display.h"
#include "envallow.h"
#include "envfile.h"
#include "exitstatus.h"
#include "fileio.h"
#include "group.h"
#include "hostscan.h"
#include "launcher.h"
#include "log.h"
#include "parse.h"
#include "spawnproc.h"
#include "timeutil.h"
#include "util.h"
#include "viewdoor.h"

#define LOG_TAIL_BYTES 2000
/* The size of the probe that tells why a log is empty: a message and a little more. */
#define LOG_PROBE_PAGES 4

extern char **environ;

/* In the child, its fds in place, before the exec: only async-signal-safe calls. userdata is
 * the cgroup.procs fd, or -1. */
static int launcher_setup(void *userdata)
{
	const int *cgfd = userdata;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	/* A session of its own: its process group is its whole desktop, which stop and the
	 * deadline signal as one, and no terminal of ours can signal it. */
	if (setsid() < 0) {
		return negative_errno();
	}
	/* Into the desktop's own cgroup before exec: everything the desktop starts is born there,
	 * under its limit. A desktop that cannot get in must not run unlimited. */
	ssize_t n = *cgfd >= 0 ? write(*cgfd, "0", 1) : 1;
	if (n != 1) {
		int r = n < 0 ? negative_errno() : -EIO;
		static const char msg[] = "botdesk: cannot move the launcher into its cgroup\n";
		(void)!write(2, msg, sizeof(msg) - 1);
		return r;
	}
	return 0;
}

struct launch {
	const struct settings *s;
	struct profile *p;
	unsigned display;
	pid_t pid;
	int pidfd;
	int alloc_fd;
	uint64_t deadline; /* monotonic ms: the start's */
	int cgfd;          /* the desktop's own cgroup.procs, or -1 */
	char cgdir[CGROUP_PATH_MAX];
};

static int spawn(struct launch *l, int notifyfd, struct error *err)
{
	struct profile *p = l->p;
	int logfd = open_regular_at(p->dirfd, STATE_LOG, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (logfd < 0) {
		return error_set(err, logfd, "cannot open %s/%s for the launcher's output: %s%s",
				 p->dir, STATE_LOG, strerror(-logfd),
				 logfd == -ELOOP ? " (a symbolic link: remove it)" : "");
	}
	int nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	uint64_t now = now_ms();
	char **env = launch_environment((const char *const *)environ, l->s, p, l->display,
					l->deadline > now ? l->deadline - now : 1);
	_cleanup_free_ char *path = strdup(l->s->launcher);
	char *const argv[] = {path, NULL};
	int r = 0;
	if (nullfd < 0 || !env || !path) {
		r = error_set(err, -ENOMEM, "cannot prepare the launcher's environment");
		goto out;
	}
	/* The handshake's pipe on its announced number: the one fd beyond 0-2 the launcher gets. */
	const struct spawn_fd fds[] = {
		{nullfd, 0}, {logfd, 1}, {logfd, 2}, {notifyfd, LAUNCHER_NOTIFY_FD}};
	bool in_setup = false;
	const struct spawn_opts o = {.fds = fds,
				     .n_fds = ARRAY_SIZE(fds),
				     .child_setup = launcher_setup,
				     .userdata = &l->cgfd,
				     .ret_setup_failed = &in_setup};
	pid_t pid;
	r = spawn_program(path, argv, env, &o, &pid);
	if (r < 0) {
		r = error_set(err, r,
			      in_setup ? "cannot move the launcher into its cgroup: %s"
				       : "cannot start the launcher: %s",
			      strerror(-r));
		goto out;
	}
	l->pid = pid;
	/* Our own unreaped child cannot be recycled, so this pidfd is the launcher's. */
	l->pidfd = pidfd_open(pid, 0);
	if (l->pidfd < 0) {
		r = error_set(err, negative_errno(), "cannot watch the launcher: %s",
			      strerror(errno));
		/* Unwatched, it must not live on: it has had no time to start anything. */
		(void)kill(-pid, SIGKILL);
		(void)kill(pid, SIGKILL);
		(void)waitpid(pid, NULL, 0);
	}
out:
	launch_environment_free(env);
	safe_close(nullfd);
	safe_close(logfd);
	return r;
}

static bool published(struct profile *p)
{
	char buf[4096];
	struct envfile e;
	struct stat st;
	return envfile_read(p->dirfd, STATE_ENV, buf, sizeof(buf), &e) == 0 &&
	       envfile_get(&e, "DISPLAY") &&
	       fstatat(p->dirfd, STATE_SOCKET, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* The last lines of the launcher's log, for an error message. */
static void log_tail(struct profile *p, char *buf, size_t size)
{
	buf[0] = '\0';
	_cleanup_close_ int fd = open_regular_at(p->dirfd, STATE_LOG, O_RDONLY, 0);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		return;
	}
	off_t from = st.st_size > LOG_TAIL_BYTES ? st.st_size - LOG_TAIL_BYTES : 0;
	size_t want = size - 1 < LOG_TAIL_BYTES ? size - 1 : LOG_TAIL_BYTES;
	ssize_t n = pread(fd, buf, want, from);
	if (n <= 0) {
		return;
	}
	buf[n] = '\0';
	/* Start at a whole line when we cut into the middle of one. */
	char *start = buf;
	if (from > 0 && (start = strchr(buf, '\n'))) {
		start++;
	} else {
		start = buf;
	}
	size_t len = strlen(start);
	while (len > 0 && start[len - 1] == '\n') {
		start[--len] = '\0';
	}
	memmove(buf, start, len + 1);
}

/* Undoes everything a failed launch left: its processes, its published files, its number.
 * Returns the launcher's wait status (0 when it could not be collected). */
static int abandon(struct launch *l)
{
	/* The leader is reaped only after its group is gone: while it is an unreaped zombie its
	 * pid, and so the group id we signal, cannot be recycled. */
	(void)group_terminate(l->pid, LAUNCHER_STOP_GRACE_MS, NULL);
	int status = 0;
	if (waitpid(l->pid, &status, WNOHANG) <= 0) {
		status = 0;
	}
	deskcg_remove(l->cgdir);
	int fd = l->p->dirfd;
	(void)unlink_at_if_exists(fd, STATE_PIDFILE);
	(void)unlink_at_if_exists(fd, STATE_ENV);
	(void)unlink_at_if_exists(fd, STATE_SOCKET);
	/* A number that just failed must not be reused first next time, or every retry wedges. */
	(void)unlink_at_if_exists(fd, STATE_DISPLAY);
	return status;
}

enum wait_outcome { WAIT_PUBLISHED, WAIT_EXITED, WAIT_TIMEOUT, WAIT_INTERRUPTED, WAIT_UNPUBLISHED };

static void release_alloc(struct launch *l)
{
	l->alloc_fd = safe_close(l->alloc_fd);
}

static void release_allocp(struct launch **l)
{
	release_alloc(*l);
}

/* One line of the handshake; true for "ready". The session is the user's own program, but its
 * word alone lets nobody else allocate: the lock must name a live server, as before. */
static bool notify_line(struct launch *l, const char *line)
{
	unsigned n;
	if (startswith(line, LAUNCHER_NOTIFY_CLAIMED) && l->alloc_fd >= 0 &&
	    parse_uint_range(line + strlen(LAUNCHER_NOTIFY_CLAIMED), 0, 65535, &n) == 0 &&
	    n == l->display && display_lock_live(l->s->x_lock_dir, l->display, NULL)) {
		release_alloc(l);
	}
	return streq(line, LAUNCHER_NOTIFY_READY);
}

/* Reads what the launcher wrote into buf (holding *len bytes of an unfinished line). 1: it said
 * ready; 0: more may come; -EPIPE: it closed its end, or wrote a line no handshake has. */
static int notify_read(struct launch *l, int fd, char *buf, size_t *len)
{
	ssize_t n = read(fd, buf + *len, LAUNCHER_NOTIFY_LINE_MAX - *len);
	if (n < 0) {
		return errno == EINTR || errno == EAGAIN ? 0 : -EPIPE;
	}
	if (n == 0) {
		return -EPIPE;
	}
	*len += (size_t)n;
	char *nl;
	while ((nl = memchr(buf, '\n', *len))) {
		*nl = '\0';
		bool ready = notify_line(l, buf);
		size_t used = (size_t)(nl + 1 - buf);
		memmove(buf, nl + 1, *len - used);
		*len -= used;
		if (ready) {
			return 1;
		}
	}
	return *len >= LAUNCHER_NOTIFY_LINE_MAX ? -EPIPE : 0;
}

/* Waits for the launcher's "ready", its exit, a signal or the deadline, releasing the allocation
 * lock at its "claimed" so other profiles never queue behind our bring-up. Only a launcher this
 * start just spawned is waited for: one it adopted is up already. */
static enum wait_outcome wait_launch(struct launch *l, int notifyfd, int sigfd, uint64_t deadline)
{
	char buf[LAUNCHER_NOTIFY_LINE_MAX];
	size_t len = 0;
	for (;;) {
		uint64_t now = now_ms();
		if (now >= deadline) {
			return WAIT_TIMEOUT;
		}
		/* After EOF, -1: poll skips it and the launcher's exit or the deadline decides. */
		struct pollfd pfd[3] = {{.fd = sigfd, .events = POLLIN},
					{.fd = l->pidfd, .events = POLLIN},
					{.fd = notifyfd, .events = POLLIN}};
		int n = poll(pfd, 3, (int)(deadline - now));
		if (n < 0 && errno != EINTR) {
			return WAIT_TIMEOUT;
		}
		if (pfd[0].revents & POLLIN) {
			return WAIT_INTERRUPTED;
		}
		if (pfd[1].revents & POLLIN) {
			/* It may have published just before exiting: that is still a failure, since
			 * the desktop it published is gone with it. Not reaped here: see abandon().
			 */
			return WAIT_EXITED;
		}
		if (!pfd[2].revents) {
			continue;
		}
		int r = notify_read(l, notifyfd, buf, &len);
		if (r == -EPIPE) {
			notifyfd = -1;
		} else if (r == 1) {
			/* Its word is checked here too: a start reports only a desktop that is
			 * there. */
			return published(l->p) ? WAIT_PUBLISHED : WAIT_UNPUBLISHED;
		}
	}
}

/* Why the launcher's log may be empty: a write beside it fails now (a full file system, a quota,
 * a read-only mount), so whatever the launcher said was lost. Probed with an unnamed temporary
 * file of a few pages, which vanishes on close. Empty when writing works. */
static void why_log_empty(struct profile *p, char *buf, size_t size)
{
	buf[0] = '\0';
	int e = 0;
	_cleanup_close_ int fd = openat(p->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		e = errno == EOPNOTSUPP || errno == EISDIR ? 0 : errno;
	} else {
		static const char zeros[4096];
		for (int i = 0; i < LOG_PROBE_PAGES && e == 0; i++) {
			int r = write_all(fd, zeros, sizeof(zeros));
			e = r < 0 ? -r : 0;
		}
	}
	if (e == 0) {
		return;
	}
	struct statvfs sv;
	if (fstatvfs(p->dirfd, &sv) == 0) {
		unsigned long long kb = (unsigned long long)sv.f_bavail * sv.f_frsize / 1024;
		snprintf(
			buf, size,
			"(nothing: it could not be written, %s; the file system holding %s has %llu KB free and %llu free inodes. Free some space there, or point BOTDESK_STATE_DIR elsewhere, and start again)",
			strerror(e), p->dir, kb, (unsigned long long)sv.f_favail);
	} else {
		snprintf(
			buf, size,
			"(nothing: it could not be written, %s. Free some space on the file system holding %s, or point BOTDESK_STATE_DIR elsewhere, and start again)",
			strerror(e), p->dir);
	}
}

/* The first of a and b that says something, else fallback. */
static const char *first_said(const char *a, const char *b, const char *fallback)
{
	if (a[0]) {
		return a;
	}
	return b[0] ? b : fallback;
}

static int fail_exited(struct launch *l, bool *ret_taken, struct error *err)
{
	char how[128], tail[LOG_TAIL_BYTES + 1], why[1024] = "";
	int status = abandon(l);
	exit_status_describe(status, EXIT_STATUS_SENTENCE, how, sizeof(how));
	*ret_taken = WIFEXITED(status) && WEXITSTATUS(status) == LAUNCHER_EXIT_COLLISION;
	log_tail(l->p, tail, sizeof(tail));
	if (!tail[0]) {
		why_log_empty(l->p, why, sizeof(why));
	}
	return error_set(
		err, -ECHILD,
		"the desktop launcher %s before publishing its desktop on :%u. Its log, %s/%s, ends with:\n%s",
		how, l->display, l->p->dir, STATE_LOG, first_said(tail, why, "(nothing)"));
}

/* With max_memory_mb, the desktop gets a cgroup of its own where one can be made. */
static int own_cgroup(struct launch *l, struct error *err)
{
	const struct settings *s = l->s;
	if (s->max_memory_mb == 0) {
		return 0;
	}
	struct deskcg_base b;
	deskcg_find(s, true, &b);
	if (!b.ok) {
		desk_warn(
			s,
			"max_memory_mb = %llu is not enforced: %s. To have it: %s ('botdesk doctor' shows this too)",
			(unsigned long long)s->max_memory_mb, b.why, b.fix);
		return 0;
	}
	deskcg_sweep(&b);
	int r = deskcg_create(&b, l->display, l->p->name, s->max_memory_mb, l->cgdir,
			      sizeof(l->cgdir), err);
	if (r < 0) {
		l->cgdir[0] = '\0';
		return r;
	}
	l->cgfd = deskcg_open_procs(l->cgdir);
	if (l->cgfd < 0) {
		r = l->cgfd;
		deskcg_remove(l->cgdir);
		l->cgdir[0] = '\0';
		return error_set(err, r, "cannot open the cgroup.procs of the desktop's cgroup: %s",
				 strerror(-r));
	}
	return 0;
}

/* What the wait's outcome makes of the attempt: anything but published leaves nothing running. */
static int wait_result(struct launch *l, enum wait_outcome w, bool *ret_taken, struct error *err)
{
	struct profile *p = l->p;
	switch (w) {
	case WAIT_PUBLISHED:
		return 0;
	case WAIT_EXITED:
		return fail_exited(l, ret_taken, err);
	case WAIT_INTERRUPTED:
		abandon(l);
		return error_set(
			err, -EINTR,
			"interrupted: the launch on :%u was stopped and nothing of it is left running",
			l->display);
	case WAIT_UNPUBLISHED:
		abandon(l);
		return error_set(
			err, -EPROTO,
			"the desktop launcher said its desktop on :%u was ready, but %s/%s or %s/%s is missing; the launch was stopped and nothing of it is left running. Its log is %s/%s",
			l->display, p->dir, STATE_ENV, p->dir, STATE_SOCKET, p->dir, STATE_LOG);
	case WAIT_TIMEOUT:
	default:
		abandon(l);
		return error_set(
			err, -ETIMEDOUT,
			"the desktop did not publish within the wait; the launch on :%u was stopped and nothing of it is left running. Its log is %s/%s; retry with a longer --wait if the host is slow",
			l->display, p->dir, STATE_LOG);
	}
}

static int one_attempt(struct launch *l, uint64_t deadline, const unsigned *lost, size_t n_lost,
		       int sigfd, bool *ret_taken, struct identity *ret, struct error *err)
{
	const struct settings *s = l->s;
	struct profile *p = l->p;
	uint64_t now = now_ms();
	l->deadline = deadline;
	l->alloc_fd = display_alloc_lock(s, deadline > now ? deadline - now : 1, err);
	if (l->alloc_fd < 0) {
		return l->alloc_fd;
	}
	/* Held until the attempt ends whichever way, unless wait_launch() lets it go sooner. */
	_unused_ _cleanup_(release_allocp) struct launch *held = l;
	/* Under the allocation lock every earlier start of ours has its X lock: the count is exact.
	 */
	int r = hostscan_check_cap(s, err);
	if (r < 0) {
		return r;
	}
	r = n_lost == 0 ? display_pick(s, p->dirfd, 0, &l->display, err)
			: display_pick_spread(s, lost, n_lost, &l->display, err);
	if (r < 0) {
		return r;
	}
	char num[16];
	int nl = snprintf(num, sizeof(num), "%u\n", l->display);
	r = write_file_atomic_at(p->dirfd, STATE_DISPLAY, num, (size_t)nl, 0600);
	if (r < 0) {
		return error_set(err, r, "cannot record the display in %s: %s", p->dir,
				 strerror(-r));
	}
	/* Old published files would make a new launch look ready before it is. */
	(void)unlink_at_if_exists(p->dirfd, STATE_ENV);
	(void)unlink_at_if_exists(p->dirfd, STATE_SOCKET);
	r = own_cgroup(l, err);
	if (r < 0) {
		(void)unlink_at_if_exists(p->dirfd, STATE_DISPLAY);
		return r;
	}

	/* The handshake (common/launcher.h): our copy of the write end goes once the launcher has
	 * its own, so its closing is EOF here. */
	_cleanup_close_pair_ int notify[2] = {-1, -1};
	if (pipe2(notify, O_CLOEXEC) < 0) {
		r = error_set(err, negative_errno(), "pipe: %s", strerror(errno));
		(void)unlink_at_if_exists(p->dirfd, STATE_DISPLAY);
		return r;
	}
	r = spawn(l, notify[1], err);
	notify[1] = safe_close(notify[1]);
	if (r < 0) {
		(void)unlink_at_if_exists(p->dirfd, STATE_DISPLAY);
		return r;
	}
	r = identity_write(p->dirfd, l->pid, ret);
	if (r < 0) {
		abandon(l);
		return error_set(err, r, "cannot record the launcher in %s: %s", p->dir,
				 strerror(-r));
	}
	enum wait_outcome w = wait_launch(l, notify[0], sigfd, deadline);
	/* Now, not at the return: other starts must not queue behind our failure's teardown. */
	release_alloc(l);
	return wait_result(l, w, ret_taken, err);
}

int launch_desktop(const struct settings *s, struct profile *p, uint64_t wait_ms,
		   struct identity *ret, struct error *err)
{
	uint64_t deadline = now_ms() + wait_ms;
	/* Ctrl-C or a TERM while we wait must take the half-started desktop down with us. */
	sigset_t mask, old;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, &old);
	_cleanup_close_ int sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	int r = -EAGAIN;
	unsigned lost[LAUNCH_MAX_ATTEMPTS];
	size_t n_lost = 0;
	struct error last_lost = {{0}};
	int last_lost_r = 0;
	for (int attempt = 0; attempt < LAUNCH_MAX_ATTEMPTS && r < 0; attempt++) {
		struct launch l = {.s = s, .p = p, .pidfd = -1, .alloc_fd = -1, .cgfd = -1};
		bool taken = false;
		struct error attempt_err = {{0}};
		r = one_attempt(&l, deadline, lost, n_lost, sigfd, &taken, ret, &attempt_err);
		safe_close(l.pidfd);
		safe_close(l.cgfd);
		if (r < 0) {
			deskcg_remove(l.cgdir); /* whatever path failed: an empty one goes */
		}
		if (r == 0) {
			break;
		}
		if (r == -EBUSY && n_lost > 0) {
			/* The band ran out because other users' servers took the numbers we
			 * tried: the last launcher's own words say more than "the band is full". */
			error_set(err, last_lost_r, "%s", last_lost.msg);
			break;
		}
		if (!taken || attempt == LAUNCH_MAX_ATTEMPTS - 1 || now_ms() >= deadline) {
			error_set(err, r, "%s", attempt_err.msg);
			break;
		}
		last_lost = attempt_err;
		last_lost_r = r;
		/* Another user's server took the number between our check and the launcher's
		 * claim (our allocation lock is per user). Again, on a number picked at random
		 * among the free ones: another user's starts race us for the lowest free number,
		 * and the next lowest is where we would meet them again. Each number at most
		 * once, so this ends. */
		desk_warn(
			s,
			"display :%u was taken by another X server as the desktop started; retrying on another number",
			l.display);
		lost[n_lost++] = l.display;
	}
	/* An interrupted launch consumes the signal that interrupted it: restoring the mask with
	 * it still pending would kill us before main() could say what happened to the launch. A
	 * signal that arrives after a success stays pending for the caller (botdesk run waits
	 * for exactly that). */
	struct signalfd_siginfo si;
	while (r == -EINTR && sigfd >= 0 && read(sigfd, &si, sizeof(si)) == sizeof(si)) {
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}
