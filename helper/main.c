/* botdesk-helper: installs the desktop's packages (or the web viewer's) for members of group
 * botdesk. Run only by botdesk, with its socket on fd 3; takes no arguments and nothing from the
 * environment. Every step that can go wrong ends the process: it fails closed. See
 * botdesk-helper(8). */
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/personality.h>
#include <sys/stat.h>

#include "helper.h"
#include "log.h"
#include "util.h"

static int finish(const struct helper_settings *hs, const char *op, uid_t ruid,
		  enum proto_outcome outcome)
{
	/* The caller's uid, the operation and the outcome: never a byte the caller chose. A line
	 * that reached no log changes nothing: the outcome stands, and there is nobody to tell
	 * but the caller. */
	char msg[128];
	snprintf(msg, sizeof(msg), "uid=%u op=%s outcome=%s", (unsigned)ruid, op,
		 proto_outcome_name(outcome));
	(void)audit_log(hs, ruid, msg);
	return (int)outcome;
}

static int become_root(void)
{
	/* For the install, the privileged side drops the caller's real uid too: from here on the
	 * caller cannot signal or stop it (which would leave dpkg half-way while we hold the host
	 * lock), and a new session keeps the terminal's ^C and hangup away. */
	if (setgroups(0, NULL) < 0 || setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0) {
		return negative_errno();
	}
	(void)setsid();
	static const int tty_signals[] = {SIGINT, SIGQUIT, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU};
	for (size_t i = 0; i < ARRAY_SIZE(tty_signals); i++) {
		if (signal(tty_signals[i], SIG_IGN) == SIG_ERR) {
			return negative_errno();
		}
	}
	return 0;
}

static int serve(const struct helper_settings *hs, uid_t ruid, gid_t rgid, gid_t helper_gid)
{
	struct reply rep = {.fd = PROTO_HELPER_FD, .drain_ms = hs->reply_timeout_ms};
	if (geteuid() != 0) {
		/* Not setuid root, a nosuid mount, or a caller under no_new_privs: nothing to
		 * protect, nothing to read. The runner tells the user what to do instead. */
		reply_result(&rep, PROTO_NOT_PRIVILEGED, PROTO_MANAGER_NONE, 0);
		return PROTO_NOT_PRIVILEGED;
	}
	int r = prologue_rlimits();
	if (r == 0) {
		r = prologue_oom();
	}
	if (r == -EPERM || r == -EACCES) {
		/* Limits lowered or an OOM score raised that root cannot undo here: an install
		 * under them could die half-way through dpkg. Root must run it instead. */
		reply_result(&rep, PROTO_LIMITS, PROTO_MANAGER_NONE, 0);
		return finish(hs, "-", ruid, PROTO_LIMITS);
	}
	if (r < 0 || prologue_sched() < 0) {
		return HELPER_EXIT_SETUP;
	}
	if (decide_permitted(ruid, rgid, helper_gid) < 0) {
		reply_result(&rep, PROTO_NOT_PERMITTED, PROTO_MANAGER_NONE, 0);
		return finish(hs, "-", ruid, PROTO_NOT_PERMITTED);
	}
	const char *path;
	enum proto_manager m = decide_manager(hs, &path);
	if (caps_keep_broker() < 0) {
		return HELPER_EXIT_SETUP;
	}
	/* Only the confined child reads the request; we get back one checked value. */
	struct parser_result pr;
	if (parser_run(PROTO_HELPER_FD, hs, &pr) < 0) {
		return HELPER_EXIT_SETUP;
	}
	if (pr.outcome != PROTO_OK) {
		reply_result(&rep, pr.outcome, PROTO_MANAGER_NONE, pr.detail);
		return finish(hs, "-", ruid, pr.outcome);
	}
	const char *op = proto_op_name(pr.op);
	enum policy_set set = decide_set(pr.op);
	if (m == PROTO_MANAGER_NONE) {
		reply_result(&rep, PROTO_NO_MANAGER, m, 0);
		return finish(hs, op, ruid, PROTO_NO_MANAGER);
	}
	if (!proto_op_installs(pr.op)) {
		const char *argv[32];
		char lock_opt[64], line[PROTO_LINE_MAX + 1];
		if (decide_argv(hs, m, path, set, false, argv, lock_opt) < 0 ||
		    decide_command_line(argv, line, sizeof(line)) < 0) {
			reply_result(&rep, PROTO_INTERNAL, m, 0);
			return finish(hs, op, ruid, PROTO_INTERNAL);
		}
		reply_line(&rep, line, strlen(line));
		reply_result(&rep, PROTO_OK, m, 0);
		return finish(hs, op, ruid, PROTO_OK);
	}
	if (become_root() < 0) {
		return HELPER_EXIT_SETUP;
	}
	int32_t detail;
	enum proto_outcome o = install_run_manager(hs, m, path, set, ruid, &rep, &detail);
	reply_result(&rep, o, m, detail);
	return finish(hs, op, ruid, o);
}

#ifdef BOTDESK_SANITIZED
/* A sanitizer build only: the leak checker stops the process with ptrace at exit, which a
 * setuid, non-dumpable, seccomp-confined process cannot allow, so it would turn every exit into
 * a failure. The allocation and undefined-behaviour checks stay on. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}
#endif

int main(int argc, char *argv[])
{
	/* First of all: a timer the caller left running would fire later, when we are root. */
	if (prologue_timers() < 0) {
		return HELPER_EXIT_SETUP;
	}
	/* With argc 0, argv[1] is envp[0] (CVE-2021-4034): look at nothing, say nothing. Linux
	 * 5.18 and later turn an empty argv into {""}, so an empty argv[0] is refused alike. */
	if (argc < 1 || !argv[0] || !argv[0][0]) {
		return HELPER_EXIT_USAGE;
	}
	if (prologue_stdio() < 0) {
		return HELPER_EXIT_SETUP;
	}
	log_set_program("botdesk-helper");
	struct helper_settings hs;
	int r = helper_settings_init(&hs);
	if (r == -EPERM) {
		log_error("this test build refuses to run setuid or setgid");
		return HELPER_EXIT_TEST_SETUID;
	}
	if (r < 0) {
		log_error("a BOTDESK_HELPER_TEST_* setting is not valid");
		return HELPER_EXIT_SETUP;
	}
	/* glibc sanitises only a few variables for setuid programs, and nothing for what we exec
	 * as full root: keep none of them. */
	if (clearenv() != 0) {
		return HELPER_EXIT_SETUP;
	}
	if (argc != 1) {
		log_error("takes no arguments: botdesk runs it (see botdesk-helper(8))");
		return HELPER_EXIT_USAGE;
	}
	if (prologue_socket(PROTO_HELPER_FD) < 0) {
		log_error(
			"fd %d is not the caller's own unix SEQPACKET socket: botdesk runs this helper, nobody else",
			PROTO_HELPER_FD);
		return HELPER_EXIT_BAD_SOCKET;
	}
	prologue_close_fds(PROTO_HELPER_FD);
	umask(022);
	/* The kernel clears only some personality flags on a setuid exec; UNAME26 and the like
	 * would otherwise reach the package manager and its maintainer scripts. */
	if (personality(PER_LINUX) < 0) {
		return HELPER_EXIT_SETUP;
	}
	struct stat self;
	if (chdir("/") < 0 || stat("/proc/self/exe", &self) < 0 || prologue_no_dump() < 0 ||
	    prologue_signals() < 0) {
		return HELPER_EXIT_SETUP;
	}
	return serve(&hs, getuid(), getgid(), self.st_gid);
}
