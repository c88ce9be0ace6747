/* `botdesk record`: the flight recorder's commands (cli.h): start, stop, list, show, export.
 * The recording itself is botdesk-record's (record/); the files are common/recording.h's; the
 * list and the timeline are desk/recordings.c's. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exitstatus.h"
#include "fileio.h"
#include "log.h"
#include "parse.h"
#include "pidpin.h"
#include "recording.h"
#include "recordings.h"
#include "spawnproc.h"
#include "viewdoor.h"

extern char **environ;

/* exec's argv is not const in C's types; nothing writes to these strings. */
#define ARG(s) ((char *)(uintptr_t)(s))

/* How long start waits for the recorder's first word, and stop for its end. */
#define RECORD_START_WAIT_MS 15000
#define RECORD_STOP_WAIT_MS 10000

static void iso_time(uint64_t ms, char *buf, size_t size)
{
	time_t s = (time_t)(ms / 1000);
	struct tm tm;
	char day[32] = "?";
	if (gmtime_r(&s, &tm)) {
		strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
	}
	snprintf(buf, size, "%s.%03uZ", day, (unsigned)(ms % 1000));
}

static int child_detach(void *userdata)
{
	(void)userdata;
	/* Its own session: the caller's terminal and its Ctrl-C are not the recording's. */
	return setsid() < 0 ? -errno : 0;
}

/* botdesk-record, detached, on the running desktop; its first line says how it went. */
static int spawn_recorder(struct cli *c, const struct desktop_probe *probe, int *ret_notify)
{
	char view[4096], launcher[64], mb[32], state[4096];
	int r = view_door_path(c->settings.view_dir, c->p.dir, c->p.name, view, sizeof(view));
	if (r < 0) {
		return r;
	}
	snprintf(state, sizeof(state), "%s", c->p.dir);
	snprintf(launcher, sizeof(launcher), "%d:%llu", (int)probe->launcher.pid,
		 (unsigned long long)probe->launcher.starttime);
	snprintf(mb, sizeof(mb), "%llu", (unsigned long long)c->settings.record_max_mb);
	char fd3[] = "3";
	char *argv[] = {c->settings.recorder,
			ARG("record"),
			ARG("--state"),
			state,
			ARG("--view"),
			view,
			ARG("--max-mb"),
			mb,
			ARG("--launcher"),
			launcher,
			ARG("--notify-fd"),
			fd3,
			NULL};
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		return negative_errno();
	}
	/* Its later words go where the desktop's do. */
	_cleanup_close_ int log =
		open_regular_at(c->p.dirfd, STATE_LOG, O_WRONLY | O_APPEND | O_CREAT, 0600);
	_cleanup_close_ int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	struct spawn_fd fds[4] = {{pipefd[1], 3}};
	size_t n = 1;
	if (null >= 0) {
		fds[n++] = (struct spawn_fd){null, STDIN_FILENO};
	}
	if (log >= 0) {
		fds[n++] = (struct spawn_fd){log, STDOUT_FILENO};
		fds[n++] = (struct spawn_fd){log, STDERR_FILENO};
	}
	struct spawn_opts o = {.fds = fds, .n_fds = n, .child_setup = child_detach};
	pid_t pid;
	r = spawn_program(c->settings.recorder, argv, environ, &o, &pid);
	safe_close(pipefd[1]);
	if (r < 0) {
		safe_close(pipefd[0]);
		return r;
	}
	*ret_notify = pipefd[0];
	return 0;
}

/* The recorder's "ok ID" or "error MESSAGE", bounded. */
static int read_notify(int fd, char *buf, size_t size)
{
	size_t len = 0;
	struct pollfd p = {fd, POLLIN, 0};
	while (len + 1 < size) {
		int n = poll(&p, 1, RECORD_START_WAIT_MS);
		if (n == 0) {
			return -ETIMEDOUT;
		}
		if (n < 0) {
			return errno == EINTR ? -EINTR : negative_errno();
		}
		ssize_t k = read(fd, buf + len, size - 1 - len);
		if (k <= 0) {
			break;
		}
		len += (size_t)k;
		if (memchr(buf, '\n', len)) {
			break;
		}
	}
	buf[len] = '\0';
	char *nl = strchr(buf, '\n');
	if (!nl) {
		return -EPIPE;
	}
	*nl = '\0';
	return 0;
}

