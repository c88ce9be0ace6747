/* Prints the helper's figures: its size in lines, its resident memory (the privileged side and
 * the parser child, seen while the parser waits for the request), and the time a dry-run
 * decision takes, both the helper's round trip alone and `botdesk install --dry-run` as a whole
 * process. Usage: bench-helper [HELPER [BOTDESK [ROUNDS]]]
 * The helper must run as root to do its real work: run this as root, or point HELPER at a copy
 * installed setuid root (root:botdesk 4750) and run it as a member of group botdesk. */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "benchlib.h"
#include "helperclient.h"
#include "parse.h"
#include "util.h"

extern char **environ;

static long count_lines(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f) {
		return -1;
	}
	long n = 0;
	int c;
	while ((c = fgetc(f)) != EOF) {
		n += c == '\n';
	}
	fclose(f);
	return n;
}

static void report_size(const char *helper)
{
	long total = 0;
	DIR *d = opendir(BENCH_SRCDIR "/helper");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 2 && e->d_name[len - 2] == '.' &&
		    (e->d_name[len - 1] == 'c' || e->d_name[len - 1] == 'h')) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/helper/%s", BENCH_SRCDIR, e->d_name);
			total += count_lines(path);
		}
	}
	if (d) {
		closedir(d);
	}
	long proto = count_lines(BENCH_SRCDIR "/common/proto.c") +
		     count_lines(BENCH_SRCDIR "/common/proto.h");
	printf("%-44s %ld lines in helper/, %ld more in common/proto.[ch]\n", "size", total, proto);
	struct stat st;
	if (stat(helper, &st) == 0) {
		printf("%-44s %lld bytes (%s)\n", "binary", (long long)st.st_size, helper);
	}
}

/* VmRSS and VmHWM of pid, in KiB. */
static void rss_of(pid_t pid, uint64_t *rss, uint64_t *hwm)
{
	char path[64], buf[4096];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	*rss = *hwm = 0;
	FILE *f = fopen(path, "re");
	while (f && fgets(buf, sizeof(buf), f)) {
		uint64_t *into = startswith(buf, "VmRSS:")   ? rss
				 : startswith(buf, "VmHWM:") ? hwm
							     : NULL;
		if (into) {
			char *p = buf + 6;
			p += strspn(p, " \t");
			(void)parse_u64_n(p, strspn(p, "0123456789"), UINT64_MAX, into);
		}
	}
	if (f) {
		fclose(f);
	}
}

static pid_t first_child(pid_t pid)
{
	char path[64], buf[256];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	for (int i = 0; i < 500; i++) {
		FILE *f = fopen(path, "re");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
		if (f) {
			fclose(f);
		}
		buf[n] = '\0';
		uint64_t child;
		if (n > 0 && parse_u64_n(buf, strspn(buf, "0123456789"), INT32_MAX, &child) == 0) {
			return (pid_t)child;
		}
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	return -1;
}

static void report_memory(const char *helper)
{
	/* Started as botdesk starts it, then held before the request: both processes are alive
	 * and fully set up (the parser is confined and blocked in read). */
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		perror("socketpair");
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(sv[1], PROTO_HELPER_FD);
		char name[] = "botdesk-helper";
		char *const argv[] = {name, NULL};
		execve(helper, argv, environ);
		_exit(127);
	}
	close(sv[1]);
	pid_t parser = first_child(pid);
	uint64_t rss = 0, hwm = 0, prss = 0, phwm = 0;
	rss_of(pid, &rss, &hwm);
	if (parser > 0) {
		rss_of(parser, &prss, &phwm);
	}
	uint8_t req[PROTO_REQUEST_SIZE];
	struct proto_request rq = {.op = PROTO_OP_DECIDE};
	proto_request_encode(&rq, req);
	(void)!send(sv[0], req, sizeof(req), MSG_NOSIGNAL);
	shutdown(sv[0], SHUT_WR);
	uint8_t buf[PROTO_REPLY_SIZE];
	while (recv(sv[0], buf, sizeof(buf), 0) > 0) {
	}
	close(sv[0]);
	waitpid(pid, NULL, 0);
	if (parser <= 0) {
		printf("%-44s privileged side %llu KiB (no parser child: not running as root?)\n",
		       "resident memory", (unsigned long long)rss);
		return;
	}
	printf("%-44s privileged side %llu KiB (peak %llu), parser child %llu KiB\n",
	       "resident memory (VmRSS)", (unsigned long long)rss, (unsigned long long)hwm,
	       (unsigned long long)prss);
}

int main(int argc, char **argv)
{
	const char *helper = argc > 1 ? argv[1] : BENCH_HELPER;
	const char *botdesk = argc > 2 ? argv[2] : BENCH_BOTDESK;
	unsigned rounds = 50;
	if (argc > 3 && parse_uint_range(argv[3], 3, 10000, &rounds) < 0) {
		fprintf(stderr, "usage: %s [HELPER [BOTDESK [ROUNDS]]]\n", argv[0]);
		return 2;
	}
	report_size(helper);
	report_memory(helper);

	double *t = calloc(rounds, sizeof(double));
	if (!t) {
		return 1;
	}
	for (unsigned i = 0; i < rounds; i++) {
		struct helperclient_outcome o;
		double t0 = bench_now_ms();
		if (helperclient_call(helper, PROTO_OP_DECIDE, NULL, NULL, &o) < 0 ||
		    o.outcome != PROTO_OK) {
			fprintf(stderr,
				"the helper did not decide (%s): run as root, or use a setuid "
				"copy as a member of its group\n",
				proto_outcome_name(o.outcome));
			return 1;
		}
		t[i] = bench_now_ms() - t0;
	}
	bench_report("helper decide round trip", t, rounds);

	setenv("BOTDESK_HELPER", helper, 1);
	char dir[] = "/tmp/botdesk-bench-helper.XXXXXX";
	if (mkdtemp(dir)) {
		setenv("BOTDESK_STATE_DIR", dir, 1);
	}
	char a0[4096], a1[] = "install", a2[] = "--dry-run";
	snprintf(a0, sizeof(a0), "%s", botdesk);
	char *const dry[] = {a0, a1, a2, NULL};
	for (unsigned i = 0; i < rounds; i++) {
		t[i] = bench_time_quiet(dry[0], dry, 0);
		if (t[i] < 0) {
			fprintf(stderr, "%s install --dry-run failed\n", botdesk);
			return 1;
		}
	}
	bench_report("botdesk install --dry-run (whole process)", t, rounds);
	rmdir(dir);
	free(t);
	return 0;
}
