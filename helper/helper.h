/* botdesk-helper's modules. The helper is run by botdesk (setuid root, group botdesk, mode 4750)
 * with one end of a SOCK_SEQPACKET pair on fd 3; see docs/SECURITY.md for the whole picture. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "policy.h"
#include "proto.h"
#include "timeutil.h"

/* Exit statuses besides the proto_outcome values (0-12), for the cases where no reply can be
 * sent or none should be. */
#define HELPER_EXIT_USAGE 64       /* argc is not 1 (argc 0 included) */
#define HELPER_EXIT_BAD_SOCKET 65  /* fd 3 is not the caller's own unix SEQPACKET socket */
#define HELPER_EXIT_SETUP 70       /* a start-up hardening step failed */
#define HELPER_EXIT_TEST_SETUID 71 /* the test build refuses to run setuid */

/* The unprivileged identity of the parser child (nobody/nogroup on Debian and Fedora). Numeric,
 * so no NSS module is loaded as root to find it. */
#define HELPER_PARSER_UID 65534
#define HELPER_PARSER_GID 65534

/* The helper's one clock. Every bound is measured on it, never through a socket option or a
 * timer the caller could have set or changed. */
/* A poll() timeout for a wait of ms, capped at a minute (callers loop on their deadline). */
static inline int helper_poll_ms(uint64_t ms)
{
	return ms < 60000 ? (int)ms : 60000;
}

/* settings.c is the one file that differs between the installed helper and its test build. */
struct helper_settings {
	const char *apt_path;        /* absolute, fixed */
	const char *dnf_path;        /* absolute, fixed */
	const char *dpkg_query_path; /* the "nothing to do" queries: absolute, fixed */
	const char *apt_cache_path;
	const char *lock_path;     /* the host-wide "one install at a time" lock */
	const char *pace_dir;      /* root's 0700 directory of per-uid install stamps */
	const char *log_path;      /* the audit line, where no syslog daemon takes it */
	const char *apt_lists_dir; /* empty means "refresh first" */
	const char *extra_env;     /* test build only: one more NAME=value for the stub */
	int forced_manager;        /* test build only: a proto_manager, or -1 to detect */
	uint64_t request_timeout_ms;
	uint64_t reply_timeout_ms; /* how long the final result may wait for the runner */
	uint64_t install_timeout_ms;
	uint64_t query_timeout_ms;    /* each "nothing to do" query */
	uint64_t install_interval_ms; /* per uid, between installs */
	uint64_t grace_ms; /* TERM -> KILL, and how long stragglers may outlive the leader */
	unsigned dpkg_lock_timeout_s;
	/* The audit lines one uid may add per window; the rest of a burst is counted, its last
	 * line kept, and both written when the next window opens (audit.c). */
	uint64_t audit_window_ms;
	unsigned audit_burst;
	/* test build only: run in the parser child after the drop / after the filter. */
	void (*probe_dropped)(void);
	void (*probe_filtered)(void);
};

/* Called before the environment is cleared: the test build reads its knobs there. -EPERM when the
 * test build finds itself setuid. */
int helper_settings_init(struct helper_settings *ret);

/* prologue.c: the start-up hardening, in the order main() calls it. */
int prologue_timers(void);
int prologue_stdio(void);
int prologue_socket(int fd);
void prologue_close_fds(int keep_upto);
int prologue_signals(void);
/* Every disposition SIG_DFL, nothing blocked: what the package manager starts with. */
int prologue_signals_default(void);
int prologue_no_dump(void);
/* The fixed limits; -EPERM when a hard limit the caller lowered cannot be raised to its floor. */
int prologue_rlimits(void);
/* oom_score_adj 0; -EACCES where that needs a capability we lack. */
int prologue_oom(void);
/* Default nice, policy, I/O priority and CPU affinity (needs CAP_SYS_NICE to raise). */
int prologue_sched(void);

