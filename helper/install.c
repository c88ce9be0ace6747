/* Running the package manager: as full root, in its own session, with a fixed argv and
 * environment and a cut bounding set; its output relayed line by line; bounded in time, with the
 * whole process group stopped at the end. */
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "fileio.h"
#include "helper.h"
#include "policy.h"
#include "util.h"

/* The package manager's whole environment. Nothing of the caller's: APT_CONFIG, LD_PRELOAD,
 * GCONV_PATH, LOCPATH and friends would each be a way into a root process. */
static const char *const base_env[] = {
	"PATH=/usr/sbin:/usr/bin:/sbin:/bin",
	"HOME=/root",
	"LC_ALL=C.UTF-8",
	"DEBIAN_FRONTEND=noninteractive",
	"DEBCONF_NONINTERACTIVE_SEEN=true",
	"APT_LISTCHANGES_FRONTEND=none",
};

/* Exit statuses of our own child before the package manager runs. */
#define CHILD_SETUP_FAILED 126
#define CHILD_EXEC_FAILED 127

/* What the output said, to turn an exit status into a cause the user can act on. */
enum {
	SAW_NOT_FOUND = 1 << 0,
	SAW_LOCKED = 1 << 1,
	SAW_DOWNLOAD = 1 << 2,
};

static const struct {
	const char *text;
	unsigned flag;
} patterns[] = {
	{"Unable to locate package", SAW_NOT_FOUND},      /* apt */
	{"has no installation candidate", SAW_NOT_FOUND}, /* apt */
	{"No match for argument", SAW_NOT_FOUND},         /* dnf 4 and 5 */
	{"Unable to find a match", SAW_NOT_FOUND},        /* dnf 4 */
	{"Could not get lock", SAW_LOCKED},               /* apt */
	{"is another process using it", SAW_LOCKED},      /* apt */
	{"Failed to obtain rpm transaction lock", SAW_LOCKED},
	{"Failed to fetch", SAW_DOWNLOAD}, /* apt */
	{"Temporary failure resolving", SAW_DOWNLOAD},
	{"Unable to fetch some archives", SAW_DOWNLOAD},
	{"Failed to download", SAW_DOWNLOAD}, /* dnf */
	{"Cannot download", SAW_DOWNLOAD},
};

/* What dpkg-query and apt-cache said of each package of the policy. */
#define VERSION_MAX 128
struct installed {
	const char *const *pkgs; /* the set asked about (apt's names) */
	size_t current;          /* the package apt-cache policy is describing, or SIZE_MAX */
	struct {
		bool dpkg_ok; /* "ii ": wanted, installed, no error */
		char version[VERSION_MAX];
		char candidate[VERSION_MAX];
	} pkg[32];
};

enum phase { RUNNING, TERM_SENT, KILL_SENT, GAVE_UP };

struct job {
	pid_t leader; /* also the process group: the child called setsid() */
	int out;      /* read end of the output pipe; -1 once at EOF */
	int sigfd;
	bool leader_done, group_empty, timed_out;
	int status;
	enum phase phase;
	uint64_t deadline; /* the whole install's */
	uint64_t next;     /* the next escalation step, 0 when none is due */
	unsigned saw;
	char line[PROTO_LINE_MAX];
	size_t len;
	struct reply *reply;
	struct installed *query; /* a query's lines go here, never to the runner */
};

_noreturn_ static void child_exec(const char *const *argv, const char *const *envp, int devnull,
				  int out)
{
	/* A session of its own: no controlling terminal to read from or to push input into
	 * (TIOCSTI), and one process group we can stop as a whole. */
	if (setsid() < 0) {
		_exit(CHILD_SETUP_FAILED);
	}
	/* Full root, real uid included: the caller can no longer signal or ptrace anything that
	 * runs from here. */
	if (setgroups(0, NULL) < 0 || setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0) {
		_exit(CHILD_SETUP_FAILED);
	}
	uid_t ru, eu, su;
	if (getresuid(&ru, &eu, &su) < 0 || ru != 0 || eu != 0 || su != 0) {
		_exit(CHILD_SETUP_FAILED);
	}
	if (dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) {
		_exit(CHILD_SETUP_FAILED);
	}
	closefrom(3);
	if (prologue_signals_default() < 0) {
		_exit(CHILD_SETUP_FAILED);
	}
	/* Last, so the cut is what the exec'd program starts with: root gets its permitted set
	 * from the bounding set at exec, and so does every maintainer script after it. */
	if (caps_bound_install() < 0) {
		_exit(CHILD_SETUP_FAILED);
	}
	/* execve() takes char *const[] for historical reasons; it never writes to them. */
	union {
		const char *const *c;
		char *const *m;
	} a = {.c = argv}, e = {.c = envp};
	execve(argv[0], a.m, e.m);
	_exit(CHILD_EXEC_FAILED);
}

