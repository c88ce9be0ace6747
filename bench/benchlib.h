/* What the bench programs share: the clock, the figures (sort, median, the one-line report),
 * running a program quietly and timing it, reading a running profile's published files, and for
 * the programs that time botdesk on a running desktop (bench/act) their command line, the
 * desktop's environment and an MCP client of their own. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* CLOCK_MONOTONIC in milliseconds. */
double bench_now_ms(void);
/* Orders doubles, for qsort. */
int bench_cmp(const void *a, const void *b);
/* Sorts v[0..n) in place, smallest first. */
void bench_sort(double *v, size_t n);
/* The median of v[0..n) (n > 0), which is left as it is. */
double bench_median(const double *v, size_t n);
/* Sorts v[0..n) (n > 0) and prints one line: WHAT, median, p90 and min in ms, and n. */
void bench_report(const char *what, double *v, size_t n);

/* Starts path with argv and the current environment, stdout and stderr to /dev/null; its pid, or
 * -1. */
pid_t bench_spawn_quiet(const char *path, char *const argv[]);
/* Reaps pid: its exit status, 128 + the signal that ended it, or -1. */
int bench_wait(pid_t pid);
/* Runs path quietly to its end: its wall time in ms when it exited with a status of at most
 * max_ok, or -1. */
double bench_time_quiet(const char *path, char *const argv[], int max_ok);

/* DISPLAY and XAUTHORITY (each up to size) from the env file in a profile's state directory;
 * 0, or -1 when the file or either line is missing. */
int bench_read_env(const char *profile_dir, char *display, char *xauth, size_t size);
/* The pid in a profile's launcher.pid, or -1. */
pid_t bench_launcher_pid(const char *profile_dir);
/* Calls fn for every process of the desktop whose launcher is launcher: the launcher, its
 * session and every process below it (looked up to 64 generations above each). */
void bench_desktop_each(pid_t launcher, void (*fn)(pid_t pid, void *ctx), void *ctx);

/* The main() of a program that times botdesk on a running desktop: reads its command line,
 * PATH-TO-botdesk [ROUNDS] (ROUNDS is dflt when it is missing, not a number or outside
 * [min, max]), sets the desktop's DISPLAY and XAUTHORITY from `botdesk env` in this process's
 * environment (for Xlib and the tools it runs), then runs measure and returns its exit status.
 * Without PATH-TO-botdesk it says so and returns 2, without a running desktop 1. */
int bench_desktop_main(int argc, char **argv, unsigned dflt, unsigned min, unsigned max,
		       int (*measure)(char *botdesk, int rounds, char **argv));

/* A `botdesk mcp` of the program's own on a pair of pipes, spoken to as a client of revision
 * 2026-07-28 speaks: server/discover first, then every request with the revision and the
 * client's capabilities in its _meta. One request line out, one answer line in. */
struct bench_mcp {
	pid_t pid;
	FILE *w, *r;
	/* The last answer line (for a message when a call failed), NULL before the first. */
	char *line;
	size_t cap;
};
/* Starts `botdesk mcp` and discovers it: 0, or -1 when it did not answer with its versions. */
int bench_mcp_start(struct bench_mcp *m, const char *botdesk);
/* One tools/call of name with args (a JSON object): its round trip in ms (and the answer line's
 * length in *ret_len, when ret_len is set) when the answer is a complete result and no error,
 * else -1. */
double bench_mcp_call(struct bench_mcp *m, int id, const char *name, const char *args,
		      size_t *ret_len);
/* Closes the server's pipes (it ends on the end of its input) and reaps it. */
void bench_mcp_stop(struct bench_mcp *m);
