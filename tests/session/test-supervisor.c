/* Spawning with fds at fixed numbers and the systemd handshake, and the supervisor: subreaper,
 * events, stopping every descendant. */
#include "session-test.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "proc.h"
#include "spawn.h"
#include "supervisor.h"
#include "timeutil.h"

extern char **environ;

static pid_t run_sh(const char *script, const struct spawn_opts *o)
{
	char *copy = strdup(script);
	char *argv[] = {(char[]){"/bin/sh"}, (char[]){"-c"}, copy, NULL};
	pid_t pid;
	assert_int_equal(spawn_program("/bin/sh", argv, environ, o, &pid), 0);
	free(copy);
	return pid;
}

static void test_listen_fds_handshake(void **state)
{
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	struct spawn_fd fds[] = {{p[1], 3}};
	struct spawn_opts o = {.fds = fds, .n_fds = 1, .listen_fds = 1};
	pid_t pid = run_sh("echo \"$LISTEN_FDS $LISTEN_PID $$\" >&3", &o);
	close(p[1]);
	char buf[128] = {0};
	assert_true(read(p[0], buf, sizeof(buf) - 1) > 0);
	close(p[0]);
	long n_fds, listen_pid, self;
	assert_int_equal(sscanf(buf, "%ld %ld %ld", &n_fds, &listen_pid, &self), 3);
	assert_int_equal(n_fds, 1);
	assert_int_equal(listen_pid, self);
	assert_int_equal(self, pid);
	waitpid(pid, NULL, 0);
}

/* Nothing but the fds asked for reaches the child. */
static void test_no_stray_fds(void **state)
{
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	struct spawn_fd fds[] = {{p[1], 4}};
	struct spawn_opts o = {.fds = fds, .n_fds = 1};
	pid_t pid = run_sh("ls /proc/self/fd | sort -n | tr '\\n' ' ' >&4", &o);
	close(p[1]);
	char buf[256] = {0};
	assert_true(read(p[0], buf, sizeof(buf) - 1) > 0);
	close(p[0]);
	/* 0-2, 4, and ls's own directory fd (3). */
	assert_string_equal(buf, "0 1 2 3 4 ");
	waitpid(pid, NULL, 0);
}

static void test_exec_failure_is_an_error(void **state)
{
	char *argv[] = {(char[]){"/nonexistent/program"}, NULL};
	pid_t pid;
	assert_int_equal(spawn_program(argv[0], argv, environ, NULL, &pid), -ENOENT);
}

static void test_essential_child_ends(void **state)
{
	struct supervisor sv;
	assert_int_equal(supervisor_init(&sv), 0);
	pid_t pid = run_sh("exit 3", NULL);
	assert_int_equal(supervisor_watch(&sv, "three", pid, true), 0);
	assert_int_equal(supervisor_wait(&sv, -1, now_ms() + 10000), -ECHILD);
	assert_string_equal(sv.ended->name, "three");
	assert_true(WIFEXITED(sv.ended->status));
	assert_int_equal(WEXITSTATUS(sv.ended->status), 3);
	supervisor_stop_all(&sv, 1000);
	supervisor_done(&sv);
}

static void test_fd_timeout_and_stop(void **state)
{
	struct supervisor sv;
	assert_int_equal(supervisor_init(&sv), 0);
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(supervisor_wait(&sv, p[0], now_ms() + 50), 0);
	assert_int_equal(write(p[1], "x", 1), 1);
	assert_int_equal(supervisor_wait(&sv, p[0], now_ms() + 10000), 1);
	/* TERM is blocked and read from the signalfd: a stop request, not a death. */
	kill(getpid(), SIGTERM);
	assert_int_equal(supervisor_wait(&sv, p[0], now_ms() + 10000), -EINTR);
	assert_int_equal(sv.stop_signal, SIGTERM);
	close(p[0]);
	close(p[1]);
	supervisor_done(&sv);
}

/* A component that daemonizes (forks, leaves the session) is still the supervisor's child, and
 * stopping everything stops it too; one that ignores TERM is killed after the grace. */
static void test_stop_reaches_daemons(void **state)
{
	struct supervisor sv;
	assert_int_equal(supervisor_init(&sv), 0);
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	struct spawn_fd fds[] = {{p[1], 3}};
	struct spawn_opts o = {.fds = fds, .n_fds = 1};
	pid_t pid = run_sh("setsid sh -c 'echo $$ >&3; exec sleep 300' & "
			   "sh -c 'trap \"\" TERM; echo $$ >&3; exec sleep 300' & exit 0",
			   &o);
	close(p[1]);
	assert_int_equal(supervisor_watch(&sv, "parent", pid, false), 0);
	long a = 0, b = 0;
	FILE *f = fdopen(p[0], "r");
	assert_int_equal(fscanf(f, "%ld %ld", &a, &b), 2);
	fclose(f);
	/* Reparented to us once the shell is gone. */
	uint64_t deadline = now_ms() + 5000;
	struct proc_stat st = {0};
	while (now_ms() < deadline) {
		(void)supervisor_wait(&sv, -1, now_ms() + 20);
		if (proc_stat_read((pid_t)a, &st) == 0 && st.ppid == getpid()) {
			break;
		}
	}
	assert_int_equal(st.ppid, getpid());
	uint64_t t0 = now_ms();
	supervisor_stop_all(&sv, 300);
	assert_true(now_ms() - t0 < 3000);
	assert_int_equal(kill((pid_t)a, 0), -1);
	assert_int_equal(kill((pid_t)b, 0), -1);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	supervisor_done(&sv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listen_fds_handshake),
		cmocka_unit_test(test_no_stray_fds),
		cmocka_unit_test(test_exec_failure_is_an_error),
		cmocka_unit_test(test_essential_child_ends),
		cmocka_unit_test(test_fd_timeout_and_stop),
		cmocka_unit_test(test_stop_reaches_daemons),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
