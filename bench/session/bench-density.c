/* Prints issue 15's density figures for the full desktop (the component set of before) and the
 * lean one, measured in the same run, the two interleaved round by round so that a noisy machine
 * weighs on both alike (run it as a normal user on a machine with the desktop packages):
 *   - one warm desktop: `botdesk start` until it returns (the desktop is usable then: the window
 *     manager owns the screen), and the CPU its processes spent by then and once settled, per
 *     process (utime+stime+cutime+cstime of each: what a component's children cost and it
 *     reaped, such as xkbcomp, is counted with it);
 *   - a new profile's first start, against the warm start of the same round;
 *   - N warm desktops started at once: until the last start returned, and MemAvailable before
 *     and with all N running and settled, per desktop.
 * Usage: bench-density PATH-TO-botdesk PATH-TO-botdesk-session [N] [ROUNDS] [SETTLE-SECONDS]
 * One user may run 8 desktops unless the host policy says more: for N=10, run it in a mount
 * namespace whose /etc/botdesk/policy.conf raises max_desktops_per_user (docs/session.md shows
 * how), so the host's /etc stays untouched. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchlib.h"
#include "parse.h"
#include "proc.h"

#define MAX_N 32
#define MAX_ROUNDS 20
#define MAX_COMMS 24

static const char *const modes[2] = {"full", "lean"};
static const char *botdesk;
static char state[256];
static unsigned settle = 3;

/* Spawns `botdesk --profile PROFILE COMMAND` with the desktop profile MODE, output to
 * /dev/null. */
static pid_t spawn_botdesk(const char *profile, const char *command, const char *mode)
{
	char p[128], c[32];
	snprintf(p, sizeof(p), "%s", profile);
	snprintf(c, sizeof(c), "%s", command);
	char *argv[] = {(char[]){"botdesk"}, (char[]){"--profile"}, p, c, NULL};
	setenv("BOTDESK_DESKTOP_PROFILE", mode, 1);
	return bench_spawn_quiet(botdesk, argv);
}

static bool reaped_ok(pid_t pid)
{
	return bench_wait(pid) == 0;
}

/* Runs one command; its wall time in ms, or -1 when it failed. */
static double run(const char *profile, const char *command, const char *mode)
{
	double t0 = bench_now_ms();
	pid_t pid = spawn_botdesk(profile, command, mode);
	if (!reaped_ok(pid)) {
		fprintf(stderr, "botdesk --profile %s %s failed; see %s/%s/launcher.log\n", profile,
			command, state, profile);
		return -1;
	}
	return bench_now_ms() - t0;
}

static pid_t launcher_pid(const char *profile)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/%s", state, profile);
	return bench_launcher_pid(dir);
}

/* One process's name and CPU in ms, children it reaped included. */
static bool cpu_of(pid_t pid, char *comm, size_t size, double *ms)
{
	char path[64], text[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	FILE *f = fopen(path, "r");
	if (!f) {
		return false;
	}
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	char *open = strchr(text, '('), *close = strrchr(text, ')');
	if (!open || !close) {
		return false;
	}
	snprintf(comm, size, "%.*s", (int)(close - open - 1), open + 1);
	unsigned long long ut, st, cut, cst;
	/* After ')': state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt, then
	 * utime stime cutime cstime. */
	if (sscanf(close + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
		   &ut, &st, &cut, &cst) != 4) {
		return false;
	}
	*ms = (double)(ut + st + cut + cst) * 1000.0 / (double)sysconf(_SC_CLK_TCK);
	return true;
}

/* Per process name, the CPU of one measurement. */
struct cpu {
	char names[MAX_COMMS][64];
	double ms[MAX_COMMS];
	unsigned n;
	double total;
};

static void cpu_add(struct cpu *c, const char *name, double ms)
{
	unsigned i = 0;
	while (i < c->n && strcmp(c->names[i], name) != 0) {
		i++;
	}
	if (i == c->n && c->n < MAX_COMMS) {
		snprintf(c->names[c->n++], sizeof(c->names[0]), "%s", name);
	}
	if (i < MAX_COMMS) {
		c->ms[i] += ms;
	}
	c->total += ms;
}

static void add_cpu_of(pid_t pid, void *ctx)
{
	char comm[64];
	double ms;
	if (cpu_of(pid, comm, sizeof(comm), &ms)) {
		cpu_add(ctx, comm, ms);
	}
}

/* Every process of the desktop whose launcher is pid: its session and everything below it. */
static void desktop_cpu(pid_t launcher, struct cpu *c)
{
	bench_desktop_each(launcher, add_cpu_of, c);
}

static long mem_available_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	long kib = -1;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemAvailable: %ld kB", &kib) == 1) {
			break;
		}
	}
	if (f) {
		fclose(f);
	}
	return kib;
}

