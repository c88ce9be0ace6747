#include "supervisor.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "array.h"
#include "fileio.h"
#include "log.h"
#include "parse.h"
#include "pidpin.h"
#include "proc.h"
#include "procwalk.h"
#include "timeutil.h"
#include "util.h"

#define MAX_DESCENDANTS 512
/* A process that appears below us without waking us (forked after a scan, or orphaned by a
 * grandchild, which is not our child to report) is found by the next scan at the latest. */
#define RESCAN_MS 100

static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGCHLD);
}

int supervisor_init(struct supervisor *s)
{
	*s = (struct supervisor)SUPERVISOR_INIT;
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		return negative_errno();
	}
	sigset_t set;
	stop_signals(&set);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0) {
		return negative_errno();
	}
	/* A viewer or log reader that goes away must not kill the supervisor. */
	signal(SIGPIPE, SIG_IGN);
	s->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s->sigfd < 0) {
		return negative_errno();
	}
	return 0;
}

void supervisor_done(struct supervisor *s)
{
	s->sigfd = safe_close(s->sigfd);
}

int supervisor_watch(struct supervisor *s, const char *name, pid_t pid, bool essential)
{
	if (s->n >= SUPERVISOR_MAX_CHILDREN) {
		return -E2BIG;
	}
	struct sv_child *c = &s->children[s->n++];
	*c = (struct sv_child){.pid = pid, .essential = essential, .running = true};
	snprintf(c->name, sizeof(c->name), "%s", name);
	return 0;
}

static void reap(struct supervisor *s)
{
	for (;;) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);
		if (pid <= 0) {
			return;
		}
		log_debug("reaped pid %ld", (long)pid);
		for (size_t i = 0; i < s->n; i++) {
			struct sv_child *c = &s->children[i];
			if (c->pid == pid && c->running) {
				c->running = false;
				c->status = status;
				if (c->essential && !s->ended) {
					s->ended = c;
				}
			}
		}
	}
}

/* Drains the signalfd: records a stop request, reaps on CHLD. */
static void handle_signals(struct supervisor *s)
{
	struct signalfd_siginfo si;
	while (read(s->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo != SIGCHLD && s->stop_signal == 0) {
			s->stop_signal = (int)si.ssi_signo;
		}
	}
	reap(s);
}

/* The signalfd, fd and the log's pipes, in that order; how many. */
static nfds_t wait_set(const struct supervisor *s, int fd, struct pollfd *p)
{
	p[0] = (struct pollfd){.fd = s->sigfd, .events = POLLIN};
	/* A negative fd is skipped by poll(2). */
	p[1] = (struct pollfd){.fd = fd, .events = POLLIN};
	return 2 + (s->log ? logrelay_pollfds(s->log, p + 2) : 0);
}

static void pump_log(struct supervisor *s)
{
	if (s->log) {
		logrelay_pump(s->log);
	}
}

int supervisor_wait(struct supervisor *s, int fd, uint64_t deadline_ms)
{
	for (;;) {
		handle_signals(s);
		if (s->stop_signal) {
			return -EINTR;
		}
		if (s->ended) {
			return -ECHILD;
		}
		int timeout = -1;
		if (deadline_ms) {
			uint64_t now = now_ms();
			if (now >= deadline_ms) {
				return 0;
			}
			timeout = (int)(deadline_ms - now);
		}
		struct pollfd p[2 + LOGRELAY_MAX_SOURCES];
		int n = poll(p, wait_set(s, fd, p), timeout);
		if (n < 0 && errno != EINTR) {
			return negative_errno();
		}
		pump_log(s);
		if (n > 0 && fd >= 0 && p[1].revents) {
			handle_signals(s);
			if (s->stop_signal) {
				return -EINTR;
			}
			return 1;
		}
	}
}

const struct sv_child *supervisor_cause(struct supervisor *s, const char *server, uint64_t wait_ms)
{
	const struct sv_child *x = NULL;
	for (size_t i = 0; i < s->n; i++) {
		if (streq(s->children[i].name, server)) {
			x = &s->children[i];
		}
	}
	if (!s->ended || !x || x == s->ended) {
		return s->ended;
	}
	uint64_t until = now_ms() + wait_ms;
	for (uint64_t now = now_ms(); x->running && now < until; now = now_ms()) {
		struct pollfd p = {.fd = s->sigfd, .events = POLLIN};
		if (poll(&p, 1, (int)(until - now)) > 0) {
			handle_signals(s);
		}
	}
	return x->running ? s->ended : x;
}

/* Every live process below us, found through /proc: a walk over parent links that also covers
 * what a component started and left behind in a session of its own. */
static size_t collect_descendants(pid_t root, struct sv_proc *out, size_t max);

size_t supervisor_descendants(struct sv_proc *out, size_t max)
{
	return collect_descendants(getpid(), out, max);
}