static void query_line(struct installed *q, const char *line, size_t len);

static void flush_line(struct job *j)
{
	if (j->query) {
		query_line(j->query, j->line, j->len);
		j->len = 0;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(patterns); i++) {
		if (memmem(j->line, j->len, patterns[i].text, strlen(patterns[i].text))) {
			j->saw |= patterns[i].flag;
		}
	}
	reply_line(j->reply, j->line, j->len);
	j->len = 0;
}

static void feed(struct job *j, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			flush_line(j);
			continue;
		}
		j->line[j->len++] = buf[i];
		if (j->len == sizeof(j->line)) {
			flush_line(j);
		}
	}
}

static void reap(struct job *j)
{
	/* We are the subreaper, so every member of the group that outlives its parent comes back
	 * to us: no child of ours left in the group means the group is empty. The leader is reaped
	 * with the rest, and while any member lives its pid cannot be reused as a group id. */
	for (;;) {
		int st;
		pid_t p = waitpid(-j->leader, &st, WNOHANG);
		if (p > 0) {
			if (p == j->leader) {
				j->leader_done = true;
				j->status = st;
			}
			continue;
		}
		if (p < 0 && errno == EINTR) {
			continue;
		}
		j->group_empty = p < 0;
		return;
	}
}

static void escalate(struct job *j, uint64_t now, uint64_t grace_ms)
{
	if (j->phase == RUNNING) {
		j->phase = TERM_SENT;
		if (!j->group_empty) {
			kill(-j->leader, SIGTERM);
		}
	} else if (j->phase == TERM_SENT) {
		j->phase = KILL_SENT;
		if (!j->group_empty) {
			kill(-j->leader, SIGKILL);
		}
	} else {
		/* A grace after KILL and still not done: a process stuck in the kernel, or one that
		 * left the group and took the pipe along. Report rather than hang. */
		j->phase = GAVE_UP;
	}
	j->next = now + grace_ms;
}

static void step(struct job *j, const struct helper_settings *hs)
{
	uint64_t now = now_ms();
	if (!j->timed_out && now >= j->deadline) {
		j->timed_out = true;
		j->phase = RUNNING;
		escalate(j, now, hs->grace_ms);
	} else if (j->next && now >= j->next) {
		escalate(j, now, hs->grace_ms);
	} else if (j->leader_done && !j->next) {
		/* The leader is gone; what it left in its group gets a grace to finish, then the
		 * same TERM and KILL. */
		j->next = now + hs->grace_ms;
	}
	uint64_t wake = j->timed_out ? j->next : j->deadline;
	if (j->next && j->next < wake) {
		wake = j->next;
	}
	now = now_ms();
	int timeout = wake > now ? helper_poll_ms(wake - now) : 0;
	/* The runner's socket is watched only while replies wait for room, and nothing here
	 * waits on it: a runner that stops reading loses lines, never the timeout or the kill. */
	bool pending = j->reply && reply_pending(j->reply);
	struct pollfd fds[3] = {
		{.fd = j->sigfd, .events = POLLIN},
		{.fd = j->out, .events = POLLIN},
		{.fd = pending ? j->reply->fd : -1, .events = POLLOUT},
	};
	if (poll(fds, ARRAY_SIZE(fds), timeout) < 0) {
		return;
	}
	if (fds[2].revents) {
		reply_flush(j->reply);
	}
	if (j->out >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
		char buf[4096];
		ssize_t n = read(j->out, buf, sizeof(buf));
		if (n > 0) {
			feed(j, buf, (size_t)n);
		} else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			if (j->len > 0) {
				flush_line(j);
			}
			safe_close(j->out);
			j->out = -1;
		}
	}
	if (fds[0].revents & POLLIN) {
		struct signalfd_siginfo si;
		while (read(j->sigfd, &si, sizeof(si)) == sizeof(si)) {
		}
	}
	reap(j);
}

static enum proto_outcome outcome_of(const struct job *j, int32_t *ret_detail)
{
	*ret_detail = 0;
	if (j->timed_out) {
		return PROTO_TIMEOUT;
	}
	if (!j->leader_done) {
		return PROTO_INTERNAL;
	}
	if (WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0) {
		return PROTO_OK;
	}
	int code = WIFEXITED(j->status) ? WEXITSTATUS(j->status) : 128 + WTERMSIG(j->status);
	*ret_detail = code;
	if (code == CHILD_SETUP_FAILED || code == CHILD_EXEC_FAILED) {
		return PROTO_INTERNAL;
	}
	if (j->saw & SAW_LOCKED) {
		return PROTO_LOCKED;
	}
	if (j->saw & SAW_NOT_FOUND) {
		return PROTO_NOT_IN_REPOS;
	}
	if (j->saw & SAW_DOWNLOAD) {
		return PROTO_DOWNLOAD_FAILED;
	}
	return PROTO_FAILED;
}