/* Starts (or stops) profiles PREFIX-0 .. PREFIX-(n-1) at once; the wall time until the last
 * returned, or -1. */
static double all_at_once(const char *prefix, unsigned n, const char *command, const char *mode)
{
	pid_t pids[MAX_N];
	double t0 = bench_now_ms();
	for (unsigned i = 0; i < n; i++) {
		char p[64];
		snprintf(p, sizeof(p), "%s-%u", prefix, i);
		pids[i] = spawn_botdesk(p, command, mode);
	}
	bool ok = true;
	for (unsigned i = 0; i < n; i++) {
		if (!reaped_ok(pids[i])) {
			fprintf(stderr,
				"botdesk --profile %s-%u %s failed; see %s/%s-%u/launcher.log\n",
				prefix, i, command, state, prefix, i);
			ok = false;
		}
	}
	return ok ? bench_now_ms() - t0 : -1;
}

/* One mode's figures, one slot per round. */
struct figures {
	double start[MAX_ROUNDS], cpu_return[MAX_ROUNDS], cpu_settled[MAX_ROUNDS];
	double new_start[MAX_ROUNDS], new_cpu[MAX_ROUNDS];
	double many_start[MAX_ROUNDS], many_mem[MAX_ROUNDS], many_cpu[MAX_ROUNDS];
	struct cpu per[MAX_ROUNDS];
};

static int one_round(unsigned round, const char *mode, struct figures *f, unsigned n)
{
	char warm[64], fresh[80], many[64];
	snprintf(warm, sizeof(warm), "warm-%s", mode);
	snprintf(fresh, sizeof(fresh), "new-%s-%u", mode, round);
	snprintf(many, sizeof(many), "many-%s", mode);

	/* One warm desktop. */
	if ((f->start[round] = run(warm, "start", mode)) < 0) {
		return -1;
	}
	struct cpu c = {0};
	desktop_cpu(launcher_pid(warm), &c);
	f->cpu_return[round] = c.total;
	sleep(settle);
	desktop_cpu(launcher_pid(warm), &f->per[round]);
	f->cpu_settled[round] = f->per[round].total;
	if (run(warm, "stop", mode) < 0) {
		return -1;
	}

	/* A new profile's first start. */
	if ((f->new_start[round] = run(fresh, "start", mode)) < 0) {
		return -1;
	}
	sleep(settle);
	c = (struct cpu){0};
	desktop_cpu(launcher_pid(fresh), &c);
	f->new_cpu[round] = c.total;
	if (run(fresh, "stop", mode) < 0) {
		return -1;
	}

	/* n warm desktops at once. */
	sleep(1);
	long before = mem_available_kib();
	if ((f->many_start[round] = all_at_once(many, n, "start", mode)) < 0) {
		return -1;
	}
	sleep(settle + 2);
	long after = mem_available_kib();
	f->many_mem[round] = (double)(before - after) / 1024.0 / n;
	c = (struct cpu){0};
	for (unsigned i = 0; i < n; i++) {
		char p[96];
		snprintf(p, sizeof(p), "%s-%u", many, i);
		desktop_cpu(launcher_pid(p), &c);
	}
	f->many_cpu[round] = c.total / n;
	return all_at_once(many, n, "stop", mode) < 0 ? -1 : 0;
}

static void line(const char *what, const double *full, const double *lean, unsigned rounds,
		 const char *unit)
{
	double a = bench_median(full, rounds), b = bench_median(lean, rounds);
	printf("%-50s full %8.1f %-4s lean %8.1f %-4s lean/full %5.2f\n", what, a, unit, b, unit,
	       a > 0 ? b / a : 0.0);
}

