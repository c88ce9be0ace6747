/* What the bench programs of bench/helper, bench/runner and bench/session share: the clock, the
 * figures (sort, median, the one-line report), running a program quietly and timing it, and
 * reading a running profile's published files. bench/act keeps its own. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
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
