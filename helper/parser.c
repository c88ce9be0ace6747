/* The parser child: the only process that reads the runner's bytes. It has no uid of ours, no
 * capability, no way to regain either, and a seccomp allowlist of receive/send on its two fds
 * (plus the clock and pselect to bound its wait, and reading one socket option); what it hands
 * back is one byte the privileged side checks against a table, within a deadline, or the child
 * is killed. */
#include <grp.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "helper.h"
#include "util.h"

/* The one byte the child sends back. */
enum {
	VERDICT_DECIDE = PROTO_OP_DECIDE,
	VERDICT_INSTALL = PROTO_OP_INSTALL,
	VERDICT_DECIDE_WEB = PROTO_OP_DECIDE_WEB,
	VERDICT_INSTALL_WEB = PROTO_OP_INSTALL_WEB,
	VERDICT_DECIDE_FONTS = PROTO_OP_DECIDE_FONTS,
	VERDICT_INSTALL_FONTS = PROTO_OP_INSTALL_FONTS,
	VERDICT_BAD = 0x40,
	VERDICT_TIMEOUT = 0x41,
};

int parser_drop(void)
{
	/* The bounding set goes while we still hold CAP_SETPCAP; the uid change then empties the
	 * other sets, and nothing can put them back. */
	int r = caps_clear_bound();
	if (r < 0) {
		return r;
	}
	if (setgroups(0, NULL) < 0 ||
	    setresgid(HELPER_PARSER_GID, HELPER_PARSER_GID, HELPER_PARSER_GID) < 0 ||
	    setresuid(HELPER_PARSER_UID, HELPER_PARSER_UID, HELPER_PARSER_UID) < 0) {
		return negative_errno();
	}
	/* A set*id call can fail quietly in ways we did not think of (EAGAIN under RLIMIT_NPROC
	 * once did): prove the drop instead of assuming it. */
	uid_t ru, eu, su;
	gid_t rg, eg, sg;
	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0) {
		return negative_errno();
	}
	if (ru != HELPER_PARSER_UID || eu != HELPER_PARSER_UID || su != HELPER_PARSER_UID ||
	    rg != HELPER_PARSER_GID || eg != HELPER_PARSER_GID || sg != HELPER_PARSER_GID ||
	    getgroups(0, NULL) != 0) {
		return -EPERM;
	}
	if (setuid(0) == 0 || setgid(0) == 0) {
		return -EPERM;
	}
	if ((r = caps_clear_proc()) < 0) {
		return r;
	}
	if (!caps_proc_empty()) {
		return -EPERM;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1) {
		return -EPERM;
	}
	/* Defence in depth should the filter ever let something through: no files, no fds, no
	 * processes. */
	static const int zeroed[] = {RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_NPROC, RLIMIT_CORE};
	for (size_t i = 0; i < ARRAY_SIZE(zeroed); i++) {
		struct rlimit none = {0, 0};
		if (setrlimit(zeroed[i], &none) < 0) {
			return negative_errno();
		}
	}
	return 0;
}

/* What a sanitizer's runtime does in the confined child (its alternate signal stack, its
 * allocator's mappings, its reports on stderr), allowed in a sanitizer build only
 * (-Db_sanitize, which defines BOTDESK_SANITIZED): the helper that is installed never has them. */
static int sanitizer_rules(scmp_filter_ctx ctx)
{
#ifdef BOTDESK_SANITIZED
	static const int calls[] = {
		SCMP_SYS(sigaltstack), SCMP_SYS(munmap),         SCMP_SYS(mmap),
		SCMP_SYS(madvise),     SCMP_SYS(mprotect),       SCMP_SYS(getpid),
		SCMP_SYS(gettid),      SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigaction),
		SCMP_SYS(futex),       SCMP_SYS(sched_yield),    SCMP_SYS(prctl),
	};
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		int r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, calls[i], 0);
		if (r < 0) {
			return r;
		}
	}
	const struct scmp_arg_cmp on_stderr = {.arg = 0, .op = SCMP_CMP_EQ, .datum_a = 2};
	return seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, &on_stderr);
#else
	(void)ctx;
	return 0;
#endif
}