/* The median CPU of each process name of the settled warm desktop. */
static void per_process(const char *mode, const struct figures *f, unsigned rounds)
{
	printf("  %s, per process (settled, median ms):", mode);
	const struct cpu *first = &f->per[0];
	for (unsigned k = 0; k < first->n; k++) {
		double v[MAX_ROUNDS];
		for (unsigned r = 0; r < rounds; r++) {
			v[r] = 0;
			for (unsigned j = 0; j < f->per[r].n; j++) {
				if (strcmp(f->per[r].names[j], first->names[k]) == 0) {
					v[r] += f->per[r].ms[j];
				}
			}
		}
		printf(" %s %.0f", first->names[k], bench_median(v, rounds));
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	unsigned n = 10, rounds = 3;
	if (argc < 3 || (argc > 3 && parse_uint_range(argv[3], 1, MAX_N, &n) < 0) ||
	    (argc > 4 && parse_uint_range(argv[4], 1, MAX_ROUNDS, &rounds) < 0) ||
	    (argc > 5 && parse_uint_range(argv[5], 1, 60, &settle) < 0)) {
		fprintf(stderr,
			"usage: %s PATH-TO-botdesk PATH-TO-botdesk-session [N] [ROUNDS] "
			"[SETTLE-S]\n",
			argv[0]);
		return 2;
	}
	botdesk = argv[1];
	snprintf(state, sizeof(state), "/tmp/botdesk-bench-density.XXXXXX");
	if (!mkdtemp(state)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("BOTDESK_STATE_DIR", state, 1);
	setenv("BOTDESK_LAUNCHER", argv[2], 1);
	setenv("BOTDESK_MIN_FREE_MB", "0", 1);
	unsetenv("BOTDESK_PROFILE");

	static struct figures fig[2];
	int r = 0;
	/* Warm-up: every profile the rounds start "warm" has been started once before. */
	for (unsigned m = 0; m < 2 && r == 0; m++) {
		char warm[64], many[64];
		snprintf(warm, sizeof(warm), "warm-%s", modes[m]);
		snprintf(many, sizeof(many), "many-%s", modes[m]);
		r = run(warm, "start", modes[m]) < 0 || run(warm, "stop", modes[m]) < 0 ||
				    all_at_once(many, n, "start", modes[m]) < 0 ||
				    all_at_once(many, n, "stop", modes[m]) < 0
			    ? -1
			    : 0;
	}
	/* The modes alternate which goes first, round by round. */
	for (unsigned i = 0; i < rounds && r == 0; i++) {
		for (unsigned k = 0; k < 2 && r == 0; k++) {
			unsigned m = (i + k) % 2;
			r = one_round(i, modes[m], &fig[m], n);
		}
	}
	if (r == 0) {
		struct figures *f = &fig[0], *l = &fig[1];
		printf("botdesk density figures, %u rounds (medians), %u desktops at once, settled "
		       "%u s, %ld CPUs:\n",
		       rounds, n, settle, sysconf(_SC_NPROCESSORS_ONLN));
		line("start -> usable, one warm desktop", f->start, l->start, rounds, "ms");
		line("CPU of the desktop when start returned", f->cpu_return, l->cpu_return, rounds,
		     "ms");
		line("CPU of the desktop start, settled", f->cpu_settled, l->cpu_settled, rounds,
		     "ms");
		per_process("full", f, rounds);
		per_process("lean", l, rounds);
		line("start -> usable, a new profile's first start", f->new_start, l->new_start,
		     rounds, "ms");
		line("CPU of a new profile's first start, settled", f->new_cpu, l->new_cpu, rounds,
		     "ms");
		char what[96];
		snprintf(what, sizeof(what), "%u warm desktops at once, until all usable", n);
		line(what, f->many_start, l->many_start, rounds, "ms");
		snprintf(what, sizeof(what), "MemAvailable per desktop, %u running", n);
		line(what, f->many_mem, l->many_mem, rounds, "MiB");
		snprintf(what, sizeof(what), "CPU per desktop, %u started at once, settled", n);
		line(what, f->many_cpu, l->many_cpu, rounds, "ms");
		double nw[2];
		for (unsigned m = 0; m < 2; m++) {
			nw[m] = bench_median(fig[m].new_start, rounds) /
				bench_median(fig[m].start, rounds);
		}
		printf("%-50s full %8.2f      lean %8.2f\n",
		       "new profile's first start / warm start", nw[0], nw[1]);
	}
	if (r != 0) {
		/* Whatever a failed round left running. */
		for (unsigned m = 0; m < 2; m++) {
			char p[64];
			snprintf(p, sizeof(p), "many-%s", modes[m]);
			all_at_once(p, n, "stop", modes[m]);
			snprintf(p, sizeof(p), "warm-%s", modes[m]);
			run(p, "stop", modes[m]);
		}
	}
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", state);
	if (system(cmd) != 0) {
		r = -1;
	}
	return r == 0 ? 0 : 1;
}
