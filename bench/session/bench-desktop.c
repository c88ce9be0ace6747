/* Prints the desktop's figures of issue 4's speed table, on the real botdesk with the real
 * botdesk-session (run it as a normal user on a machine with the desktop packages):
 *   - `botdesk start` until it returns, which is when the window manager owns the screen;
 *   - `botdesk stop`;
 *   - `botdesk start` after the launcher was SIGKILLed (reaping the orphaned X server);
 *   - the desktop's PSS once settled (every process of the launcher's session and below it);
 *   - thumbnail_png() of the screen fitted to 960x600: the first call of a process, and the
 *     median of repeated calls.
 * Usage: bench-desktop PATH-TO-botdesk PATH-TO-botdesk-session [ROUNDS] [SETTLE-SECONDS] */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchlib.h"
#include "parse.h"
#include "proc.h"
#include "thumbnail.h"

/* The scratch state root, and its default profile's directory. */
static char state[256], profile[300];

/* Runs `botdesk COMMAND [ARG...]` (up to three arguments), output to /dev/null; its wall time in
 * ms, or -1 when it failed. */
static double run_args(const char *botdesk, const char *command, const char *a1, const char *a2)
{
	char cmd[32], x1[512], x2[512];
	snprintf(cmd, sizeof(cmd), "%s", command);
	snprintf(x1, sizeof(x1), "%s", a1 ? a1 : "");
	snprintf(x2, sizeof(x2), "%s", a2 ? a2 : "");
	char *argv[] = {(char[]){"botdesk"}, cmd, a1 ? x1 : NULL, a2 ? x2 : NULL, NULL};
	return bench_time_quiet(botdesk, argv, 0);
}

static double run(const char *botdesk, const char *command)
{
	return run_args(botdesk, command, NULL, NULL);
}

/* A terminal full of text on the desktop, for a thumbnail of a screen that is not mostly one
 * colour: `botdesk exec -- xfce4-terminal ...`, left running (stop ends it). */
static bool open_terminal(const char *botdesk)
{
	if (access("/usr/bin/xfce4-terminal", X_OK) != 0) {
		return false;
	}
	char *argv[] = {(char[]){"botdesk"},
			(char[]){"exec"},
			(char[]){"--"},
			(char[]){"xfce4-terminal"},
			(char[]){"--geometry"},
			(char[]){"160x50"},
			(char[]){"-x"},
			(char[]){"sh"},
			(char[]){"-c"},
			(char[]){"ls -l /usr/bin | head -300; exec sleep 600"},
			NULL};
	if (bench_spawn_quiet(botdesk, argv) < 0) {
		return false;
	}
	/* Time to map and draw its text. */
	sleep(3);
	return true;
}

struct pss {
	long kib;
	int count;
};

static void add_pss_of(pid_t pid, void *ctx)
{
	struct pss *p = ctx;
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", pid);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		long kib;
		if (sscanf(line, "Pss: %ld kB", &kib) == 1) {
			p->kib += kib;
			p->count++;
		}
	}
	if (f) {
		fclose(f);
	}
}

/* Sums Pss over the launcher's session and everything below it. */
static long desktop_pss_kib(pid_t launcher, int *count)
{
	struct pss p = {0};
	bench_desktop_each(launcher, add_pss_of, &p);
	*count = p.count;
	return p.kib;
}

static void wait_gone(pid_t pid)
{
	for (int i = 0; i < 5000; i++) {
		struct proc_stat st;
		if (proc_stat_read(pid, &st) < 0 || !proc_stat_is_live(&st)) {
			return;
		}
		usleep(1000);
	}
}

static double thumbnail_once(const char *display, const char *xauth)
{
	unsigned char *png;
	size_t len;
	struct error err = {0};
	double t0 = bench_now_ms();
	if (thumbnail_png(display, xauth, 960, 600, &png, &len, &err) < 0) {
		fprintf(stderr, "thumbnail: %s\n", err.msg);
		return -1;
	}
	double t = bench_now_ms() - t0;
	free(png);
	return t;
}

static void report(const char *what, double *v, unsigned n, const char *unit)
{
	bench_sort(v, n);
	printf("%-52s median %8.1f %s  min %8.1f %s  max %8.1f %s  (n=%u)\n", what, v[n / 2], unit,
	       v[0], unit, v[n - 1], unit, n);
}

