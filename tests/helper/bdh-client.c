/* A runner stand-in for the helper's tests: starts botdesk-helper the way botdesk does, or in
 * every hostile way a caller could (argc 0, closed stdio, the wrong thing on fd 3, stray fds, a
 * poisoned umask, tiny limits, a raised OOM score, blocked or ignored signals, a controlling
 * terminal, interval timers, a huge timer slack, idle scheduling, a dup of the helper's own
 * socket end used to change its options, to fill its queue or to stall its request), speaks the
 * protocol (or sends raw records), and prints what came back:
 *   line: TEXT / result: OUTCOME manager=M detail=D / exit: N / signal: N / exec-error: MSG
 * `bdh-client --serve NAME` listens on the abstract socket @NAME: a foreign peer for --fd3. */
#include <errno.h>
#include <fcntl.h>
#include <linux/ioprio.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parse.h"
#include "proto.h"
#include "rlimits.h"

#define MAX_RAW 8

struct opts {
	const char *helper;
	const char *op; /* decide, install, decide-web, install-web, decide-fonts, install-fonts,
			   none */
	const char *raw[MAX_RAW];
	size_t nraw;
	bool keep_open, hold, close_stdio, many_fds, block_signals, ignore_signals, pty;
	bool dup_end, wedge, stall_request, sched_idle, timerslack;
	uint64_t itimer_ms;
	const char *argv_mode; /* normal, argc0, empty, extra */
	const char *fd3;       /* socket, file, none, stream, dgram, foreign:NAME */
	int umask_value;
	struct {
		int res;
		rlim_t soft, hard;
	} limits[12];
	size_t nlimits;
	const char *oom; /* oom_score_adj to set, or NULL */
};

static _Noreturn void die(const char *what)
{
	fprintf(stderr, "bdh-client: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int abstract_addr(const char *name, struct sockaddr_un *sa, socklen_t *len)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	size_t n = strlen(name);
	if (n + 1 > sizeof(sa->sun_path)) {
		return -1;
	}
	memcpy(sa->sun_path + 1, name, n);
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
	return 0;
}

static int serve(const char *name)
{
	struct sockaddr_un sa;
	socklen_t len;
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0 || abstract_addr(name, &sa, &len) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, len) < 0 || listen(fd, 16) < 0) {
		die("serve");
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		/* Accepted connections are held open, never answered. */
		if (accept4(fd, NULL, NULL, SOCK_CLOEXEC) < 0 && errno != EINTR) {
			die("accept");
		}
	}
}

static int parse_limit(const char *spec, struct opts *o)
{
	const char *eq = strchr(spec, '=');
	if (!eq || o->nlimits >= sizeof(o->limits) / sizeof(o->limits[0])) {
		return -1;
	}
	for (size_t i = 0; i < TEST_LIMITS_COUNT; i++) {
		if (strncmp(spec, test_limits[i].name, (size_t)(eq - spec)) == 0 &&
		    test_limits[i].name[eq - spec] == '\0') {
			const char *value = eq + 1, *colon = strchr(value, ':');
			uint64_t soft, hard;
			size_t n = colon ? (size_t)(colon - value) : strlen(value);
			if (parse_u64_n(value, n, UINT64_MAX, &soft) < 0) {
				return -1;
			}
			hard = soft;
			if (colon && parse_u64(colon + 1, UINT64_MAX, &hard) < 0) {
				return -1;
			}
			o->limits[o->nlimits].res = test_limits[i].res;
			o->limits[o->nlimits].soft = (rlim_t)soft;
			o->limits[o->nlimits].hard = (rlim_t)hard;
			o->nlimits++;
			return 0;
		}
	}
	return -1;
}