int parser_filter_load(int sock, int channel)
{
	/* Kill the whole process on anything else: this code only ever reads and writes, so a
	 * graceful errno would serve nothing but an exploit's probing. Other architectures (i386,
	 * x32 numbers) fall under the default too. The context is never freed after the load:
	 * free() may need brk or munmap, which are not allowed. */
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_KILL_PROCESS);
	if (!ctx) {
		return -ENOMEM;
	}
	/* The fds compared as the 32-bit ints they are (no sign-extension surprises). */
	const struct scmp_arg_cmp on_sock = {
		.arg = 0, .op = SCMP_CMP_EQ, .datum_a = (uint32_t)sock};
	const struct scmp_arg_cmp on_channel = {
		.arg = 0, .op = SCMP_CMP_EQ, .datum_a = (uint32_t)channel};
	int r = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, SCMP_SYS(recvmsg), 1, &on_sock);
	/* Reading a socket option of sock changes nothing: it proves SO_PASSCRED is still on. */
	if (r == 0) {
		r = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, SCMP_SYS(getsockopt), 1, &on_sock);
	}
	if (r == 0) {
		r = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, &on_channel);
	}
	/* Waiting and reading the clock change nothing: the wait is bounded on our own clock (the
	 * vDSO may fall back to the system call). */
	if (r == 0) {
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(pselect6), 0);
	}
	if (r == 0) {
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clock_gettime), 0);
	}
	if (r == 0) {
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit_group), 0);
	}
	if (r == 0) {
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit), 0);
	}
	if (r == 0) {
		r = sanitizer_rules(ctx);
	}
	if (r == 0) {
		r = seccomp_load(ctx);
	}
	if (r < 0) {
		seccomp_release(ctx);
		return r;
	}
	return 0;
}

static void close_all_but(int a, int b)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;
	if (lo > 0) {
		close_range(0, (unsigned)lo - 1, 0);
	}
	if (hi > lo + 1) {
		close_range((unsigned)lo + 1, (unsigned)hi - 1, 0);
	}
	close_range((unsigned)hi + 1, ~0u, 0);
}

int parser_mark_records(int sock)
{
	/* A SEQPACKET socket reads an empty record and the end of input alike, as 0 bytes. With
	 * SO_PASSCRED on, every record, empty or not and whenever it was sent, arrives with the
	 * sender's credentials, and the end with nothing: that tells them apart. */
	int one = 1;
	if (setsockopt(sock, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0) {
		return negative_errno();
	}
	return 0;
}

/* One read from sock: a record (ret_record set; it may be empty) or the end (0 bytes, not a
 * record), or -ETIMEDOUT at the deadline. The caller may hold a dup of this socket and change its
 * SO_RCVTIMEO, its O_NONBLOCK or take a record from under us: so the wait is a pselect() against
 * our own clock and the receive never blocks. */
static ssize_t recv_by(int sock, void *buf, size_t size, uint64_t deadline, bool *ret_record)
{
	for (;;) {
		union {
			struct cmsghdr align;
			char bytes[CMSG_SPACE(sizeof(struct ucred))];
		} control;
		struct iovec iov = {.iov_base = buf, .iov_len = size};
		struct msghdr msg = {.msg_iov = &iov,
				     .msg_iovlen = 1,
				     .msg_control = &control,
				     .msg_controllen = sizeof(control)};
		ssize_t n = recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (n >= 0) {
			/* Credentials, or control data cut short (fds we have no room for), come
			 * only with a record; the end brings none. */
			*ret_record =
				n > 0 || msg.msg_controllen > 0 || (msg.msg_flags & MSG_CTRUNC);
			return n;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			return negative_errno();
		}
		uint64_t now = now_ms();
		if (now >= deadline) {
			return -ETIMEDOUT;
		}
		/* pselect, not poll: poll refuses more fds than RLIMIT_NOFILE, which is 0 here. */
		fd_set in;
		FD_ZERO(&in);
		FD_SET(sock, &in);
		struct timespec ts = {.tv_sec = (time_t)((deadline - now) / 1000),
				      .tv_nsec = (long)((deadline - now) % 1000) * 1000000};
		(void)pselect(sock + 1, &in, NULL, NULL, &ts, NULL);
	}
}

int parser_read_request(int sock, uint64_t deadline, enum proto_op *ret_op)
{
	/* One byte more than a request: a longer record shows up as a longer read (SEQPACKET
	 * truncates the rest, never merges records). */
	uint8_t buf[PROTO_REQUEST_SIZE + 1];
	bool record;
	ssize_t n = recv_by(sock, buf, sizeof(buf), deadline, &record);
	if (n < 0) {
		return (int)n;
	}
	struct proto_request req;
	if (proto_request_decode(buf, (size_t)n, &req) < 0) {
		return -EBADMSG;
	}
	/* Exactly one request per connection: the runner half-closes after it, so the next read
	 * must be the end. A second record of any length, an empty one too, is refused. */
	n = recv_by(sock, buf, 1, deadline, &record);
	if (n < 0) {
		return (int)n;
	}
	if (record) {
		return -EBADMSG;
	}
	/* The caller may hold a dup of sock and turn SO_PASSCRED off to pass an empty record off
	 * as the end: then it is off now, and the request is refused. */
	int on = 0;
	socklen_t len = sizeof(on);
	if (getsockopt(sock, SOL_SOCKET, SO_PASSCRED, &on, &len) < 0 || on != 1) {
		return -EBADMSG;
	}
	*ret_op = req.op;
	return 0;
}

_noreturn_ static void parser_child(int sock, int channel, const struct helper_settings *hs)
{
	close_all_but(sock, channel);
	if (parser_drop() < 0) {
		_exit(10);
	}
	if (hs->probe_dropped) {
		hs->probe_dropped();
	}
	if (parser_mark_records(sock) < 0 || parser_filter_load(sock, channel) < 0) {
		_exit(11);
	}
	if (hs->probe_filtered) {
		hs->probe_filtered();
	}
	enum proto_op op;
	int r = parser_read_request(sock, now_ms() + hs->request_timeout_ms, &op);
	unsigned char verdict = VERDICT_BAD;
	if (r == 0) {
		verdict = (unsigned char)op;
	} else if (r == -ETIMEDOUT) {
		verdict = VERDICT_TIMEOUT;
	}
	if (write(channel, &verdict, 1) != 1) {
		_exit(12);
	}
	_exit(0);
}

/* The child's answer: the first record and how many came, until the child closed its end (it is
 * exiting). False when the deadline passed first. */
static bool read_answer(int fd, uint64_t deadline, unsigned char *ret_byte, unsigned *ret_records)
{
	*ret_records = 0;
	for (;;) {
		unsigned char buf[2];
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n == 0) {
			return true;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			return false;
		}
		if (n > 0) {
			/* Anything longer than one byte, or more than one record, is a child gone
			 * wrong: counted so it can be refused. */
			*ret_byte = buf[0];
			*ret_records += n == 1 ? 1 : 2;
			continue;
		}
		uint64_t now = now_ms();
		if (now >= deadline) {
			return false;
		}
		struct pollfd p = {.fd = fd, .events = POLLIN};
		(void)poll(&p, 1, helper_poll_ms(deadline - now));
	}
}

