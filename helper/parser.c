/* The parser child: the only process that reads the runner's bytes. It has no uid of ours, no
 * capability, no way to regain either, and a seccomp allowlist of read/write on its two fds;
 * what it hands back is one byte the privileged side checks against a table. */
#include <grp.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "helper.h"
#include "util.h"

/* The one byte the child sends back. */
enum {
	VERDICT_DECIDE = PROTO_OP_DECIDE,
	VERDICT_INSTALL = PROTO_OP_INSTALL,
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
	int r = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, SCMP_SYS(read), 1, &on_sock);
	if (r == 0) {
		r = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, SCMP_SYS(write), 1, &on_channel);
	}
	if (r == 0) {
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit_group), 0);
	}
	if (r == 0) {
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(exit), 0);
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

static unsigned char read_request(int sock)
{
	/* One byte more than a request: a longer record shows up as a longer read (SEQPACKET
	 * truncates the rest, never merges records). */
	uint8_t buf[PROTO_REQUEST_SIZE + 1];
	ssize_t n;
	do {
		n = read(sock, buf, sizeof(buf));
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		return errno == EAGAIN || errno == EWOULDBLOCK ? VERDICT_TIMEOUT : VERDICT_BAD;
	}
	struct proto_request req;
	if (proto_request_decode(buf, (size_t)n, &req) < 0) {
		return VERDICT_BAD;
	}
	/* Exactly one request per connection: the runner half-closes after it, so the next read
	 * must be the end. A second record, of any content, is refused. */
	uint8_t extra;
	do {
		n = read(sock, &extra, 1);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		return errno == EAGAIN || errno == EWOULDBLOCK ? VERDICT_TIMEOUT : VERDICT_BAD;
	}
	if (n != 0) {
		return VERDICT_BAD;
	}
	return req.op == PROTO_OP_INSTALL ? VERDICT_INSTALL : VERDICT_DECIDE;
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
	if (parser_filter_load(sock, channel) < 0) {
		_exit(11);
	}
	if (hs->probe_filtered) {
		hs->probe_filtered();
	}
	unsigned char verdict = read_request(sock);
	if (write(channel, &verdict, 1) != 1) {
		_exit(12);
	}
	_exit(0);
}

static int set_rcvtimeo(int fd, uint64_t ms)
{
	struct timeval tv = {.tv_sec = (time_t)(ms / 1000),
			     .tv_usec = (suseconds_t)(ms % 1000) * 1000};
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
		return negative_errno();
	}
	return 0;
}

int parser_run(int sock, const struct helper_settings *hs, struct parser_result *ret)
{
	/* The bound on the runner's request, set here so the child needs no setsockopt. */
	int r = set_rcvtimeo(sock, hs->request_timeout_ms);
	if (r < 0) {
		return r;
	}
	int ch[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch) < 0) {
		return negative_errno();
	}
	pid_t pid = fork();
	if (pid < 0) {
		r = negative_errno();
		close(ch[0]);
		close(ch[1]);
		return r;
	}
	if (pid == 0) {
		parser_child(sock, ch[1], hs);
	}
	close(ch[1]);
	/* The child's answer is one byte: anything longer or absent is a child gone wrong. */
	unsigned char buf[2];
	ssize_t n;
	do {
		n = read(ch[0], buf, sizeof(buf));
	} while (n < 0 && errno == EINTR);
	close(ch[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			return negative_errno();
		}
	}
	struct parser_result res = {.outcome = PROTO_INTERNAL, .detail = status};
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && n == 1) {
		switch (buf[0]) {
		case VERDICT_DECIDE:
		case VERDICT_INSTALL:
			res.outcome = PROTO_OK;
			res.op = (enum proto_op)buf[0];
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
