/* Running the package manager: as full root, in its own session, with a fixed argv and
 * environment and a cut bounding set; its output relayed line by line; bounded in time, with the
 * whole process group stopped at the end. */
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "helper.h"
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

static void flush_line(struct job *j)
{
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
	struct pollfd fds[3] = {
		{.fd = j->sigfd, .events = POLLIN},
		{.fd = j->out, .events = POLLIN},
		{.fd = reply_pending(j->reply) ? j->reply->fd : -1, .events = POLLOUT},
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
			close(j->out);
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

static enum proto_outcome run_job(const struct helper_settings *hs, const char *const *argv,
				  uint64_t deadline, struct reply *r, int32_t *ret_detail)
{
	*ret_detail = 0;
	char cmdline[PROTO_LINE_MAX];
	if (decide_command_line(argv, cmdline + 2, sizeof(cmdline) - 2) == 0) {
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
	struct job j = {.out = pipefd[0], .deadline = deadline, .reply = r};
	j.sigfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (j.sigfd < 0 || sigprocmask(SIG_BLOCK, &chld, NULL) < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		safe_close(j.sigfd);
		return PROTO_INTERNAL;
	}
	j.leader = fork();
	if (j.leader == 0) {
		child_exec(argv, envp, devnull, pipefd[1]);
	}
	close(pipefd[1]);
	if (j.leader < 0) {
		close(pipefd[0]);
		close(j.sigfd);
		return PROTO_INTERNAL;
	}
	while ((j.out >= 0 || !j.group_empty) && j.phase != GAVE_UP) {
		step(&j, hs);
	}
	if (j.len > 0) {
		flush_line(&j);
	}
	safe_close(j.out);
	close(j.sigfd);
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

static int take_host_lock(const char *path)
{
	/* One install at a time on this host. The lock file is root's, in a root-only
	 * directory; O_NOFOLLOW and the owner check refuse anything planted there. */
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0) {
		return negative_errno();
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		return -EPERM;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int r = errno == EWOULDBLOCK ? -EBUSY : negative_errno();
		close(fd);
		return r;
	}
	return fd;
}

enum proto_outcome install_run_manager(const struct helper_settings *hs, enum proto_manager m,
				       const char *path, struct reply *r, int32_t *ret_detail)
{
	*ret_detail = 0;
	_cleanup_close_ int lock = take_host_lock(hs->lock_path);
	if (lock == -EBUSY) {
		return PROTO_BUSY;
	}
	if (lock < 0) {
		*ret_detail = -lock;
		return PROTO_INTERNAL;
	}
	/* Everything the package manager leaves behind in its group comes back to us to reap. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		return PROTO_INTERNAL;
	}
	uint64_t deadline = now_ms() + hs->install_timeout_ms;
	const char *argv[32];
	char lock_opt[64];
	if (m == PROTO_MANAGER_APT && apt_lists_empty(hs->apt_lists_dir)) {
		if (decide_argv(hs, m, path, true, argv, lock_opt) < 0) {
			return PROTO_INTERNAL;
		}
		enum proto_outcome o = run_job(hs, argv, deadline, r, ret_detail);
		if (o != PROTO_OK) {
			return o;
		}
	}
	if (decide_argv(hs, m, path, false, argv, lock_opt) < 0) {
		return PROTO_INTERNAL;
	}
	return run_job(hs, argv, deadline, r, ret_detail);
}