static void print_state(const char *verb, const char *id, bool json)
{
	if (json) {
		printf("{\"id\":\"%s\",\"recording\":%s}\n", id,
		       streq(verb, "stopped") ? "false" : "true");
	} else {
		printf("%s %s\n", verb, id);
	}
}

static int record_start(struct cli *c, bool json)
{
	struct desktop_probe probe;
	int r = need_running(c, &probe);
	if (r) {
		return r;
	}
	struct rec_running run;
	if (recordings_running(&c->p, &run) == 0) {
		print_state("recording", run.id, json);
		return 0;
	}
	_cleanup_close_ int notify = -1;
	if ((r = spawn_recorder(c, &probe, &notify)) < 0) {
		log_error("cannot run %s: %s", c->settings.recorder, strerror(-r));
		return EXIT_FAILURE;
	}
	char line[600];
	r = read_notify(notify, line, sizeof(line));
	if (r == 0 && startswith(line, "ok ") && rec_id_valid(line + 3)) {
		print_state("recording", line + 3, json);
		return 0;
	}
	if (r == 0 && startswith(line, "error ")) {
		log_error("cannot record: %s", line + 6);
	} else {
		log_error("the recorder did not start (%s); see %s/%s",
			  r < 0 ? strerror(-r) : "no answer", c->p.dir, STATE_LOG);
	}
	return EXIT_FAILURE;
}

static int record_stop(struct cli *c, bool json)
{
	struct rec_running run;
	if (recordings_running(&c->p, &run) < 0) {
		log_error("nothing is being recorded on profile '%s'", c->p.name);
		return EXIT_NOT_RUNNING;
	}
	struct proc_stat st;
	_cleanup_close_ int pidfd = pidpin_open(run.pid, run.starttime, &st);
	if (pidfd < 0 || pidpin_send(pidfd, SIGTERM) < 0) {
		log_error("nothing is being recorded on profile '%s'", c->p.name);
		return EXIT_NOT_RUNNING;
	}
	/* It closes the recording (its end in the .meta) before it exits. */
	struct pollfd p = {pidfd, POLLIN, 0};
	if (poll(&p, 1, RECORD_STOP_WAIT_MS) <= 0) {
		log_error("the recorder (pid %d) has not ended within %d s", run.pid,
			  RECORD_STOP_WAIT_MS / 1000);
		return EXIT_FAILURE;
	}
	print_state("stopped", run.id, json);
	return 0;
}

static void print_row_json(const struct rec_row *row, FILE *f)
{
	char start[48];
	iso_time(row->start_ms, start, sizeof(start));
	fprintf(f,
		"{\"id\":\"%s\",\"start\":\"%s\",\"duration_ms\":%llu,\"bytes\":%llu,\"actions\":%u,\"width\":%u,\"height\":%u,\"recording\":%s",
		row->id, start, (unsigned long long)row->duration_ms,
		(unsigned long long)row->bytes, row->actions, row->width, row->height,
		row->recording ? "true" : "false");
}

static int record_list(struct cli *c, bool json)
{
	struct rec_row *v;
	size_t n;
	int r = recordings_list(&c->p, &v, &n);
	if (r < 0) {
		return fail(c, r);
	}
	if (json) {
		fputs("[", stdout);
		for (size_t i = 0; i < n; i++) {
			fputs(i ? "," : "", stdout);
			print_row_json(&v[i], stdout);
			fputs("}", stdout);
		}
		fputs("]\n", stdout);
	} else if (n > 0) {
		printf("%-20s %-24s %10s %12s %8s\n", "ID", "START", "SECONDS", "BYTES", "ACTIONS");
		for (size_t i = 0; i < n; i++) {
			char start[48];
			iso_time(v[i].start_ms, start, sizeof(start));
			printf("%-20s %-24s %10.1f %12llu %8u%s\n", v[i].id, start,
			       v[i].duration_ms / 1000.0, (unsigned long long)v[i].bytes,
			       v[i].actions, v[i].recording ? "  (recording)" : "");
		}
	}
	free(v);
	return 0;
}