/* Runs argv as root and waits for it and its process group, by the deadline. Its output is
 * relayed to r, or, for a query, parsed into query and shown to nobody. */
static enum proto_outcome run_job(const struct helper_settings *hs, const char *const *argv,
				  uint64_t deadline, struct reply *r, struct installed *query,
				  int32_t *ret_detail)
{
	*ret_detail = 0;
	char cmdline[PROTO_LINE_MAX];
	if (!query && decide_command_line(argv, cmdline + 2, sizeof(cmdline) - 2) == 0) {
		cmdline[0] = '+';
		cmdline[1] = ' ';
		reply_line(r, cmdline, strlen(cmdline));
	}
	const char *envp[ARRAY_SIZE(base_env) + 2];
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_SIZE(base_env); i++) {
		envp[n++] = base_env[i];
	}
	if (hs->extra_env) {
		envp[n++] = hs->extra_env;
	}
	envp[n] = NULL;

	_cleanup_close_ int devnull = open("/dev/null", O_RDWR | O_CLOEXEC | O_NOCTTY);
	int pipefd[2];
	if (devnull < 0 || pipe2(pipefd, O_CLOEXEC) < 0) {
		return PROTO_INTERNAL;
	}
	/* SIGCHLD arrives through a signalfd, so the loop below waits on events only. */
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	struct job j = {.out = pipefd[0], .deadline = deadline, .reply = r, .query = query};
	j.sigfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (j.sigfd < 0 || sigprocmask(SIG_BLOCK, &chld, NULL) < 0) {
		safe_close(pipefd[0]);
		safe_close(pipefd[1]);
		safe_close(j.sigfd);
		return PROTO_INTERNAL;
	}
	j.leader = fork();
	if (j.leader == 0) {
		child_exec(argv, envp, devnull, pipefd[1]);
	}
	safe_close(pipefd[1]);
	if (j.leader < 0) {
		safe_close(pipefd[0]);
		safe_close(j.sigfd);
		return PROTO_INTERNAL;
	}
	while ((j.out >= 0 || !j.group_empty) && j.phase != GAVE_UP) {
		step(&j, hs);
	}
	if (j.len > 0) {
		flush_line(&j);
	}
	safe_close(j.out);
	safe_close(j.sigfd);
	return outcome_of(&j, ret_detail);
}

static bool apt_lists_empty(const char *dir)
{
	/* A fresh image ships without package lists: an install would then "not find" every
	 * package. Any *_Packages* file means apt has lists to work from. */
	DIR *d = opendir(dir);
	if (!d) {
		return true;
	}
	bool empty = true;
	struct dirent *e;
	while (empty && (e = readdir(d))) {
		if (strstr(e->d_name, "_Packages")) {
			empty = false;
		}
	}
	closedir(d);
	return empty;
}

static size_t policy_index(const char *const *pkgs, const char *name, size_t len)
{
	for (size_t i = 0; i < 32 && pkgs[i]; i++) {
		if (strlen(pkgs[i]) == len && memcmp(pkgs[i], name, len) == 0) {
			return i;
		}
	}
	return SIZE_MAX;
}

