/* The parser child's confinement, piece by piece, in forked children: the seccomp allowlist
 * kills on anything else (no privilege needed to prove it), and the drop leaves no uid, group,
 * capability or way back (needs root to be meaningful). */
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../unit.h"
#include "helper.h"
#include "util.h"

/* Runs fn in a child and returns its wait status. */
static int in_child(void (*fn)(int a, int b), int a, int b)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* cmocka catches these to report a failed test; in the child that would go on to
		 * run the rest of the suite. Let them kill the child instead. */
		static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS};
		for (size_t i = 0; i < ARRAY_SIZE(sigs); i++) {
			signal(sigs[i], SIG_DFL);
		}
		fn(a, b);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static void allowed_then_getppid(int sock, int channel)
{
	if (parser_filter_load(sock, channel) < 0) {
		_exit(90);
	}
	char c;
	struct iovec iov = {.iov_base = &c, .iov_len = 1};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	int v;
	socklen_t len = sizeof(v);
	/* pselect, the clock, recvmsg and getsockopt on sock and write on channel are allowed... */
	fd_set in;
	FD_ZERO(&in);
	FD_SET(sock, &in);
	struct timespec ts = {.tv_sec = 10};
	if (pselect(sock + 1, &in, NULL, NULL, &ts, NULL) != 1 ||
	    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) != 0 ||
	    getsockopt(sock, SOL_SOCKET, SO_PASSCRED, &v, &len) != 0 ||
	    recvmsg(sock, &msg, MSG_DONTWAIT) != 1 || write(channel, &c, 1) != 1) {
		_exit(91);
	}
	/* ...anything else is not. */
	syscall(SYS_getppid);
	_exit(92);
}

static void read_sock(int sock, int channel)
{
	if (parser_filter_load(sock, channel) < 0) {
		_exit(90);
	}
	/* Only recvmsg, which can be told not to wait: read() would block as the socket says. */
	char c;
	(void)!read(sock, &c, 1);
	_exit(97);
}

static void recv_sock(int sock, int channel)
{
	if (parser_filter_load(sock, channel) < 0) {
		_exit(90);
	}
	/* recv() is recvfrom(), which brings no credentials: an empty record would look like the
	 * end. */
	char c;
	(void)!recv(sock, &c, 1, MSG_DONTWAIT);
	_exit(98);
}

static void option_elsewhere(int sock, int channel)
{
	if (parser_filter_load(sock, channel) < 0) {
		_exit(90);
	}
	/* getsockopt() on another fd than sock. */
	int v;
	socklen_t len = sizeof(v);
	(void)!getsockopt(channel, SOL_SOCKET, SO_TYPE, &v, &len);
	_exit(99);
}

static void write_elsewhere(int sock, int channel)
{
	if (parser_filter_load(sock, channel) < 0) {
		_exit(90);
	}
	/* write() to another fd than the channel. */
	(void)!write(sock, "x", 1);
	_exit(93);
}

static void open_file(int sock, int channel)
{
	if (parser_filter_load(sock, channel) < 0) {
		_exit(90);
	}
	(void)!syscall(SYS_openat, AT_FDCWD, "/etc/hostname", O_RDONLY);
	_exit(94);
}

#if defined(__x86_64__)
/* getpid through the i386 entry point: another architecture to the filter. */
static long int80_getpid(void)
{
	long ret;
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

static void i386_call(int sock, int channel)
{
	if (sock >= 0 && parser_filter_load(sock, channel) < 0) {
		_exit(90);
	}
	_exit(int80_getpid() == getpid() ? 0 : 95);
}

static void x32_read(int sock, int channel)
{
	if (parser_filter_load(sock, channel) < 0) {
		_exit(90);
	}
	/* recvmsg() on the allowed fd, numbered as an x32 system call. */
	char c;
	struct iovec iov = {.iov_base = &c, .iov_len = 1};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	(void)!syscall(0x40000000 | SYS_recvmsg, sock, &msg, MSG_DONTWAIT);
	_exit(96);
}

static void test_filter_other_abis(void **state)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	int st = in_child(x32_read, p[0], p[1]);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
	/* Only where the kernel runs i386 code at all. */
	st = in_child(i386_call, -1, -1);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		st = in_child(i386_call, p[0], p[1]);
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), SIGSYS);
	}
	close(p[0]), close(p[1]);
}
#else
static void test_filter_other_abis(void **state)
{
	skip();
}
#endif

static void test_filter_allows_only_its_calls(void **state)
{
	int in[2], out[2];
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, in), 0);
	assert_int_equal(pipe(out), 0);
	assert_int_equal(write(in[1], "k", 1), 1);
	int st = in_child(allowed_then_getppid, in[0], out[1]);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
	char c = 0;
	assert_int_equal(read(out[0], &c, 1), 1);
	assert_int_equal(c, 'k');
	assert_int_equal(write(in[1], "k", 1), 1);
	st = in_child(read_sock, in[0], out[1]);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
	st = in_child(recv_sock, in[0], out[1]);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
	close(in[0]), close(in[1]), close(out[0]), close(out[1]);
}

static void test_filter_checks_fds(void **state)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	int st = in_child(write_elsewhere, p[1], p[0]);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
	st = in_child(open_file, p[0], p[1]);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
	st = in_child(option_elsewhere, p[0], p[1]);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGSYS);
	close(p[0]), close(p[1]);
}

static void dropped(int a, int b)
{
	if (parser_drop() < 0) {
		_exit(80);
	}
	uid_t r, e, s;
	gid_t rg, eg, sg;
	if (getresuid(&r, &e, &s) < 0 || r != HELPER_PARSER_UID || e != r || s != r) {
		_exit(81);
	}
	if (getresgid(&rg, &eg, &sg) < 0 || rg != HELPER_PARSER_GID || eg != rg || sg != rg ||
	    getgroups(0, NULL) != 0) {
		_exit(82);
	}
	if (setuid(0) == 0 || errno != EPERM || setresuid(0, 0, 0) == 0 || setgid(0) == 0) {
		_exit(83);
	}
	if (!caps_proc_empty()) {
		_exit(84);
	}
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1 ||
	    prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0) {
		_exit(85);
	}
	/* No new files, fds or processes either. */
	if (open("/dev/null", O_RDONLY | O_CLOEXEC) >= 0 || fork() >= 0) {
		_exit(86);
	}
	_exit(0);
}

static void test_drop(void **state)
{
	if (geteuid() != 0) {
		skip();
	}
	/* The helper is not dumpable when it forks the parser; the child keeps that. */
	assert_int_equal(prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), 0);
	int st = in_child(dropped, 0, 0);
	assert_int_equal(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), 0);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_allows_only_its_calls),
		cmocka_unit_test(test_filter_checks_fds),
		cmocka_unit_test(test_filter_other_abis),
		cmocka_unit_test(test_drop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
