/* The package manager of the helper's test build. It reports what it was started with (argv,
 * environment, fds, umask, limits, OOM score, signals, credentials, capabilities, session,
 * terminal, scheduling, timer slack) on
 * stdout, which the helper relays to the test, then behaves as $BOTDESK_STUB_DIR/mode says. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/ioprio.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "parse.h"
#include "rlimits.h"

static void report_argv(int argc, char **argv)
{
	printf("stub-argv:");
	for (int i = 0; i < argc; i++) {
		printf(" %s", argv[i]);
	}
	printf("\n");
}

static void report_env(void)
{
	extern char **environ;
	for (char **e = environ; *e; e++) {
		printf("stub-env: %s\n", *e);
	}
}

static void report_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d) {
		printf("stub-fds: ?\n");
		return;
	}
	printf("stub-fds:");
	struct dirent *e;
	while ((e = readdir(d))) {
		uint64_t fd;
		if (parse_u64(e->d_name, INT32_MAX, &fd) == 0 && (int)fd != dirfd(d)) {
			printf(" %s", e->d_name);
		}
	}
	printf("\n");
	closedir(d);
}

static void report_status(void)
{
	static const char *const keys[] = {"Umask:",
					   "Uid:",
					   "Gid:",
					   "Groups:",
					   "SigBlk:",
					   "SigIgn:",
					   "CapInh:",
					   "CapPrm:",
					   "CapEff:",
					   "CapBnd:",
					   "CapAmb:",
					   "NoNewPrivs:",
					   "Cpus_allowed_list:"};
	FILE *f = fopen("/proc/self/status", "re");
	char line[512];
	while (f && fgets(line, sizeof(line), f)) {
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strncmp(line, keys[i], strlen(keys[i])) == 0) {
				printf("stub-status: %s", line);
			}
		}
	}
	if (f) {
		fclose(f);
	}
}

static void report_limits(void)
{
	for (size_t i = 0; i < TEST_LIMITS_COUNT; i++) {
		struct rlimit rl;
		getrlimit(test_limits[i].res, &rl);
		printf("stub-limit: %s %lld %lld\n", test_limits[i].name,
		       rl.rlim_cur == RLIM_INFINITY ? -1LL : (long long)rl.rlim_cur,
		       rl.rlim_max == RLIM_INFINITY ? -1LL : (long long)rl.rlim_max);
	}
}

static void report_oom(void)
{
	char buf[16] = "?";
	FILE *f = fopen("/proc/self/oom_score_adj", "re");
	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
		}
		fclose(f);
	}
	printf("stub-oom: %s\n", buf);
}

static void report_sched(void)
{
	errno = 0;
	int nice = getpriority(PRIO_PROCESS, 0);
	printf("stub-sched: nice=%d policy=%d ioprio=%ld\n", errno ? -100 : nice,
	       sched_getscheduler(0), syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, 0));
	printf("stub-timerslack: %d\n", prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
}

static void report_session(void)
{
	printf("stub-session: pid=%d sid=%d pgid=%d\n", (int)getpid(), (int)getsid(0),
	       (int)getpgrp());
	struct stat in, null;
	bool devnull = fstat(0, &in) == 0 && stat("/dev/null", &null) == 0 && S_ISCHR(in.st_mode) &&
		       in.st_rdev == null.st_rdev;
	printf("stub-stdin: %s\n", devnull ? "devnull" : "other");
	int tty = open("/dev/tty", O_RDWR | O_CLOEXEC);
	printf("stub-tty: %s\n", tty >= 0 ? "open" : strerror(errno));
	char cwd[256];
	printf("stub-cwd: %s\n", getcwd(cwd, sizeof(cwd)) ? cwd : "?");
}

static void read_mode(char *mode, size_t size)
{
	snprintf(mode, size, "ok");
	const char *dir = getenv("BOTDESK_STUB_DIR");
	if (!dir) {
		return;
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/mode", dir);
	FILE *f = fopen(path, "re");
	if (f) {
		if (fgets(mode, (int)size, f)) {
			mode[strcspn(mode, "\n")] = '\0';
		}
		fclose(f);
	}
}

/* A record of every run, so a test can tell what ran, and that nothing did. */
static void record(int argc, char **argv)
{
	const char *dir = getenv("BOTDESK_STUB_DIR");
	if (!dir) {
		return;
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/ran", dir);
	FILE *r = fopen(path, "ae");
	if (!r) {
		return;
	}
	for (int i = 1; i < argc; i++) {
		fprintf(r, "%s%s", i > 1 ? " " : "", argv[i]);
	}
	fprintf(r, "\n");
	fclose(r);
	/* Our pid, which is our process group's id: a test can tell the whole group is gone even
	 * when none of our output reached it. */
	snprintf(path, sizeof(path), "%s/pids", dir);
	FILE *p = fopen(path, "ae");
	if (p) {
		fprintf(p, "%d\n", (int)getpid());
		fclose(p);
	}
}

static bool has_arg(int argc, char **argv, const char *a)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], a) == 0) {
			return true;
		}
	}
	return false;
}

