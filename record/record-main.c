/* botdesk-record: the flight recorder. `record` watches a desktop through its view door and
 * stores what it shows (started by botdesk-session for `record = always`, or by `botdesk record
 * start`); `export` turns a recording into a video with ffmpeg (run by `botdesk record export`).
 * See docs/CLI.md ("Recordings") and docs/ARCHITECTURE.md. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "export.h"
#include "log.h"
#include "parse.h"
#include "recorder.h"
#include "recording.h"
#include "util.h"

#define EXIT_BUSY 3

static int usage(void)
{
	fputs("Usage: botdesk-record record --state DIR --view SOCKET [--max-mb N]\n"
	      "                            [--launcher PID:STARTTIME] [--notify-fd N]\n"
	      "       botdesk-record export --state DIR --id ID --output FILE.webm|FILE.mp4\n"
	      "                            --ffmpeg PATH [--max WxH] [--captions FILE.srt] [--progress]\n"
	      "Run by botdesk-session and by `botdesk record`, not by hand.\n",
	      stderr);
	return 2;
}

/* Both commands' options: each command's loop refuses the ones it does not take. */
static const struct option longopts[] = {
	{"state", required_argument, NULL, 's'},     {"view", required_argument, NULL, 'v'},
	{"max-mb", required_argument, NULL, 'M'},    {"launcher", required_argument, NULL, 'l'},
	{"notify-fd", required_argument, NULL, 'n'}, {"id", required_argument, NULL, 'i'},
	{"output", required_argument, NULL, 'o'},    {"max", required_argument, NULL, 'm'},
	{"captions", required_argument, NULL, 'c'},  {"ffmpeg", required_argument, NULL, 'f'},
	{"progress", no_argument, NULL, 'p'},        {NULL, 0, NULL, 0},
};

static int parse_launcher(const char *s, struct recorder_opts *o)
{
	const char *colon = strchr(s, ':');
	uint64_t pid, st;
	if (!colon || parse_u64_n(s, (size_t)(colon - s), INT32_MAX, &pid) < 0 ||
	    parse_u64(colon + 1, UINT64_MAX, &st) < 0 || pid == 0) {
		return -EINVAL;
	}
	o->launcher_pid = (pid_t)pid;
	o->launcher_starttime = st;
	return 0;
}

static int main_record(int argc, char **argv)
{
	struct recorder_opts o = {.max_bytes = (uint64_t)RECORD_MAX_MB_DEFAULT << 20,
				  .notify_fd = -1};
	uint64_t v;
	int ch;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch == 's') {
			o.state_dir = optarg;
		} else if (ch == 'v') {
			o.view_path = optarg;
		} else if (ch == 'M' && parse_u64(optarg, RECORD_MAX_MB_LIMIT, &v) == 0 && v > 0) {
			o.max_bytes = v << 20;
		} else if (ch == 'l' && parse_launcher(optarg, &o) == 0) {
		} else if (ch == 'n' && parse_u64(optarg, 1024, &v) == 0 && v > 2) {
			o.notify_fd = (int)v;
		} else {
			return usage();
		}
	}
	if (!o.state_dir || !o.view_path || optind != argc) {
		return usage();
	}
	struct error err = {{0}};
	int r = recorder_run(&o, &err);
	if (r < 0) {
		log_error("%s", err.msg);
		return r == -EBUSY ? EXIT_BUSY : 1;
	}
	return 0;
}

static int main_export(int argc, char **argv)
{
	struct export_opts o = {0};
	int ch;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch == 's') {
			o.state_dir = optarg;
		} else if (ch == 'i' && rec_id_valid(optarg)) {
			o.id = optarg;
		} else if (ch == 'o') {
			o.output = optarg;
		} else if (ch == 'm' &&
			   parse_geometry(optarg, 16, REC_SIZE_MAX, &o.max_w, &o.max_h) == 0) {
		} else if (ch == 'c') {
			o.captions = optarg;
		} else if (ch == 'f') {
			o.ffmpeg = optarg;
		} else if (ch == 'p') {
			o.progress = true;
		} else {
			return usage();
		}
	}
	if (!o.state_dir || !o.id || !o.output || !o.ffmpeg || optind != argc) {
		return usage();
	}
	struct error err = {{0}};
	int r = export_run(&o, &err);
	if (r < 0) {
		log_error("%s", err.msg);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	log_set_program("botdesk-record");
	log_set_debug(getenv("BOTDESK_DEBUG") != NULL);
	if (argc >= 2 && streq(argv[1], "--version")) {
		printf("botdesk-record %s\n", BOTDESK_VERSION);
		return 0;
	}
	if (argc >= 2 && streq(argv[1], "record")) {
		return main_record(argc - 1, argv + 1);
	}
	if (argc >= 2 && streq(argv[1], "export")) {
		return main_export(argc - 1, argv + 1);
	}
	return usage();
}