int main(int argc, char **argv)
{
	unsigned rounds = 5, settle = 5;
	if (argc < 3 || (argc > 3 && parse_uint_range(argv[3], 1, 100, &rounds) < 0) ||
	    (argc > 4 && parse_uint_range(argv[4], 0, 600, &settle) < 0)) {
		fprintf(stderr,
			"usage: %s PATH-TO-botdesk PATH-TO-botdesk-session [ROUNDS] [SETTLE-S]\n",
			argv[0]);
		return 2;
	}
	const char *botdesk = argv[1];
	snprintf(state, sizeof(state), "/tmp/botdesk-bench-desktop.XXXXXX");
	if (!mkdtemp(state)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(profile, sizeof(profile), "%s/default", state);
	setenv("BOTDESK_STATE_DIR", state, 1);
	setenv("BOTDESK_LAUNCHER", argv[2], 1);
	setenv("BOTDESK_MIN_FREE_MB", "0", 1);
	unsetenv("BOTDESK_PROFILE");

	double *start = calloc(rounds, sizeof(double)), *stop = calloc(rounds, sizeof(double)),
	       *restart = calloc(rounds, sizeof(double)), *pss = calloc(rounds, sizeof(double)),
	       *thumb_first = calloc(rounds, sizeof(double)),
	       *thumb = calloc(rounds * 20, sizeof(double)),
	       *thumb_cli = calloc(rounds, sizeof(double)),
	       *thumb_text = calloc(rounds * 20, sizeof(double));
	unsigned n_text = 0;
	unsigned n_thumb = 0;
	int procs = 0;
	for (unsigned i = 0; i < rounds; i++) {
		start[i] = run(botdesk, "start");
		if (start[i] < 0) {
			fprintf(stderr, "botdesk start failed; see %s/default/launcher.log\n",
				state);
			return 1;
		}
		sleep(settle);
		pss[i] = (double)desktop_pss_kib(bench_launcher_pid(profile), &procs) / 1024.0;
		char display[4096], xauth[4096];
		if (bench_read_env(profile, display, xauth, sizeof(display)) == 0) {
			/* Only round 0's first call is the first of the process (cold). */
			double t = thumbnail_once(display, xauth);
			if (i == 0) {
				thumb_first[0] = t;
			}
			for (int k = 0; k < 20; k++) {
				thumb[n_thumb++] = thumbnail_once(display, xauth);
			}
		}
		char out[512];
		snprintf(out, sizeof(out), "%s/thumb.png", state);
		thumb_cli[i] = run_args(botdesk, "thumbnail", "--output", out);
		stop[i] = run(botdesk, "stop");
		/* A second desktop, with a terminal full of text on it, whose launcher is then
		 * SIGKILLed. */
		if (run(botdesk, "start") < 0 ||
		    bench_read_env(profile, display, xauth, sizeof(display)) < 0) {
			return 1;
		}
		if (open_terminal(botdesk)) {
			for (int k = 0; k < 20; k++) {
				thumb_text[n_text++] = thumbnail_once(display, xauth);
			}
		}
		pid_t l = bench_launcher_pid(profile);
		kill(l, SIGKILL);
		wait_gone(l);
		restart[i] = run(botdesk, "start");
		run(botdesk, "stop");
	}
	printf("botdesk desktop figures, %u rounds, settled %u s:\n", rounds, settle);
	report("start (returns once the window manager owns it)", start, rounds, "ms");
	report("start after the launcher was SIGKILLed", restart, rounds, "ms");
	report("stop", stop, rounds, "ms");
	report("settled desktop PSS", pss, rounds, "MiB");
	printf("    (%d processes)\n", procs);
	report("thumbnail 960x600, first call of the process", thumb_first, 1, "ms");
	report("thumbnail 960x600, repeated calls", thumb, n_thumb, "ms");
	report("`botdesk thumbnail --output FILE`, whole process", thumb_cli, rounds, "ms");
	if (n_text > 0) {
		report("thumbnail 960x600 of a terminal full of text", thumb_text, n_text, "ms");
	}
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", state);
	return system(cmd) == 0 ? 0 : 1;
}