static void copy_field(char dst[VERSION_MAX], const char *src, size_t len)
{
	/* A version longer than any real one is kept cut short and marked, so it matches
	 * nothing. */
	if (len >= VERSION_MAX) {
		snprintf(dst, VERSION_MAX, "?");
		return;
	}
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static void query_line(struct installed *q, const char *line, size_t len)
{
	/* dpkg-query -W -f='${db:Status-Abbrev}${Package}\n': "ii xfwm4". */
	if (len > 3 && line[2] == ' ' && line[3] != ' ') {
		size_t i = policy_index(q->pkgs, line + 3, len - 3);
		if (i != SIZE_MAX) {
			q->pkg[i].dpkg_ok = line[0] == 'i' && line[1] == 'i';
		}
		return;
	}
	/* apt-cache policy: "xfwm4:" then "  Installed: 4.18.0-1" and "  Candidate: 4.18.0-1". */
	static const char installed[] = "  Installed: ", candidate[] = "  Candidate: ";
	if (len > 1 && line[0] != ' ' && line[len - 1] == ':') {
		q->current = policy_index(q->pkgs, line, len - 1);
	} else if (q->current != SIZE_MAX && len >= sizeof(installed) - 1 &&
		   memcmp(line, installed, sizeof(installed) - 1) == 0) {
		copy_field(q->pkg[q->current].version, line + sizeof(installed) - 1,
			   len - (sizeof(installed) - 1));
	} else if (q->current != SIZE_MAX && len >= sizeof(candidate) - 1 &&
		   memcmp(line, candidate, sizeof(candidate) - 1) == 0) {
		copy_field(q->pkg[q->current].candidate, line + sizeof(candidate) - 1,
			   len - (sizeof(candidate) - 1));
	}
}

/* Whether every package of the policy is installed, configured, at its candidate version: then an
 * install would change nothing. Asked of dpkg-query and apt-cache, which read without taking
 * dpkg's lock, run like the package manager itself (root, fixed path, argv and environment) and
 * bounded in time. Any doubt (a failed or late query, a line not understood) means "no": the
 * install then runs as it always did. */
static bool nothing_to_do(const struct helper_settings *hs, enum policy_set set, uint64_t deadline)
{
	const char *const *pkgs = policy_sets[set][POLICY_APT];
	const char *argv[2][36] = {
		{hs->dpkg_query_path, "-W", "-f=${db:Status-Abbrev}${Package}\n"},
		{hs->apt_cache_path, "policy"},
	};
	struct installed q = {.pkgs = pkgs, .current = SIZE_MAX};
	size_t count = 0;
	while (pkgs[count]) {
		if (count == 32) {
			return false;
		}
		argv[0][3 + count] = argv[1][2 + count] = pkgs[count];
		count++;
	}
	for (size_t k = 0; k < 2; k++) {
		int32_t detail;
		if (run_job(hs, argv[k], deadline, NULL, &q, &detail) != PROTO_OK) {
			return false;
		}
	}
	for (size_t i = 0; i < count; i++) {
		if (!q.pkg[i].dpkg_ok || !q.pkg[i].version[0] ||
		    streq(q.pkg[i].version, "(none)") ||
		    !streq(q.pkg[i].version, q.pkg[i].candidate)) {
			return false;
		}
	}
	return count > 0;
}

static int take_host_lock(const char *path)
{
	/* One install at a time on this host. The lock file is root's, in a root-only
	 * directory; O_NOFOLLOW and the owner check refuse anything planted there. */
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0) {
		return negative_errno();
	}
	if (fd_is_own_regular(fd) < 0) {
		safe_close(fd);
		return -EPERM;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int r = errno == EWOULDBLOCK ? -EBUSY : negative_errno();
		safe_close(fd);
		return r;
	}
	return fd;
}

static enum proto_outcome run_manager(const struct helper_settings *hs, enum proto_manager m,
				      const char *path, enum policy_set set, uint64_t deadline,
				      struct reply *r, int32_t *ret_detail)
{
	const char *argv[32];
	char lock_opt[64];
	if (m == PROTO_MANAGER_APT && apt_lists_empty(hs->apt_lists_dir)) {
		if (decide_argv(hs, m, path, set, true, argv, lock_opt) < 0) {
			return PROTO_INTERNAL;
		}
		enum proto_outcome o = run_job(hs, argv, deadline, r, NULL, ret_detail);
		if (o != PROTO_OK) {
			return o;
		}
	}
	if (decide_argv(hs, m, path, set, false, argv, lock_opt) < 0) {
		return PROTO_INTERNAL;
	}
	return run_job(hs, argv, deadline, r, NULL, ret_detail);
}

enum proto_outcome install_run_manager(const struct helper_settings *hs, enum proto_manager m,
				       const char *path, enum policy_set set, uid_t caller,
				       struct reply *r, int32_t *ret_detail)
{
	*ret_detail = 0;
	/* Everything the package manager (or a query) leaves behind in its group comes back to us
	 * to reap. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		return PROTO_INTERNAL;
	}
	uint64_t start = now_ms();
	/* Nothing to do: answered without the host lock, dpkg's lock or a stamp, so that a member
	 * asking again and again holds up nobody. */
	if (m == PROTO_MANAGER_APT &&
	    nothing_to_do(hs, set,
			  start + (hs->query_timeout_ms < hs->install_timeout_ms
					   ? hs->query_timeout_ms
					   : hs->install_timeout_ms))) {
		return PROTO_ALREADY_INSTALLED;
	}
	_cleanup_close_ int lock = take_host_lock(hs->lock_path);
	if (lock == -EBUSY) {
		return PROTO_BUSY;
	}
	if (lock < 0) {
		*ret_detail = -lock;
		return PROTO_INTERNAL;
	}
	uint64_t wait_ms;
	int stamp = pace_start(hs->pace_dir, caller, hs->install_interval_ms, &wait_ms);
	if (stamp == -EAGAIN) {
		/* Whole seconds, rounded up: retrying at the time said is never too soon. */
		*ret_detail = (int32_t)((wait_ms + 999) / 1000);
		return PROTO_TOO_SOON;
	}
	if (stamp < 0) {
		*ret_detail = -stamp;
		return PROTO_INTERNAL;
	}
	enum proto_outcome o =
		run_manager(hs, m, path, set, start + hs->install_timeout_ms, r, ret_detail);
	pace_end(stamp);
	return o;
}
