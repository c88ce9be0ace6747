/* Spawning with fds at fixed numbers and the systemd handshake, and the supervisor: subreaper,
 * events, stopping every descendant (signalled only while still the process a scan found), and
 * the session's teardown giving up its display claim even when a child ignores TERM. Every wait
 * is bounded; nothing asserts on how long something took. */
#include "session-test.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "claim.h"
#include "proc.h"
#include "run.h"
#include "session.h"
#include "spawnproc.h"
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

/* Reads n pids, one a line, that children write to the pipe fd (bounded: they write
 * them before anything else). */
static void read_pids(int fd, long *out, int n)
{
	FILE *f = fdopen(fd, "r");
	assert_non_null(f);
	for (int i = 0; i < n; i++) {
		assert_int_equal(fscanf(f, "%ld", &out[i]), 1);
	}
	fclose(f);
}

/* Runs script with a pipe at fd 3, where its processes each write their pid first; the shell's
 * pid, and the n pids they wrote in pids. */
static pid_t run_sh_pids(const char *script, long *pids, int n)
{
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	struct spawn_fd fds[] = {{p[1], 3}};
	struct spawn_opts o = {.fds = fds, .n_fds = 1};
	pid_t pid = run_sh(script, &o);
	close(p[1]);
	read_pids(p[0], pids, n);
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

/* A client that ends because its server died is reaped first; the server is named as the cause
 * once it is reaped within the wait. A server that lives on leaves the client named. */
static void test_cause_is_the_server(void **state)
{
	struct supervisor sv;
	assert_int_equal(supervisor_init(&sv), 0);
	pid_t server = run_sh("sleep 0.2; kill -KILL $$", NULL);
	pid_t client = run_sh("exit 1", NULL);
	assert_int_equal(supervisor_watch(&sv, "Xvnc", server, true), 0);
	assert_int_equal(supervisor_watch(&sv, "xfwm4", client, true), 0);
	assert_int_equal(supervisor_wait(&sv, -1, now_ms() + 10000), -ECHILD);
	assert_string_equal(sv.ended->name, "xfwm4");
	const struct sv_child *c = supervisor_cause(&sv, "Xvnc", 10000);
	assert_string_equal(c->name, "Xvnc");
	assert_true(WIFSIGNALED(c->status));
	assert_int_equal(WTERMSIG(c->status), SIGKILL);
	supervisor_stop_all(&sv, 1000);
	supervisor_done(&sv);

	assert_int_equal(supervisor_init(&sv), 0);
	server = run_sh("exec sleep 30", NULL);
	client = run_sh("exit 1", NULL);
	assert_int_equal(supervisor_watch(&sv, "Xvnc", server, true), 0);
	assert_int_equal(supervisor_watch(&sv, "xfwm4", client, true), 0);
	assert_int_equal(supervisor_wait(&sv, -1, now_ms() + 10000), -ECHILD);
	assert_string_equal(supervisor_cause(&sv, "Xvnc", 50)->name, "xfwm4");
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
	long d[2];
	pid_t pid = run_sh_pids("setsid sh -c 'echo $$ >&3; exec sleep 300' & "
				"sh -c 'trap \"\" TERM; echo $$ >&3; exec sleep 300' & exit 0",
				d, 2);
	assert_int_equal(supervisor_watch(&sv, "parent", pid, false), 0);
	long a = d[0], b = d[1];
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
	supervisor_stop_all(&sv, 300);
	assert_int_equal(kill((pid_t)a, 0), -1);
	assert_int_equal(kill((pid_t)b, 0), -1);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	supervisor_done(&sv);
}

static bool has_pid(const struct sv_proc *v, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].pid == pid) {
			return true;
		}
	}
	return false;
}

/* The tree walk of our own children files finds what the walk of all of /proc finds: a child, its
 * child, and one left behind in a session of its own (re-parented to us), and nothing else. */
static void test_tree_matches_descendants(void **state)
{
	(void)state;
	struct supervisor sv;
	assert_int_equal(supervisor_init(&sv), 0);
	long d[2];
	pid_t pid = run_sh_pids("setsid sh -c 'echo $$ >&3; exec sleep 300' & "
				"sh -c 'echo $$ >&3; exec sleep 300' & wait",
				d, 2);
	assert_int_equal(supervisor_watch(&sv, "parent", pid, true), 0);
	long a = d[0], b = d[1];
	struct sv_proc tree[64], all[64];
	size_t nt = supervisor_tree(tree, 64);
	size_t na = supervisor_descendants(all, 64);
	assert_true(has_pid(tree, nt, pid));
	assert_true(has_pid(tree, nt, (pid_t)a));
	assert_true(has_pid(tree, nt, (pid_t)b));
	assert_int_equal(nt, na);
	for (size_t i = 0; i < na; i++) {
		assert_true(has_pid(tree, nt, all[i].pid));
	}
	supervisor_stop_all(&sv, 300);
	supervisor_done(&sv);
}

static bool alive_child(pid_t pid)
{
	return waitpid(pid, NULL, WNOHANG) == 0;
}

/* A signal goes only to the process the scan saw: a record whose start time or parent no longer
 * match (the pid was recycled) is refused and the process that now has the pid is untouched. */
static void test_signal_checks_identity(void **state)
{
	pid_t pid = run_sh("exec sleep 300", NULL);
	struct proc_stat st;
	assert_int_equal(proc_stat_read(pid, &st), 0);
	struct sv_proc p = {.pid = pid, .ppid = st.ppid, .starttime = st.starttime};

	struct sv_proc other_start = p;
	other_start.starttime++;
	assert_int_equal(supervisor_signal(&other_start, SIGKILL), -ESRCH);
	assert_true(alive_child(pid));

	assert_int_equal(supervisor_signal(&p, SIGTERM), 0);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	/* Reaped: the record names nobody now. */
	assert_true(supervisor_signal(&p, SIGKILL) < 0);
}