static int parse_octal(const char *s)
{
	int v = 0;
	if (!*s || strlen(s) > 4) {
		return -1;
	}
	for (; *s; s++) {
		if (*s < '0' || *s > '7') {
			return -1;
		}
		v = v * 8 + (*s - '0');
	}
	return v;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bdh-client [--op decide|install|decide-web|install-web|decide-fonts|install-fonts|none] "
		"[--raw HEX]... [--keep-open] "
		"[--hold] [--argv normal|argc0|empty|extra] [--close-stdio] [--fd3 "
		"socket|file|none|stream|dgram|foreign:NAME] [--many-fds] [--umask OCTAL] "
		"[--rlimit RES=SOFT[:HARD]]... [--oom SCORE] [--block-signals] "
		"[--ignore-signals] [--pty] "
		"[--itimer MS] [--timerslack] [--sched-idle] [--dup-end] [--wedge] "
		"[--stall-request] HELPER\n       bdh-client --serve NAME\n");
	exit(2);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){
		.op = "decide", .argv_mode = "normal", .fd3 = "socket", .umask_value = -1};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--serve") == 0 && v) {
			exit(serve(v));
		} else if (strcmp(a, "--op") == 0 && v) {
			o->op = v, i++;
		} else if (strcmp(a, "--raw") == 0 && v && o->nraw < MAX_RAW) {
			o->raw[o->nraw++] = v, i++;
		} else if (strcmp(a, "--argv") == 0 && v) {
			o->argv_mode = v, i++;
		} else if (strcmp(a, "--fd3") == 0 && v) {
			o->fd3 = v, i++;
		} else if (strcmp(a, "--umask") == 0 && v) {
			o->umask_value = parse_octal(v), i++;
			if (o->umask_value < 0) {
				usage();
			}
		} else if (strcmp(a, "--rlimit") == 0 && v) {
			if (parse_limit(v, o) < 0) {
				usage();
			}
			i++;
		} else if (strcmp(a, "--oom") == 0 && v) {
			o->oom = v, i++;
		} else if (strcmp(a, "--keep-open") == 0) {
			o->keep_open = true;
		} else if (strcmp(a, "--hold") == 0) {
			o->hold = true;
		} else if (strcmp(a, "--close-stdio") == 0) {
			o->close_stdio = true;
		} else if (strcmp(a, "--many-fds") == 0) {
			o->many_fds = true;
		} else if (strcmp(a, "--block-signals") == 0) {
			o->block_signals = true;
		} else if (strcmp(a, "--ignore-signals") == 0) {
			o->ignore_signals = true;
		} else if (strcmp(a, "--pty") == 0) {
			o->pty = true;
		} else if (strcmp(a, "--itimer") == 0 && v) {
			if (parse_u64(v, 3600 * 1000, &o->itimer_ms) < 0 || o->itimer_ms == 0) {
				usage();
			}
			i++;
		} else if (strcmp(a, "--timerslack") == 0) {
			o->timerslack = true;
		} else if (strcmp(a, "--sched-idle") == 0) {
			o->sched_idle = true;
		} else if (strcmp(a, "--dup-end") == 0) {
			o->dup_end = true;
		} else if (strcmp(a, "--wedge") == 0) {
			o->dup_end = o->wedge = true;
		} else if (strcmp(a, "--stall-request") == 0) {
			o->dup_end = o->stall_request = o->keep_open = true;
		} else if (a[0] != '-' && !o->helper) {
			o->helper = a;
		} else {
			usage();
		}
	}
	if (!o->helper) {
		usage();
	}
}

/* What the child puts on fd 3. */
static int make_fd3(const char *how, int sock)
{
	if (strcmp(how, "socket") == 0) {
		return sock;
	}
	if (strcmp(how, "file") == 0) {
		return open("/etc/hostname", O_RDONLY);
	}
	if (strcmp(how, "stream") == 0 || strcmp(how, "dgram") == 0) {
		int sv[2];
		int type = how[0] == 's' ? SOCK_STREAM : SOCK_DGRAM;
		return socketpair(AF_UNIX, type, 0, sv) == 0 ? sv[1] : -1;
	}
	if (strncmp(how, "foreign:", 8) == 0) {
		struct sockaddr_un sa;
		socklen_t len;
		int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		if (fd < 0 || abstract_addr(how + 8, &sa, &len) < 0 ||
		    connect(fd, (struct sockaddr *)&sa, len) < 0) {
			return -1;
		}
		return fd;
	}
	return -2; /* none */
}

/* Everything an unprivileged process may do to slow down what it starts: nice 19, SCHED_IDLE,
 * idle I/O, one CPU. */
static int set_idle(void)
{
	struct sched_param none = {.sched_priority = 0};
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
	if (setpriority(PRIO_PROCESS, 0, 19) < 0 || sched_setscheduler(0, SCHED_IDLE, &none) < 0 ||
	    syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		    IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0)) < 0 ||
	    sched_setaffinity(0, sizeof(one), &one) < 0) {
		return -1;
	}
	return 0;
}

/* ITIMER_REAL fires after ms; the CPU-time timers are set too, far enough out not to fire during
 * the exec itself (which would kill the helper before its first instruction, harmlessly). */
static int set_itimers(uint64_t ms)
{
	struct itimerval real = {.it_value = {.tv_sec = (time_t)(ms / 1000),
					      .tv_usec = (suseconds_t)(ms % 1000) * 1000}};
	struct itimerval cpu = {.it_value = {.tv_sec = 30}};
	if (setitimer(ITIMER_REAL, &real, NULL) < 0 || setitimer(ITIMER_VIRTUAL, &cpu, NULL) < 0 ||
	    setitimer(ITIMER_PROF, &cpu, NULL) < 0) {
		return -1;
	}
	return 0;
}

