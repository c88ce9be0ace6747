/* The figures of issue 25.6 for batches, on a running desktop, as its user:
 *   - an MCP tools/call click round trip on a `botdesk mcp` that is already up (goal <= 1 ms);
 *   - an MCP `batch` of 10 clicks, round trip, the same server (goal <= 10 ms);
 *   - `botdesk batch` of the same 10 clicks as a whole process (spawn, stdin, exit), beside
 *     10 `botdesk click` processes one after the other, what a script would otherwise run.
 * Each as median and p99 (and p90, min). Usage, with the profile's settings in the environment:
 *   bench-batch PATH-TO-botdesk [ROUNDS]
 * The clicks land around the middle of the screen, in screen pixels (from 1440x900 is not
 * assumed: the MCP calls give from = the screen's size read from `botdesk status --json`). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlib.h"

#define CLICKS 10

static void report(const char *what, double *v, int n)
{
	bench_sort(v, (size_t)n);
	printf("%-52s median %7.3f ms  p99 %7.3f ms  p90 %7.3f ms  min %7.3f ms  (n=%d)\n", what,
	       v[n / 2], v[n * 99 / 100], v[n * 9 / 10], v[0], n);
}

/* The screen's size from `botdesk status --json`'s geometry. */
static int screen_size(const char *botdesk, unsigned *w, unsigned *h)
{
	char cmd[4200], line[8192];
	snprintf(cmd, sizeof(cmd), "'%s' status --json", botdesk);
	FILE *f = popen(cmd, "r");
	int found = -1;
	while (f && fgets(line, sizeof(line), f)) {
		const char *g = strstr(line, "\"geometry\":\"");
		if (g && sscanf(g + 12, "%ux%u", w, h) == 2) {
			found = 0;
		}
	}
	if (f) {
		pclose(f);
	}
	return found;
}

/* The steps of a batch of CLICKS clicks around (x, y), as JSON (with from when from is set). */
static void clicks_json(char *buf, size_t size, unsigned x, unsigned y, const char *from)
{
	size_t n = (size_t)snprintf(buf, size, "[");
	for (int i = 0; i < CLICKS && n < size; i++) {
		n += (size_t)snprintf(
			buf + n, size - n,
			"%s{\"tool\":\"click\",\"arguments\":{\"x\":%u,\"y\":%u%s%s%s}}",
			i ? "," : "", x + (unsigned)i, y, from ? ",\"from\":\"" : "",
			from ? from : "", from ? "\"" : "");
	}
	if (n < size) {
		snprintf(buf + n, size - n, "]");
	}
}

/* bench_mcp_call, saying why when it failed. */
static double mcp_call(struct bench_mcp *m, int id, const char *name, const char *args)
{
	double t = bench_mcp_call(m, id, name, args, NULL);
	if (t < 0) {
		fprintf(stderr, "bench-batch: %s: %s", name, m->line ? m->line : "no answer\n");
	}
	return t;
}

/* argv run with input on its stdin (a pipe: the batch fits its buffer), stdout to /dev/null: its
 * wall time from spawn to exit, or -1 when it failed. */
static double run_with_input(char *const argv[], const char *input)
{
	int p[2];
	if (pipe(p) < 0) {
		return -1;
	}
	double t0 = bench_now_ms();
	pid_t pid = fork();
	if (pid == 0) {
		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null < 0 || dup2(null, 1) < 0) {
			_exit(127);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[0]);
	ssize_t len = (ssize_t)strlen(input);
	ssize_t n = write(p[1], input, (size_t)len);
	close(p[1]);
	int status;
	waitpid(pid, &status, 0);
	double t = bench_now_ms() - t0;
	return n == len && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static int measure(char *bd, int rounds, char **argv)
{
	unsigned sw, sh;
	if (screen_size(bd, &sw, &sh) < 0) {
		fprintf(stderr, "bench-batch: no running desktop ('%s status --json'): start one\n",
			bd);
		return 1;
	}
	char from[32], args[128], steps[4096], batch_args[4200];
	snprintf(from, sizeof(from), "%ux%u", sw, sh);
	double *v = calloc((size_t)rounds, sizeof(double));
	struct bench_mcp m = {0};
	if (!v) {
		return 1;
	}
	if (bench_mcp_start(&m, bd) < 0) {
		fprintf(stderr, "bench-batch: server/discover: %s",
			m.line ? m.line : "no answer\n");
		return 1;
	}
	double click = 0, batch = 0;
	/* Five warm-up calls of each, then the rounds. */
	for (int i = -5; i < rounds && click >= 0; i++) {
		snprintf(args, sizeof(args), "{\"x\":%u,\"y\":%u,\"from\":\"%s\"}",
			 sw / 2 + (i & 1), sh / 2, from);
		click = mcp_call(&m, 10 + i, "click", args);
		if (i >= 0) {
			v[i] = click;
		}
	}
	if (click >= 0) {
		report("MCP tools/call click round trip (server up)", v, rounds);
	}
	clicks_json(steps, sizeof(steps), sw / 2 - CLICKS, sh / 2, from);
	snprintf(batch_args, sizeof(batch_args), "{\"steps\":%s}", steps);
	for (int i = -5; i < rounds && batch >= 0 && click >= 0; i++) {
		batch = mcp_call(&m, 100000 + i, "batch", batch_args);
		if (i >= 0) {
			v[i] = batch;
		}
	}
	if (batch >= 0 && click >= 0) {
		report("MCP batch of 10 clicks round trip (server up)", v, rounds);
	}
	bench_mcp_stop(&m);
	/* The same 10 clicks from the command line: one botdesk batch, and 10 botdesk click. */
	clicks_json(steps, sizeof(steps), sw / 2 - CLICKS, sh / 2, NULL);
	char *cli_batch[] = {bd, (char[]){"batch"}, NULL};
	int whole = rounds / 4 + 5;
	double b = 0;
	for (int i = -2; i < whole && b >= 0; i++) {
		b = run_with_input(cli_batch, steps);
		if (i >= 0) {
			v[i] = b;
		}
	}
	if (b >= 0) {
		report("`botdesk batch` of 10 clicks, whole process", v, whole);
	}
	char x[16], y[16];
	snprintf(y, sizeof(y), "%u", sh / 2);
	char *cli_click[] = {bd, (char[]){"click"}, x, y, NULL};
	double c = 0;
	for (int i = -2; i < whole && c >= 0; i++) {
		double t = 0;
		for (int k = 0; k < CLICKS && c >= 0; k++) {
			snprintf(x, sizeof(x), "%u", sw / 2 - CLICKS + (unsigned)k);
			c = bench_time_quiet(bd, cli_click, 0);
			t += c;
		}
		if (i >= 0) {
			v[i] = t;
		}
	}
	if (c >= 0) {
		report("10 `botdesk click` processes, one after the other", v, whole);
	}
	free(v);
	return click < 0 || batch < 0 || b < 0 || c < 0;
}

int main(int argc, char **argv)
{
	return bench_desktop_main(argc, argv, 200, 10, 100000, measure);
}