/* A grandchild whose recorded parent is not its parent (and not us) is refused. */
static void test_signal_checks_parent(void **state)
{
	long g;
	pid_t pid = run_sh_pids("sh -c 'echo $$ >&3; exec sleep 300' & exec sleep 300", &g, 1);
	struct proc_stat st;
	assert_int_equal(proc_stat_read((pid_t)g, &st), 0);
	assert_int_equal(st.ppid, pid);
	struct sv_proc wrong = {.pid = (pid_t)g, .ppid = st.ppid + 1, .starttime = st.starttime};
	assert_int_equal(supervisor_signal(&wrong, SIGKILL), -ESRCH);
	assert_int_equal(kill((pid_t)g, 0), 0);
	/* Killing the shell first makes us (the subreaper) the grandchild's parent: still ours. */
	struct supervisor sv;
	assert_int_equal(supervisor_init(&sv), 0);
	assert_int_equal(supervisor_watch(&sv, "shell", pid, false), 0);
	supervisor_stop_all(&sv, SESSION_STOP_GRACE_MS);
	assert_int_equal(kill((pid_t)g, 0), -1);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	supervisor_done(&sv);
}

/* A stopped child is continued along with its TERM, so it ends by TERM within the grace rather
 * than by the KILL after it. */
static void test_stop_continues_stopped(void **state)
{
	struct supervisor sv;
	assert_int_equal(supervisor_init(&sv), 0);
	pid_t pid = run_sh("exec sleep 300", NULL);
	assert_int_equal(supervisor_watch(&sv, "stopped", pid, false), 0);
	assert_int_equal(kill(pid, SIGSTOP), 0);
	struct proc_stat st = {0};
	uint64_t deadline = now_ms() + 5000;
	while (now_ms() < deadline && (proc_stat_read(pid, &st) < 0 || st.state != 'T')) {
		(void)supervisor_wait(&sv, -1, now_ms() + 10);
	}
	assert_int_equal(st.state, 'T');
	supervisor_stop_all(&sv, SESSION_STOP_GRACE_MS);
	assert_false(sv.children[0].running);
	assert_true(WIFSIGNALED(sv.children[0].status));
	assert_int_equal(WTERMSIG(sv.children[0].status), SIGTERM);
	supervisor_done(&sv);
}

/* The session's teardown when its children ignore TERM, one of them in a session of its own
 * (out of reach of the runner's signals to the process group): both are KILLed after the grace,
 * and the display claim (path socket, abstract name, X lock) is given up. */
static void test_teardown_releases_claim(void **state)
{
	char *locks = unit_mkdtemp();
	struct claim c;
	unsigned n = 0;
	for (unsigned i = 6000 + (unsigned)getpid() % 2000; i < 9000 && n == 0; i++) {
		claim_init(&c);
		struct error err = {0};
		if (claim_sockets(&c, XSOCKET_DIR, i, &err) == 0) {
			n = i;
		} else {
			claim_release(&c);
		}
	}
	assert_true(n != 0);

	struct supervisor sv;
	assert_int_equal(supervisor_init(&sv), 0);
	/* TERM is ignored before either pid is written, and the ignoring survives exec. */
	long pids[2];
	pid_t pid = run_sh_pids("trap '' TERM; setsid sh -c 'echo $$ >&3; exec sleep 300' & "
				"echo $$ >&3; exec sleep 300",
				pids, 2);
	/* The shell and its daemon, in whichever order they wrote. */
	assert_true((pids[0] == pid) != (pids[1] == pid));
	pid_t daemon = (pid_t)(pids[0] == pid ? pids[1] : pids[0]);
	assert_int_equal(supervisor_watch(&sv, "stubborn", pid, true), 0);
	struct error err = {0};
	assert_int_equal(claim_lock(&c, locks, pid, &err), 0);
	char lock[64], path[sizeof(c.path)];
	snprintf(lock, sizeof(lock), ".X%u-lock", n);
	snprintf(path, sizeof(path), "%s", c.path);
	assert_int_equal(access(st_path(locks, lock), F_OK), 0);
	assert_int_equal(access(path, F_OK), 0);

	session_stop(&sv, &c);

	assert_false(sv.children[0].running);
	assert_true(WIFSIGNALED(sv.children[0].status));
	assert_int_equal(WTERMSIG(sv.children[0].status), SIGKILL);
	assert_int_equal(kill(daemon, 0), -1);
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(access(st_path(locks, lock), F_OK), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(errno, ENOENT);
	/* The number is free for the next claim. */
	struct claim again;
	claim_init(&again);
	assert_int_equal(claim_sockets(&again, XSOCKET_DIR, n, &err), 0);
	claim_release(&again);
	supervisor_done(&sv);
	unit_rm_rf(locks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listen_fds_handshake),
		cmocka_unit_test(test_no_stray_fds),
		cmocka_unit_test(test_exec_failure_is_an_error),
		cmocka_unit_test(test_essential_child_ends),
		cmocka_unit_test(test_cause_is_the_server),
		cmocka_unit_test(test_fd_timeout_and_stop),
		cmocka_unit_test(test_stop_reaches_daemons),
		cmocka_unit_test(test_tree_matches_descendants),
		cmocka_unit_test(test_signal_checks_identity),
		cmocka_unit_test(test_signal_checks_parent),
		cmocka_unit_test(test_stop_continues_stopped),
		cmocka_unit_test(test_teardown_releases_claim),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