static _Noreturn void child(const struct opts *o, int sock, int pty_master)
{
	if (o->pty) {
		/* A session of our own with the pty as its controlling terminal. */
		setsid();
		int t = open(ptsname(pty_master), O_RDWR);
		if (t < 0) {
			_exit(120);
		}
		dup2(t, 0), dup2(t, 1), dup2(t, 2);
	}
	int fd = make_fd3(o->fd3, sock);
	if (fd == -1) {
		_exit(121);
	}
	if (fd >= 0) {
		if (dup2(fd, 3) < 0) {
			_exit(122);
		}
	} else {
		close(3);
	}
	if (o->many_fds) {
		/* Stray fds, one far up: the helper must close them without walking to the
		 * limit. */
		struct rlimit rl;
		getrlimit(RLIMIT_NOFILE, &rl);
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		for (int i = 4; i < 40; i++) {
			dup2(3, i);
		}
		if (rl.rlim_cur > 1000) {
			dup2(3, (int)rl.rlim_cur - 1);
		}
	}
	if (o->close_stdio) {
		close(0), close(1), close(2);
	}
	if (o->umask_value >= 0) {
		umask((mode_t)o->umask_value);
	}
	for (size_t i = 0; i < o->nlimits; i++) {
		struct rlimit rl = {o->limits[i].soft, o->limits[i].hard};
		if (setrlimit(o->limits[i].res, &rl) < 0) {
			_exit(123);
		}
	}
	if (o->oom) {
		/* Any user may raise its own OOM score; it survives exec. */
		int oom = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
		if (oom < 0 || write(oom, o->oom, strlen(o->oom)) < 0) {
			_exit(127);
		}
		close(oom);
	}
	if (o->ignore_signals) {
		for (int s = 1; s < NSIG; s++) {
			signal(s, SIG_IGN);
		}
	}
	if (o->block_signals) {
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
	}
	if (o->sched_idle && set_idle() < 0) {
		_exit(124);
	}
	if (o->timerslack && prctl(PR_SET_TIMERSLACK, 3600UL * 1000 * 1000 * 1000, 0, 0, 0) < 0) {
		_exit(125);
	}
	if (o->itimer_ms && set_itimers(o->itimer_ms) < 0) {
		_exit(125);
	}
	char name[] = "botdesk-helper", empty[] = "", extra[] = "--help";
	char *normal[] = {name, NULL}, *argc0[] = {NULL}, *emptyv[] = {empty, NULL},
	     *extrav[] = {name, extra, NULL};
	char **argv = strcmp(o->argv_mode, "argc0") == 0   ? argc0
		      : strcmp(o->argv_mode, "empty") == 0 ? emptyv
		      : strcmp(o->argv_mode, "extra") == 0 ? extrav
							   : normal;
	extern char **environ;
	execve(o->helper, argv, environ);
	dprintf(2, "exec-error: %s\n", strerror(errno));
	_exit(126);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

static int hex_record(const char *hex, uint8_t *buf, size_t size)
{
	size_t n = strlen(hex);
	if (n % 2 || n / 2 > size) {
		return -1;
	}
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
		if (hi < 0 || lo < 0) {
			return -1;
		}
		buf[i] = (uint8_t)(hi << 4 | lo);
	}
	return (int)(n / 2);
}

static void send_request(const struct opts *o, int sock)
{
	if (o->nraw > 0) {
		for (size_t i = 0; i < o->nraw; i++) {
			uint8_t buf[4096];
			int n = hex_record(o->raw[i], buf, sizeof(buf));
			if (n < 0) {
				fprintf(stderr, "bdh-client: bad hex\n");
				exit(2);
			}
			(void)!send(sock, buf, (size_t)n, MSG_NOSIGNAL);
		}
	} else if (strcmp(o->op, "none") != 0) {
		struct proto_request rq = {.op = PROTO_OP_DECIDE};
		static const enum proto_op ops[] = {PROTO_OP_DECIDE,       PROTO_OP_INSTALL,
						    PROTO_OP_DECIDE_WEB,   PROTO_OP_INSTALL_WEB,
						    PROTO_OP_DECIDE_FONTS, PROTO_OP_INSTALL_FONTS};
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			if (strcmp(o->op, proto_op_name(ops[i])) == 0) {
				rq.op = ops[i];
			}
		}
		uint8_t buf[PROTO_REQUEST_SIZE];
		proto_request_encode(&rq, buf);
		(void)!send(sock, buf, sizeof(buf), MSG_NOSIGNAL);
	}
	if (!o->keep_open) {
		shutdown(sock, SHUT_WR);
	}
}