/* The helper's "nothing to do" queries: dpkg-query -W -f=... PKGS and apt-cache policy PKGS,
 * answered as $BOTDESK_STUB_DIR/installed says: all (every package installed at its candidate),
 * upgradable (the first has a newer candidate), half (the first is unpacked, not configured),
 * missing (the first is not installed); no file: none is. Each query is recorded in queried, not
 * in ran: it is not a run of the package manager. */
static int query(int argc, char **argv)
{
	const char *dir = getenv("BOTDESK_STUB_DIR");
	char state[32] = "none", path[4096];
	if (dir) {
		snprintf(path, sizeof(path), "%s/installed", dir);
		FILE *f = fopen(path, "re");
		if (f) {
			if (!fgets(state, sizeof(state), f)) {
				state[0] = '\0';
			}
			state[strcspn(state, "\n")] = '\0';
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s/queried", dir);
		FILE *q = fopen(path, "ae");
		if (q) {
			fprintf(q, "%s\n", argv[1]);
			fclose(q);
		}
	}
	bool dpkg = strcmp(argv[1], "-W") == 0;
	if (strcmp(state, "none") == 0) {
		return dpkg ? 1 : 0;
	}
	for (int i = dpkg ? 3 : 2; i < argc; i++) {
		bool first = i == (dpkg ? 3 : 2);
		bool missing = first && strcmp(state, "missing") == 0;
		if (dpkg) {
			const char *st = missing                               ? "un "
					 : first && strcmp(state, "half") == 0 ? "iU "
									       : "ii ";
			printf("%s%s\n", st, argv[i]);
		} else {
			printf("%s:\n  Installed: %s\n  Candidate: %s\n  Version table:\n", argv[i],
			       missing ? "(none)" : "1.0-1",
			       first && strcmp(state, "upgradable") == 0 ? "1.1-1" : "1.0-1");
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && (strcmp(argv[1], "-W") == 0 || strcmp(argv[1], "policy") == 0)) {
		return query(argc, argv);
	}
	report_argv(argc, argv);
	report_env();
	report_fds();
	report_status();
	report_limits();
	report_oom();
	report_session();
	report_sched();
	char mode[64];
	read_mode(mode, sizeof(mode));
	record(argc, argv);
	bool update = has_arg(argc, argv, "update");
	if (strcmp(mode, "ok") == 0 || (update && strcmp(mode, "update-fail") != 0)) {
		printf("pmstatus:xfwm4:50.0000:Installing xfwm4\n");
		printf("stub: %s done\n", update ? "update" : "install");
		return 0;
	}
	if (strcmp(mode, "update-fail") == 0) {
		printf("E: Failed to fetch "
		       "http://archive.invalid/debian/dists/bookworm/InRelease\n");
		return 100;
	}
	if (strcmp(mode, "not-found") == 0) {
		printf("E: Unable to locate package tigervnc-standalone-server\n");
		return 100;
	}
	if (strcmp(mode, "locked") == 0) {
		printf("E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process "
		       "4242 (apt-get)\n");
		printf("E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), "
		       "is another process using it?\n");
		return 100;
	}
	if (strcmp(mode, "download") == 0) {
		printf("E: Failed to fetch http://archive.invalid/debian/pool/main/x/xfwm4.deb\n");
		return 100;
	}
	if (strcmp(mode, "fail") == 0) {
		printf("E: Sub-process /usr/bin/dpkg returned an error code (1)\n");
		return 100;
	}
	if (strcmp(mode, "hang") == 0) {
		/* Ignores TERM: only the KILL after the grace ends it. */
		signal(SIGTERM, SIG_IGN);
		printf("stub: hanging\n");
		for (;;) {
			pause();
		}
	}
	if (strcmp(mode, "straggler") == 0) {
		/* The leader exits at once; a child of its group that ignores TERM lives on and
		 * keeps the output pipe open, as a careless maintainer script's daemon would. */
		pid_t p = fork();
		if (p == 0) {
			signal(SIGTERM, SIG_IGN);
			for (;;) {
				pause();
			}
		}
		printf("stub-straggler: %d\n", (int)p);
		return 0;
	}
	printf("stub: unknown mode %s\n", mode);
	return 3;
}