static const char *kind_name(enum rec_event_kind k)
{
	static const char *const names[] = {[REC_EV_ACTION] = "action",
					    [REC_EV_LEASE] = "lease",
					    [REC_EV_EXEC] = "exec",
					    [REC_EV_INPUT] = "input"};
	return names[k];
}

static int find_row(struct cli *c, const char *id, struct rec_row *row)
{
	if (!rec_id_valid(id)) {
		return usage_error("'%s' is not a recording id: see botdesk record list", id);
	}
	int r = recordings_row(&c->p, id, row);
	if (r == -ENOENT) {
		log_error("profile '%s' has no recording %s: see botdesk record list", c->p.name,
			  id);
		return EXIT_FAILURE;
	}
	return r < 0 ? fail(c, r) : 0;
}

static int record_show(struct cli *c, const char *id, bool json)
{
	struct rec_row row;
	int r = find_row(c, id, &row);
	if (r) {
		return r;
	}
	struct rec_event *v;
	size_t n;
	if ((r = recordings_timeline(&c->p, &row, &v, &n)) < 0) {
		return fail(c, r);
	}
	if (json) {
		print_row_json(&row, stdout);
		fputs(",\"timeline\":[", stdout);
		for (size_t i = 0; i < n; i++) {
			printf("%s{\"offset_ms\":%llu,\"kind\":\"%s\",\"text\":\"", i ? "," : "",
			       (unsigned long long)(v[i].t_ms - row.start_ms),
			       kind_name(v[i].kind));
			recordings_json_escape(stdout, v[i].text);
			printf("\",\"event\":%s}", v[i].json);
		}
		fputs("]}\n", stdout);
	} else {
		char start[48];
		iso_time(row.start_ms, start, sizeof(start));
		printf("recording %s: %s, %.1f s, %ux%u, %llu bytes, %u actions\n", row.id, start,
		       row.duration_ms / 1000.0, row.width, row.height,
		       (unsigned long long)row.bytes, row.actions);
		for (size_t i = 0; i < n; i++) {
			printf("%+9.3f s  %-6s  %s\n", (double)(v[i].t_ms - row.start_ms) / 1000.0,
			       kind_name(v[i].kind), v[i].text);
		}
	}
	recordings_events_free(v, n);
	return 0;
}

/* The captions in a private directory of the profile's (never /tmp): <dir>/export.XXXXXX. */
static int write_captions(struct cli *c, const struct rec_row *row, char *dir, size_t size,
			  char *file, size_t fsize)
{
	snprintf(dir, size, "%s/export.XXXXXX", c->p.dir);
	if (!mkdtemp(dir)) {
		return negative_errno();
	}
	snprintf(file, fsize, "%s/" RECORD_CAPTIONS_NAME, dir);
	struct rec_event *v;
	size_t n;
	int r = recordings_timeline(&c->p, row, &v, &n);
	if (r < 0) {
		return r;
	}
	int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		r = fd < 0 ? negative_errno() : -ENOMEM;
		safe_close(fd);
	} else {
		r = recordings_write_captions(f, row, v, n);
		if (fclose(f) != 0 && r == 0) {
			r = -EIO;
		}
	}
	recordings_events_free(v, n);
	return r;
}