/* Appends pid's children (of every thread) to out[*n]; -ENOENT without children files. */
static int children_of(pid_t pid, struct sv_proc *out, size_t *n, size_t max)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	_cleanup_closedir_ DIR *d = opendir(path);
	if (!d) {
		return negative_errno();
	}
	struct dirent *de;
	while ((de = readdir(d)) && *n < max) {
		char buf[4096], file[300];
		if (de->d_name[0] == '.' || snprintf(file, sizeof(file), "%s/%s/children", path,
						     de->d_name) >= (int)sizeof(file)) {
			continue;
		}
		int r = read_file_at(AT_FDCWD, file, buf, sizeof(buf), NULL);
		if (r == -ENOENT && pid == getpid()) {
			return r; /* no children files in this kernel */
		}
		for (char *p = r < 0 ? NULL : buf, *f;
		     p && (f = strtok_r(p, " \n", &p)) && *n < max;) {
			unsigned c;
			struct proc_stat st;
			if (parse_uint_range(f, 2, INT32_MAX, &c) == 0 &&
			    proc_stat_read((pid_t)c, &st) == 0) {
				out[(*n)++] = (struct sv_proc){(pid_t)c, pid, st.starttime};
			}
		}
	}
	return 0;
}

size_t supervisor_tree(struct sv_proc *out, size_t max)
{
	size_t n = 0;
	if (children_of(getpid(), out, &n, max) == -ENOENT) {
		return collect_descendants(getpid(), out, max);
	}
	/* Breadth-first: out[] doubles as the queue of members still to expand. */
	for (size_t next = 0; next < n; next++) {
		(void)children_of(out[next].pid, out, &n, max);
	}
	return n;
}

struct proc_list {
	struct sv_proc *v;
	size_t n, cap;
};

static int add_proc(pid_t pid, const struct proc_stat *st, void *userdata)
{
	struct proc_list *l = userdata;
	if (ARRAY_RESERVE(l->v, l->cap, l->n + 1, 256) < 0) {
		/* Short of memory, work with what the walk found so far. */
		return -ENOMEM;
	}
	l->v[l->n++] = (struct sv_proc){pid, st->ppid, st->starttime};
	return 0;
}

static size_t collect_descendants(pid_t root, struct sv_proc *out, size_t max)
{
	struct proc_list l = {0};
	(void)proc_walk(add_proc, &l);
	struct sv_proc *procs = l.v;
	size_t n = l.n;
	/* Breadth-first from root: out[] doubles as the queue of parents still to expand. */
	size_t found = 0, next = 0;
	pid_t parent = root;
	for (;;) {
		for (size_t i = 0; i < n && found < max; i++) {
			if (procs[i].ppid == parent) {
				out[found++] = procs[i];
			}
		}
		if (next >= found) {
			break;
		}
		parent = out[next++].pid;
	}
	free(procs);
	return found;
}

int supervisor_signal(const struct sv_proc *p, int sig)
{
	/* Pinned to the process the scan found (the same start time), and still below us: the
	 * parent the scan saw, or us once that parent is gone and we inherited it as the
	 * subreaper. From then on the signal can only reach that process, even if it ends and its
	 * pid is recycled meanwhile. */
	struct proc_stat st;
	_cleanup_close_ int fd = pidpin_open(p->pid, p->starttime, &st);
	if (fd < 0) {
		return fd;
	}
	if ((st.ppid != p->ppid && st.ppid != getpid()) || !proc_stat_is_live(&st)) {
		return -ESRCH;
	}
	return pidpin_send(fd, sig);
}

static bool has_children(void)
{
	return waitid(P_ALL, 0, NULL, WEXITED | WNOHANG | WNOWAIT) == 0;
}

static bool seen_before(const struct sv_proc *seen, size_t n, const struct sv_proc *p)
{
	for (size_t i = 0; i < n; i++) {
		if (seen[i].pid == p->pid && seen[i].starttime == p->starttime) {
			return true;
		}
	}
	return false;
}

static void stop_all(struct supervisor *s, uint64_t grace_ms);

void supervisor_stop_all(struct supervisor *s, uint64_t grace_ms)
{
	stop_all(s, grace_ms);
	/* Their last words, unfinished lines included. */
	if (s->log) {
		logrelay_flush(s->log);
	}
}

static void stop_all(struct supervisor *s, uint64_t grace_ms)
{
	uint64_t kill_at = now_ms() + grace_ms;
	uint64_t give_up = kill_at + SUPERVISOR_KILL_WAIT_MS;
	struct sv_proc termed[MAX_DESCENDANTS];
	size_t n_termed = 0;
	for (;;) {
		reap(s);
		if (!has_children()) {
			return;
		}
		uint64_t now = now_ms();
		if (now >= give_up) {
			return;
		}
		bool killing = now >= kill_at;
		struct sv_proc procs[MAX_DESCENDANTS];
		size_t n = collect_descendants(getpid(), procs, ARRAY_SIZE(procs));
		for (size_t i = 0; i < n; i++) {
			if (killing) {
				(void)supervisor_signal(&procs[i], SIGKILL);
			} else if (!seen_before(termed, n_termed, &procs[i])) {
				/* CONT too: a stopped process would sit on its TERM until the KILL.
				 */
				if (supervisor_signal(&procs[i], SIGTERM) == 0) {
					(void)supervisor_signal(&procs[i], SIGCONT);
				}
				if (n_termed < ARRAY_SIZE(termed)) {
					termed[n_termed++] = procs[i];
				}
			}
		}
		/* Wake on the next child's end, or rescan soon for what did not wake us. */
		struct pollfd p[2 + LOGRELAY_MAX_SOURCES];
		uint64_t until = killing ? give_up : kill_at;
		uint64_t wait = until - now < RESCAN_MS ? until - now : RESCAN_MS;
		(void)poll(p, wait_set(s, -1, p), (int)wait);
		pump_log(s);
		struct signalfd_siginfo si;
		while (read(s->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		}
	}
}