/* Through our dup of the helper's own end: undo whatever bounds the helper might have put on it
 * and make its send buffer as small as the kernel allows. */
static void meddle(int end)
{
	struct timeval forever = {0, 0};
	int tiny = 1;
	if (setsockopt(end, SOL_SOCKET, SO_SNDTIMEO, &forever, sizeof(forever)) < 0 ||
	    setsockopt(end, SOL_SOCKET, SO_RCVTIMEO, &forever, sizeof(forever)) < 0 ||
	    setsockopt(end, SOL_SOCKET, SO_SNDBUF, &tiny, sizeof(tiny)) < 0 ||
	    fcntl(end, F_SETFL, 0) < 0) {
		die("meddle");
	}
}

/* Fills the helper-to-runner direction with junk records sent from the helper's own end, until
 * the kernel takes no more. */
static int fill(int end)
{
	uint8_t junk[PROTO_REPLY_SIZE] = {0};
	int n = 0;
	while (send(end, junk, sizeof(junk), MSG_DONTWAIT | MSG_NOSIGNAL) > 0) {
		n++;
	}
	if (errno != EAGAIN) {
		die("fill");
	}
	return n;
}

/* Waits (bounded; no event says when a process forks) until the helper has a child: its parser,
 * by then the helper has done all it does to the socket before reading the request. */
static void wait_parser(pid_t helper)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)helper, (int)helper);
	for (int i = 0; i < 1000; i++) {
		char buf[64] = "";
		FILE *f = fopen(path, "re");
		bool some = f && fgets(buf, sizeof(buf), f) && buf[0] >= '0' && buf[0] <= '9';
		if (f) {
			fclose(f);
		}
		if (some) {
			return;
		}
		poll(NULL, 0, 10);
	}
	fprintf(stderr, "bdh-client: the helper forked no parser child within 10 s\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct opts o;
	parse_args(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		die("socketpair");
	}
	int master = -1;
	if (o.pty) {
		master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0) {
			die("pty");
		}
	}
	/* The child's socket end must survive exec: drop CLOEXEC on a copy. */
	int child_end = fcntl(sv[1], F_DUPFD, 10);
	pid_t pid = fork();
	if (pid < 0) {
		die("fork");
	}
	if (pid == 0) {
		child(&o, child_end, master);
	}
	close(sv[1]);
	/* The caller may keep a dup of the helper's end: the same socket, options and all. */
	int dup_end = o.dup_end ? child_end : -1;
	if (!o.dup_end) {
		close(child_end);
	}
	if (o.wedge || o.stall_request) {
		/* These may hang a helper without its bounds: the test stops it by this pid. */
		printf("helper-pid: %d\n", (int)pid);
	}
	if (o.wedge || o.stall_request) {
		/* After whatever the helper does to its socket before it reads the request. */
		wait_parser(pid);
		meddle(dup_end);
	}
	if (o.wedge) {
		printf("wedged: %d junk records\n", fill(dup_end));
	}
	if (o.hold) {
		printf("helper-pid: %d\n", (int)pid);
		char line[16];
		if (!fgets(line, sizeof(line), stdin)) {
			/* EOF: go on */
		}
	}
	send_request(&o, sv[0]);
	int status;
	if (o.wedge) {
		/* Never read while the helper runs: it must end on its own. */
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR) {
				die("waitpid");
			}
		}
	}
	if (dup_end >= 0) {
		close(dup_end);
	}
	for (;;) {
		uint8_t buf[PROTO_REPLY_SIZE + 1];
		ssize_t n = recv(sv[0], buf, sizeof(buf), 0);
		if (n < 0 && (errno == EINTR || errno == ECONNRESET)) {
			continue;
		}
		if (n <= 0) {
			break;
		}
		struct proto_reply rep;
		if (proto_reply_decode(buf, (size_t)n, &rep) < 0) {
			printf("garbage: %zd bytes\n", n);
		} else if (rep.kind == PROTO_REPLY_LINE) {
			printf("line: %s\n", rep.text);
		} else {
			printf("result: %s manager=%s detail=%d\n", proto_outcome_name(rep.outcome),
			       proto_manager_name(rep.manager), (int)rep.detail);
		}
	}
	while (!o.wedge && waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			die("waitpid");
		}
	}
	if (WIFEXITED(status)) {
		printf("exit: %d\n", WEXITSTATUS(status));
	} else {
		printf("signal: %d\n", WTERMSIG(status));
	}
	return 0;
}