/* caps.c */
/* Permitted and effective sets become exactly what the privileged side uses from here on. */
int caps_keep_broker(void);
/* The bounding set keeps only what installing packages needs (needs CAP_SETPCAP). */
int caps_bound_install(void);
/* Bounding, permitted, effective, inheritable and ambient all empty (needs CAP_SETPCAP). */
int caps_clear_bound(void);
int caps_clear_proc(void);
bool caps_proc_empty(void);

/* decide.c: which manager, and whether this caller may install. */
enum proto_manager decide_manager(const struct helper_settings *hs, const char **ret_path);
/* The caller may use the helper: root, or a member of the group owning the helper binary. */
int decide_permitted(uid_t ruid, gid_t rgid, gid_t helper_gid);
/* The package set op asks for. */
enum policy_set decide_set(enum proto_op op);
/* The exact argv that installs set (or, when update is set, refreshes the lists). argv must hold
 * 32 entries. */
int decide_argv(const struct helper_settings *hs, enum proto_manager m, const char *path,
		enum policy_set set, bool update, const char *argv[32], char lock_opt[64]);
/* argv joined with single spaces, for the decide reply. */
int decide_command_line(const char *const *argv, char *buf, size_t size);

/* parser.c: the confined child that alone reads the runner's bytes. */
struct parser_result {
	enum proto_outcome outcome; /* PROTO_OK, PROTO_BAD_REQUEST, PROTO_REQUEST_TIMEOUT, ... */
	enum proto_op op;           /* when PROTO_OK */
	int32_t detail;             /* PROTO_INTERNAL: the child's wait status */
};
int parser_run(int sock, const struct helper_settings *hs, struct parser_result *ret);
int parser_drop(void);
int parser_filter_load(int sock, int channel);
/* SO_PASSCRED on sock, so that an empty record can be told from the end of input. */
int parser_mark_records(int sock);
/* What the parser child does with sock (marked by parser_mark_records()): one valid request and
 * then the end, by the deadline. -EBADMSG for anything else, -ETIMEDOUT at the deadline. */
int parser_read_request(int sock, uint64_t deadline, enum proto_op *ret_op);

/* reply.c: the only writer to the runner. No send waits: lines are queued and dropped, oldest
 * first, when the runner falls behind; only the result waits, for drain_ms at most. A runner that
 * went away is no error: the install goes on (an interrupted dpkg is worse than an unread line). */
#define REPLY_QUEUE 32
struct reply {
	int fd;
	bool gone;
	uint64_t drain_ms;
	unsigned skipped; /* lines dropped since the last one queued was sent */
	size_t head, count;
	uint8_t queue[REPLY_QUEUE][PROTO_REPLY_SIZE];
};
void reply_line(struct reply *r, const char *text, size_t len);
/* Sends what the socket takes now; never waits. */
void reply_flush(struct reply *r);
bool reply_pending(const struct reply *r);
void reply_result(struct reply *r, enum proto_outcome outcome, enum proto_manager m,
		  int32_t detail);

/* install.c: unless every package of set is installed already (apt), take the host lock and the
 * caller's pace, run the package manager as full root and relay its output. */
enum proto_outcome install_run_manager(const struct helper_settings *hs, enum proto_manager m,
				       const char *path, enum policy_set set, uid_t caller,
				       struct reply *r, int32_t *ret_detail);

/* audit.c: one line to syslog (authpriv, notice) through /dev/log, else appended to the root-owned
 * file at hs->log_path, at most hs->audit_burst lines of uid per window (see audit.c). -errno when
 * it reached neither, or was held back. */
int audit_log(const struct helper_settings *hs, uid_t uid, const char *msg);

/* pace.c: the stamp of caller's last install in dir, checked and renewed. Returns its fd (held
 * while the install runs, then given to pace_end()), or -EAGAIN with the wait left when the last
 * install of caller started or ended less than interval_ms ago. */
int pace_start(const char *dir, uid_t caller, uint64_t interval_ms, uint64_t *ret_wait_ms);
/* Root's own 0700 directory at path (made when missing), opened; -EPERM for anything else. */
int pace_open_dir(const char *path);
void pace_end(int fd);