int parser_run(int sock, const struct helper_settings *hs, struct parser_result *ret)
{
	_cleanup_close_pair_ int ch[2] = {-1, -1};
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch) < 0) {
		return negative_errno();
	}
	pid_t pid = fork();
	if (pid < 0) {
		return negative_errno();
	}
	if (pid == 0) {
		parser_child(sock, ch[1], hs);
	}
	ch[1] = safe_close(ch[1]);
	/* The child bounds its own wait; this bounds ours, should the child hang or be stopped
	 * (another process of uid 65534 may signal it). */
	unsigned char verdict = 0;
	unsigned records;
	bool ended = read_answer(ch[0], now_ms() + hs->request_timeout_ms + hs->grace_ms, &verdict,
				 &records);
	ch[0] = safe_close(ch[0]);
	/* A child that closed its end is exiting; any other is killed, so the wait below cannot
	 * hang. */
	if (!ended) {
		kill(pid, SIGKILL);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			return negative_errno();
		}
	}
	struct parser_result res = {.outcome = PROTO_INTERNAL, .detail = status};
	if (!ended) {
		res = (struct parser_result){.outcome = PROTO_REQUEST_TIMEOUT};
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && records == 1) {
		switch (verdict) {
		case VERDICT_DECIDE:
		case VERDICT_INSTALL:
		case VERDICT_DECIDE_WEB:
		case VERDICT_INSTALL_WEB:
		case VERDICT_DECIDE_FONTS:
		case VERDICT_INSTALL_FONTS:
			res.outcome = PROTO_OK;
			res.op = (enum proto_op)verdict;
			res.detail = 0;
			break;
		case VERDICT_BAD:
			res.outcome = PROTO_BAD_REQUEST;
			res.detail = 0;
			break;
		case VERDICT_TIMEOUT:
			res.outcome = PROTO_REQUEST_TIMEOUT;
			res.detail = 0;
			break;
		default:
			break;
		}
	}
	*ret = res;
	return 0;
}