static int run_export(struct cli *c, const char *id, const char *output, const char *max,
		      const char *captions)
{
	char state[4096];
	snprintf(state, sizeof(state), "%s", c->p.dir);
	char *argv[16] = {c->settings.recorder, ARG("export"),     ARG("--state"),  state,
			  ARG("--id"),          ARG(id),           ARG("--output"), ARG(output),
			  ARG("--ffmpeg"),      c->settings.ffmpeg};
	size_t k = 10;
	if (max) {
		argv[k++] = ARG("--max");
		argv[k++] = ARG(max);
	}
	if (captions) {
		argv[k++] = ARG("--captions");
		argv[k++] = ARG(captions);
	}
	if (isatty(STDERR_FILENO)) {
		argv[k++] = ARG("--progress");
	}
	argv[k] = NULL;
	pid_t pid;
	struct spawn_opts o = {.parent_death_signal = SIGTERM};
	int r = spawn_program(c->settings.recorder, argv, environ, &o, &pid);
	if (r < 0) {
		log_error("cannot run %s: %s", c->settings.recorder, strerror(-r));
		return EXIT_FAILURE;
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	/* Its own message said what went wrong. */
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : EXIT_FAILURE;
}

static bool video_name(const char *s)
{
	size_t n = strlen(s);
	return (n > 5 && streq(s + n - 5, ".webm")) || (n > 4 && streq(s + n - 4, ".mp4"));
}

static int record_export(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"max", required_argument, NULL, 'm'},
		{"captions", no_argument, NULL, 'c'},
		{NULL, 0, NULL, 0},
	};
	const char *output = NULL, *max = NULL;
	bool captions = false;
	unsigned w, h;
	/* 0, not 1: glibc then forgets main()'s "+" and permutes again. */
	optind = 0;
	opterr = 0;
	int ch;
	/* The id may come before the options or after them. */
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch == 'o') {
			output = optarg;
		} else if (ch == 'm' && parse_geometry(optarg, 16, REC_SIZE_MAX, &w, &h) == 0) {
			max = optarg;
		} else if (ch == 'm') {
			return usage_error("--max takes WIDTHxHEIGHT, e.g. 1280x800, not '%s'",
					   optarg);
		} else if (ch == 'c') {
			captions = true;
		} else {
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind + 1 != argc || !output || !video_name(output)) {
		return usage_error(
			"%s",
			"usage: botdesk record export ID --output FILE.webm|FILE.mp4 [--max WxH] [--captions]");
	}
	struct rec_row row;
	int r = setup(c, false);
	if (r || (r = find_row(c, argv[optind], &row))) {
		return r;
	}
	if (access(c->settings.ffmpeg, X_OK) < 0) {
		log_error(
			"export needs ffmpeg, not found at %s: install it (apt-get install ffmpeg) or set BOTDESK_FFMPEG",
			c->settings.ffmpeg);
		return EXIT_FAILURE;
	}
	/* ffmpeg runs elsewhere (captions): the output's path made absolute here. */
	char out[4096], cwd[2048];
	if (output[0] != '/' && getcwd(cwd, sizeof(cwd))) {
		snprintf(out, sizeof(out), "%s/%s", cwd, output);
	} else {
		snprintf(out, sizeof(out), "%s", output);
	}
	char dir[4200] = "", file[4300];
	if (captions && (r = write_captions(c, &row, dir, sizeof(dir), file, sizeof(file))) < 0) {
		log_error("cannot write the captions: %s", strerror(-r));
		r = EXIT_FAILURE;
	} else {
		r = run_export(c, row.id, out, max, captions ? file : NULL);
	}
	if (dir[0] && !strstr(dir, "XXXXXX")) {
		(void)unlink(file);
		(void)rmdir(dir);
	}
	if (r == 0 && !isatty(STDOUT_FILENO)) {
		printf("%s\n", out);
	}
	return r;
}

int cmd_record(struct cli *c, int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;
	if (sub && streq(sub, "export")) {
		return record_export(c, argc - 1, argv + 1);
	}
	if (!sub || (!streq(sub, "start") && !streq(sub, "stop") && !streq(sub, "list") &&
		     !streq(sub, "show"))) {
		return usage_error(
			"%s", "usage: botdesk record start|stop|list|show ID|export ID [--json]");
	}
	bool json = false;
	const char *id = NULL;
	for (int i = 2; i < argc; i++) {
		if (streq(argv[i], "--json")) {
			json = true;
		} else if (streq(sub, "show") && !id && argv[i][0] != '-') {
			id = argv[i];
		} else {
			return usage_error("unexpected argument '%s'", argv[i]);
		}
	}
	if (streq(sub, "show") && !id) {
		return usage_error("%s", "usage: botdesk record show ID [--json]");
	}
	int r = setup(c, streq(sub, "start"));
	if (r) {
		return r;
	}
	if (streq(sub, "start")) {
		return record_start(c, json);
	}
	if (streq(sub, "stop")) {
		return record_stop(c, json);
	}
	return streq(sub, "list") ? record_list(c, json) : record_show(c, id, json);
}
