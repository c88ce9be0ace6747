/* botdesk-act PROFILE DIR DIRFD DISPLAY XAUTHORITY LOG_TEXT ACTION [ARG...]: one action on a
 * desktop, run by `botdesk ACTION` once it has checked the arguments, that the desktop runs and
 * that the agent holds it. A program of its own so that only the actions load the X libraries.
 * The runner runs botdesk-act-pointer for the pointer commands instead (it loads two X
 * libraries, not ten); this one takes them too. Exit 0; 1 failure; 2 bad input (off the
 * screen, an unknown key, text that is not UTF-8); 4 a human holds the desktop. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>

#include <X11/XKBlib.h>

#include "act.h"
#include "actargs.h"
#include "actlog.h"
#include "actprint.h"
#include "base64.h"
#include "clipboard.h"
#include "control.h"
#include "desktop.h"
#include "exitstatus.h"
#include "fileio.h"
#include "keys.h"
#include "log.h"
#include "parse.h"
#include "picture.h"
#include "settings.h"
#include "util.h"

static int usage(const char *msg)
{
	log_error("%s", msg);
	fputs("Try 'botdesk --help'.\n", stderr);
	return EXIT_USAGE;
}

/* The lease, read again right before the desktop is touched. */
static int lease_check(void *ctx, struct error *err)
{
	struct lease l;
	return control_need_agent(ctx, &l, err);
}

/* The text of `clipboard set` when no TEXT was given: standard input, at most ACT_CLIP_MAX
 * bytes. */
static int read_clip_text(struct act_req *rq, char **ret, struct error *err)
{
	if (rq->text) {
		return 0;
	}
	char *buf = malloc(ACT_CLIP_MAX + 1);
	ssize_t n = buf ? read_all(0, buf, ACT_CLIP_MAX + 1) : -ENOMEM;
	if (n < 0) {
		free(buf);
		return error_set(err, (int)n, "cannot read the text: %s", strerror((int)-n));
	}
	rq->text = buf;
	rq->text_len = (size_t)n;
	*ret = buf;
	return act_check_clip_text(buf, (size_t)n, "standard input", err);
}

/* What a done action prints: the picture (to --output, else as a data: URL), or the result. */
static int print_outcome(const struct act_req *rq, const struct act_out *out, struct error *err)
{
	if (rq->cmd != ACT_SCREENSHOT) {
		actprint_result(rq, out);
		return 0;
	}
	if (rq->output) {
		return picture_write_output(rq->output, out->pic.data, out->pic.len, err);
	}
	const char *mime = rq->format == ACT_FORMAT_JPEG ? "image/jpeg" : "image/png";
	base64_print_data_url(stdout, mime, out->pic.data, out->pic.len);
	return 0;
}

int main(int argc, char **argv)
{
	log_set_program("botdesk");
	/* The clipboard's owner, started by `clipboard set` (clipboard.h). */
	if (argc > 1 && streq(argv[1], CLIP_OWNER_ARG)) {
		return clip_owner_main(argc, argv);
	}
	struct profile p = PROFILE_INIT;
	if (actprint_take_handoff(argc, argv, "botdesk-act", &p) < 0) {
		return EXIT_USAGE;
	}
	const char *display = argv[4], *xauth = argv[5];
	bool log_text = streq(argv[6], "1");
	struct error err = {{0}};
	struct act_req rq;
	if (act_parse_argv(argc - 7, argv + 7, &rq, &err) < 0) {
		return usage(err.msg);
	}
	_cleanup_free_ char *text = NULL;
	if ((rq.cmd == ACT_TYPE && actprint_read_text(&rq, &text, &err) < 0) ||
	    (rq.cmd == ACT_CLIPBOARD_SET && read_clip_text(&rq, &text, &err) < 0)) {
		if (error_isset(&err) && rq.text) {
			return usage(err.msg);
		}
		log_error("%s", err.msg);
		return EXIT_FAILURE;
	}
	for (size_t i = 0; i < rq.n_keys; i++) {
		struct combo c;
		if (keys_parse_combo(rq.keys[i], &c, &err) < 0) {
			return usage(err.msg);
		}
	}
	struct combo held;
	if (rq.hold && keys_parse_combo(rq.hold, &held, &err) < 0) {
		return usage(err.msg);
	}
	/* Typing and waits stop cleanly on Ctrl-C: the spare keycodes are given back first. */
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	bool stoppable = rq.cmd == ACT_TYPE || rq.cmd == ACT_KEY || rq.cmd == ACT_WAIT;
	int sigfd = -1;
	if (stoppable) {
		sigprocmask(SIG_BLOCK, &mask, NULL);
		sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	}
	/* Only typing and held keys need XKB: without it, the connection's set-up takes two
	 * round trips less. */
	if (rq.cmd != ACT_TYPE && rq.cmd != ACT_KEY && !rq.hold) {
		XkbIgnoreExtension(True);
	}
	/* open and launch run a program with the desktop's environment (and the browser
	 * setting), as `botdesk exec` would. */
	struct desktop_probe probe = {0};
	struct settings settings = {0};
	bool opens = rq.cmd == ACT_OPEN || rq.cmd == ACT_LAUNCH;
	bool starts = opens || rq.cmd == ACT_CLIPBOARD_SET;
	_cleanup_close_ int cgroup_fd = -1;
	if (starts) {
		desktop_probe(&p, &probe);
		if (settings_load(&settings, &err) < 0) {
			log_error("%s", err.msg);
			return EXIT_FAILURE;
		}
		/* What it starts counts against the desktop's memory limit, as exec's program. */
		cgroup_fd = desktop_cgroup_procs(&settings, &probe);
	}
	/* The clipboard's owner is this very program. */
	struct act a = {.check = lease_check,
			.ctx = &p,
			.sigfd = sigfd,
			.dirfd = p.dirfd,
			.program = "/proc/self/exe",
			.browser = opens ? settings.browser : NULL,
			.env = opens ? &probe.env : NULL,
			.cgroup_fd = cgroup_fd < 0 ? -1 : cgroup_fd};
	int r = act_open(&a, display, xauth, &err);
	if (r == 0) {
		struct act_out out;
		r = act_run(&a, &rq, &out, &err);
		/* A refusal sent nothing; a take part way through is logged where it stopped. */
		if (err.kind != ERROR_HUMAN_HOLDS || out.stopped) {
			actlog_stamp_activity(&p);
			_cleanup_free_ char *line = actlog_line("cli", &rq, &out, r, log_text);
			if (line && actlog_append(p.dirfd, line) < 0) {
				log_warn("cannot append to %s/%s", p.dir, ACTLOG_FILE);
			}
		}
		if (r == 0) {
			r = print_outcome(&rq, &out, &err);
		}
		free(out.pic.data);
		free(out.data);
		free(out.json);
		/* Not closed: the server frees everything of ours when the process ends, and
		 * XCloseDisplay would wait for one more round trip. Everything was synced. A
		 * sanitizer build closes it, so the leak checker sees Xlib's memory given back. */
#ifdef BOTDESK_SANITIZED
		act_close(&a);
#endif
	}
	if (starts) {
		settings_free(&settings);
	}
	fflush(stdout);
	return actprint_exit(r, &err);
}
