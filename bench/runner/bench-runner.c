/* Prints the runner's figures: the whole-process time of `botdesk status`, and the time
 * `botdesk start` adds on top of an instant launcher (start wall time minus the launcher's own
 * run time), over scratch state. Usage: bench-runner PATH-TO-botdesk [ROUNDS] */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlib.h"

/* Runs argv quietly: its wall time in ms, or -1 when it failed (status and stop may exit 3:
 * nothing running). */
static double run(char *const argv[])
{
	return bench_time_quiet(argv[0], argv, 3);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH-TO-botdesk [ROUNDS]\n", argv[0]);
		return 2;
	}
	int rounds = argc > 2 ? atoi(argv[2]) : 50;
	if (rounds < 3 || rounds > 10000) {
		rounds = 50;
	}
	char dir[] = "/tmp/botdesk-bench.XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	char path[4096];
	/* An instant launcher: claims, publishes (the screen's size too, which status reads), says
	 * so on the start's handshake (fd 3, when the runner hands one over) and then just waits to
	 * be stopped. */
	snprintf(path, sizeof(path), "%s/launcher.sh", dir);
	FILE *f = fopen(path, "w");
	fputs("#!/bin/sh\necho $$ > \"$BOTDESK_X_LOCK_DIR/.X$BOTDESK_DISPLAY_NUM-lock\"\n"
	      "[ -z \"$BOTDESK_NOTIFY_FD\" ] || echo \"claimed $BOTDESK_DISPLAY_NUM\" >&3\n"
	      ": > \"$BOTDESK_SOCKET\"\necho 1024x768 > \"${BOTDESK_ENV_FILE%/*}/geometry\"\n"
	      "printf 'DISPLAY=:%s\\n' \"$BOTDESK_DISPLAY_NUM\" > \"$BOTDESK_ENV_FILE\"\n"
	      "[ -z \"$BOTDESK_NOTIFY_FD\" ] || echo ready >&3\n"
	      "exec sleep 600 3>&-\n",
	      f);
	fclose(f);
	chmod(path, 0755);
	setenv("BOTDESK_LAUNCHER", path, 1);
	snprintf(path, sizeof(path), "%s/state", dir);
	setenv("BOTDESK_STATE_DIR", path, 1);
	setenv("BOTDESK_X_LOCK_DIR", dir, 1);
	snprintf(path, sizeof(path), "%s/alloc.lock", dir);
	setenv("BOTDESK_ALLOC_LOCK", path, 1);
	snprintf(path, sizeof(path), "%s/no-unix-table", dir);
	setenv("BOTDESK_X_UNIX_TABLE", path, 1);
	/* The required programs, as stubs, so the start is not refused on a bare machine. */
	snprintf(path, sizeof(path), "%s/bin", dir);
	mkdir(path, 0755);
	const char *progs[] = {"Xvnc",      "dbus-run-session", "xfwm4",
			       "xfdesktop", "xfce4-panel",      "xfsettingsd"};
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		char p[4200];
		snprintf(p, sizeof(p), "%s/%s", path, progs[i]);
		int fd = open(p, O_WRONLY | O_CREAT, 0755);
		close(fd);
	}
	char newpath[8192];
	snprintf(newpath, sizeof(newpath), "%s:%s", path, getenv("PATH") ? getenv("PATH") : "");
	setenv("PATH", newpath, 1);

	double *t = calloc((size_t)rounds, sizeof(double));
	double *u = calloc((size_t)rounds, sizeof(double));
	static char a_start[] = "start", a_stop[] = "stop", a_status[] = "status";
	char *start[] = {argv[1], a_start, NULL};
	char *stop[] = {argv[1], a_stop, NULL};
	char *status[] = {argv[1], a_status, NULL};
	char launcher[4096];
	snprintf(launcher, sizeof(launcher), "%s/launcher.sh", dir);
	for (int i = 0; i < rounds; i++) {
		t[i] = run(start);
		if (t[i] < 0 || run(stop) < 0) {
			fprintf(stderr, "botdesk start/stop failed\n");
			return 1;
		}
	}
	/* The launcher alone, minus its final sleep: what any start must pay anyway. */
	setenv("BOTDESK_DISPLAY_NUM", "99", 1);
	snprintf(path, sizeof(path), "%s/state/default/rfb.sock", dir);
	setenv("BOTDESK_SOCKET", path, 1);
	snprintf(path, sizeof(path), "%s/state/default/env", dir);
	setenv("BOTDESK_ENV_FILE", path, 1);
	snprintf(path, sizeof(path), "%s/instant.sh", dir);
	f = fopen(path, "w");
	fputs("#!/bin/sh\necho $$ > \"$BOTDESK_X_LOCK_DIR/.X$BOTDESK_DISPLAY_NUM-lock\"\n"
	      ": > \"$BOTDESK_SOCKET\"\nprintf 'DISPLAY=:%s\\n' \"$BOTDESK_DISPLAY_NUM\" > "
	      "\"$BOTDESK_ENV_FILE\"\n",
	      f);
	fclose(f);
	chmod(path, 0755);
	char *instant[] = {path, NULL};
	for (int i = 0; i < rounds; i++) {
		u[i] = run(instant);
	}
	bench_sort(u, (size_t)rounds);
	double launcher_ms = u[rounds / 2];
	for (int i = 0; i < rounds; i++) {
		t[i] -= launcher_ms;
	}
	bench_report("start: added on top of an instant launcher", t, (size_t)rounds);
	printf("%-44s median %7.2f ms\n", "  (the launcher itself)", launcher_ms);

	unsetenv("BOTDESK_DISPLAY_NUM");
	if (run(start) < 0) {
		return 1;
	}
	for (int i = 0; i < rounds; i++) {
		t[i] = run(status);
	}
	bench_report("status: whole process, desktop running", t, (size_t)rounds);
	run(stop);
	for (int i = 0; i < rounds; i++) {
		t[i] = run(stop);
	}
	bench_report("stop: whole process, nothing running", t, (size_t)rounds);
	char rm[4200];
	snprintf(rm, sizeof(rm), "rm -rf '%s'", dir);
	return system(rm) == 0 ? 0 : 1;
}
