/* Prints the actions' figures side by side with the tools other agent desktops call, on the same
 * running desktop, whole process each time (spawn to exit), after what one process start costs
 * on this machine (`/bin/true`, the runner's own `botdesk --version`, and click-floor: the least
 * a whole-process XTEST click can cost):
 *   - `botdesk click X Y` and `xdotool mousemove X Y click 1`
 *   - `botdesk type` of 100 ASCII characters (and `xdotool type` of the same)
 *   - `botdesk screenshot --output F` (full size PNG) and `scrot -o F`
 *   - an MCP tools/call click round trip (revision 2026-07-28) on a `botdesk mcp` that is
 *     already up
 * Usage, as the desktop's user with the profile's settings in the environment:
 *   bench-act PATH-TO-botdesk [ROUNDS]
 * The clicks land in the middle of the screen and the text goes to whatever has the focus. */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlib.h"

extern char **environ;

/* A writable copy of a literal, for an argv. */
#define S(x) ((char[]){x})

/* Runs argv with stdout to /dev/null; its wall time in ms, or -1 when it failed. */
static double run(char *const argv[])
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	double t0 = bench_now_ms();
	pid_t pid;
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	int status;
	waitpid(pid, &status, 0);
	double t = bench_now_ms() - t0;
	posix_spawn_file_actions_destroy(&fa);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static void report(const char *what, double *v, int n)
{
	bench_sort(v, (size_t)n);
	printf("%-52s median %7.2f ms  p90 %7.2f ms  min %7.2f ms  (n=%d)\n", what, v[n / 2],
	       v[n * 9 / 10], v[0], n);
}

/* Times argv rounds times (after two warm-up runs); the median, or -1 when it cannot run. */
static double series(const char *what, char *const argv[], double *v, int rounds)
{
	for (int i = 0; i < 2; i++) {
		if (run(argv) < 0) {
			printf("%-52s (cannot run %s)\n", what, argv[0]);
			return -1;
		}
	}
	for (int i = 0; i < rounds; i++) {
		v[i] = run(argv);
		if (v[i] < 0) {
			printf("%-52s (failed)\n", what);
			return -1;
		}
	}
	report(what, v, rounds);
	return bench_median(v, (size_t)rounds);
}

/* MCP click round trips on one server that is up (after five not counted). */
static double mcp_roundtrips(const char *botdesk, double *v, int rounds)
{
	struct bench_mcp m = {0};
	if (bench_mcp_start(&m, botdesk) < 0) {
		fprintf(stderr, "mcp: server/discover: %s", m.line ? m.line : "no answer\n");
		return -1;
	}
	double res = 0;
	for (int i = -5; i < rounds && res >= 0; i++) {
		char args[64];
		snprintf(args, sizeof(args), "{\"x\":%d,\"y\":450}", 700 + (i & 1));
		res = bench_mcp_call(&m, i + 10, "click", args, NULL);
		if (res < 0) {
			fprintf(stderr, "mcp: %s", m.line ? m.line : "no answer\n");
		} else if (i >= 0) {
			v[i] = res;
		}
	}
	bench_mcp_stop(&m);
	if (res < 0) {
		return -1;
	}
	report("MCP tools/call click round trip (server up)", v, rounds);
	return bench_median(v, (size_t)rounds);
}

static int measure(char *bd, int rounds, char **argv)
{
	/* The typing series run rounds / 4 + 5 times: more than rounds below 7. */
	double *v = calloc((size_t)rounds + 5, sizeof(double));
	char text[101];
	for (int i = 0; i < 100; i++) {
		text[i] = "abcdefghij klmnopqrstuvwxyz0123456789"[i % 37];
	}
	text[100] = '\0';
	char png[] = "/tmp/bench-act-XXXXXX";
	int fd = mkstemp(png);
	if (fd < 0 || !v) {
		return 1;
	}
	close(fd);
	/* What a process start costs on this machine, for reading the whole-process figures: a
	 * click starts two programs (the runner, which execs botdesk-act-pointer). */
	char *nop[] = {S("/bin/true"), NULL};
	char *version[] = {bd, S("--version"), NULL};
	char *click[] = {bd, S("click"), S("700"), S("450"), NULL};
	/* Built beside bench-act. */
	char floor_click[4096];
	ssize_t n = readlink("/proc/self/exe", floor_click, sizeof(floor_click) - 32);
	char *slash = n > 0 ? memrchr(floor_click, '/', (size_t)n) : NULL;
	if (slash) {
		snprintf(slash + 1, sizeof(floor_click) - (size_t)(slash + 1 - floor_click),
			 "click-floor");
	}
	char *fclick[] = {floor_click, NULL};
	char *xclick[] = {S("xdotool"), S("mousemove"), S("700"), S("450"),
			  S("click"),   S("1"),         NULL};
	char *type[] = {bd, S("type"), text, NULL};
	char *xtype[] = {S("xdotool"), S("type"), S("--delay"), S("0"), text, NULL};
	char *shot[] = {bd, S("screenshot"), S("--output"), png, NULL};
	char *scrot[] = {S("scrot"), S("-o"), png, NULL};
	char *thumb[] = {bd, S("thumbnail"), S("--output"), png, NULL};
	double start_ms = series("`/bin/true` (one process start)", nop, v, rounds);
	series("`botdesk --version` (the runner's start)", version, v, rounds);
	double floor_ms =
		slash ? series("click-floor (XCB connect, XTEST click, sync; nothing else)", fclick,
			       v, rounds)
		      : -1;
	double c = series("`botdesk click 700 450`", click, v, rounds);
	double xc = series("`xdotool mousemove 700 450 click 1`", xclick, v, rounds);
	double t = series("`botdesk type` of 100 ASCII characters", type, v, rounds / 4 + 5);
	series("`xdotool type --delay 0` of the same", xtype, v, rounds / 4 + 5);
	double s = series("`botdesk screenshot --output F` (1440x900 PNG)", shot, v, rounds);
	double sc = series("`scrot -o F` (1440x900 PNG)", scrot, v, rounds);
	series("`botdesk thumbnail --output F` (960x600 PNG)", thumb, v, rounds);
	double m = mcp_roundtrips(bd, v, rounds);
	unlink(png);
	printf("\n");
	if (c > 0) {
		printf("click: %.2f ms (goal <= 3; here one process start costs %.2f ms", c,
		       start_ms);
		if (floor_ms > 0) {
			printf(", the least whole-process XTEST click %.2f ms", floor_ms);
		}
		printf(")%s\n", xc > 0 ? "" : "; xdotool not installed");
		if (xc > 0) {
			printf("click vs xdotool: %.1fx faster (goal >= 3x)\n", xc / c);
		}
	}
	if (t > 0) {
		printf("type 100 characters: %.2f ms (goal <= 40)\n", t);
	}
	if (s > 0) {
		printf("screenshot: %.2f ms (goal <= 30)\n", s);
		if (sc > 0) {
			printf("screenshot vs scrot: %.1fx faster (goal >= 3x)\n", sc / s);
		}
	}
	if (m > 0) {
		printf("MCP click round trip: %.3f ms (goal <= 1)\n", m);
	}
	free(v);
	return 0;
}

int main(int argc, char **argv)
{
	return bench_desktop_main(argc, argv, 100, 5, 10000, measure);
}
