#include "benchlib.h"

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "parse.h"
#include "proc.h"

extern char **environ;

double bench_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void bench_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(double), bench_cmp);
}

double bench_median(const double *v, size_t n)
{
	double *s = malloc(n * sizeof(double));
	if (!s) {
		abort();
	}
	memcpy(s, v, n * sizeof(double));
	bench_sort(s, n);
	double m = s[n / 2];
	free(s);
	return m;
}

void bench_report(const char *what, double *v, size_t n)
{
	bench_sort(v, n);
	printf("%-44s median %7.2f ms  p90 %7.2f ms  min %7.2f ms  (n=%zu)\n", what, v[n / 2],
	       v[n * 9 / 10], v[0], n);
}

pid_t bench_spawn_quiet(const char *path, char *const argv[])
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int r = posix_spawn(&pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return r == 0 ? pid : -1;
}

int bench_wait(pid_t pid)
{
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		return -1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

double bench_time_quiet(const char *path, char *const argv[], int max_ok)
{
	double t0 = bench_now_ms();
	int rc = bench_wait(bench_spawn_quiet(path, argv));
	double t = bench_now_ms() - t0;
	return rc >= 0 && rc <= max_ok ? t : -1;
}

int bench_read_env(const char *profile_dir, char *display, char *xauth, size_t size)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/env", profile_dir);
	FILE *f = fopen(path, "re");
	if (!f) {
		return -1;
	}
	char line[4096];
	display[0] = xauth[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "DISPLAY=", 8) == 0) {
			snprintf(display, size, "%s", line + 8);
		} else if (strncmp(line, "XAUTHORITY=", 11) == 0) {
			snprintf(xauth, size, "%s", line + 11);
		}
	}
	fclose(f);
	return display[0] && xauth[0] ? 0 : -1;
}

pid_t bench_launcher_pid(const char *profile_dir)
{
	char path[4096], buf[64] = {0};
	snprintf(path, sizeof(path), "%s/launcher.pid", profile_dir);
	FILE *f = fopen(path, "re");
	if (!f) {
		return -1;
	}
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, " \n")] = '\0';
	uint64_t pid;
	return parse_u64(buf, INT32_MAX, &pid) == 0 ? (pid_t)pid : -1;
}

static bool below(pid_t pid, pid_t ancestor)
{
	for (int depth = 0; depth < 64 && pid > 1; depth++) {
		struct proc_stat st;
		if (proc_stat_read(pid, &st) < 0) {
			return false;
		}
		if (st.ppid == ancestor) {
			return true;
		}
		pid = st.ppid;
	}
	return false;
}

void bench_desktop_each(pid_t launcher, void (*fn)(pid_t pid, void *ctx), void *ctx)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	while (d && (de = readdir(d))) {
		uint64_t v;
		struct proc_stat st;
		if (parse_u64(de->d_name, INT32_MAX, &v) < 0 || proc_stat_read((pid_t)v, &st) < 0) {
			continue;
		}
		pid_t pid = (pid_t)v;
		if (pid == launcher || st.sid == launcher || below(pid, launcher)) {
			fn(pid, ctx);
		}
	}
	if (d) {
		closedir(d);
	}
}

/* DISPLAY and XAUTHORITY from `botdesk env` into the environment: 0, or -1 when either is
 * missing. */
static int take_env(const char *botdesk)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "'%s' env", botdesk);
	FILE *f = popen(cmd, "r");
	char line[4096];
	int found = 0;
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *eq = strchr(line, '=');
		if (eq &&
		    (strncmp(line, "DISPLAY=", 8) == 0 || strncmp(line, "XAUTHORITY=", 11) == 0)) {
			*eq = '\0';
			setenv(line, eq + 1, 1);
			found++;
		}
	}
	if (f) {
		pclose(f);
	}
	return found == 2 ? 0 : -1;
}

int bench_desktop_main(int argc, char **argv, unsigned dflt, unsigned min, unsigned max,
		       int (*measure)(char *botdesk, int rounds, char **argv))
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH-TO-botdesk [ROUNDS]\n", argv[0]);
		return 2;
	}
	if (take_env(argv[1]) < 0) {
		fprintf(stderr, "%s: no running desktop ('%s env' failed): start one\n", argv[0],
			argv[1]);
		return 1;
	}
	unsigned rounds;
	if (argc < 3 || parse_uint_range(argv[2], min, max, &rounds) < 0) {
		rounds = dflt;
	}
	return measure(argv[1], (int)rounds, argv);
}

#define MCP_META                                                                 \
	"\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"," \
	"\"io.modelcontextprotocol/clientCapabilities\":{}}"

int bench_mcp_start(struct bench_mcp *m, const char *botdesk)
{
	int in[2], out[2];
	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0) {
		return -1;
	}
	m->pid = fork();
	if (m->pid == 0) {
		/* dup2 leaves the copies open across the exec, the pipes' own ends close there. */
		dup2(in[0], 0);
		dup2(out[1], 1);
		execl(botdesk, botdesk, "mcp", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	m->w = fdopen(in[1], "w");
	m->r = fdopen(out[0], "r");
	fputs("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"server/discover\",\"params\":"
	      "{" MCP_META "}}\n",
	      m->w);
	fflush(m->w);
	if (getline(&m->line, &m->cap, m->r) < 0 || !strstr(m->line, "\"supportedVersions\"")) {
		return -1;
	}
	return 0;
}

double bench_mcp_call(struct bench_mcp *m, int id, const char *name, const char *args,
		      size_t *ret_len)
{
	double t0 = bench_now_ms();
	fprintf(m->w,
		"{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{"
		"\"name\":\"%s\",\"arguments\":%s," MCP_META "}}\n",
		id, name, args);
	fflush(m->w);
	ssize_t len = getline(&m->line, &m->cap, m->r);
	if (len < 0 || strstr(m->line, "\"isError\":true") ||
	    !strstr(m->line, "\"resultType\":\"complete\"")) {
		return -1;
	}
	if (ret_len) {
		*ret_len = (size_t)len;
	}
	return bench_now_ms() - t0;
}

void bench_mcp_stop(struct bench_mcp *m)
{
	fclose(m->w);
	fclose(m->r);
	free(m->line);
	waitpid(m->pid, NULL, 0);
}
