/* botdesk-act PROFILE DIR DIRFD DISPLAY XAUTHORITY LOG_TEXT ACTION [ARG...]: one action on a
 * desktop, run by `botdesk ACTION` once it has checked the arguments, that the desktop runs and
 * that the agent holds it. A program of its own so that only the actions load the X libraries.
 * The runner runs botdesk-act-pointer for the pointer commands instead (it loads two X
 * libraries, not ten); this one takes them too. Exit 0; 1 failure; 2 bad input (off the
 * screen, an unknown key, text that is not UTF-8); 4 a human holds the desktop. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>

#include <X11/XKBlib.h>

#include "act.h"
#include "actargs.h"
#include "actcall.h"
#include "actprint.h"
#include "base64.h"
#include "clipboard.h"
#include "desktop.h"
#include "exitstatus.h"
#include "fileio.h"
#include "keys.h"
#include "log.h"
#include "picture.h"
#include "settings.h"
#include "util.h"

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

/* The input the action reads before the desktop is touched: the text (type, clipboard set) and
 * the key combos, checked. 0, or the exit status, the message logged. */
static int read_input(struct act_req *rq, char **text, struct error *err)
{
	if ((rq->cmd == ACT_TYPE && actprint_read_text(rq, text, err) < 0) ||
	    (rq->cmd == ACT_CLIPBOARD_SET && read_clip_text(rq, text, err) < 0)) {
		if (error_isset(err) && rq->text) {
			return act_call_usage(err->msg);
		}
		log_error("%s", err->msg);
		return EXIT_FAILURE;
	}
	struct combo c;
	for (size_t i = 0; i < rq->n_keys; i++) {
		if (keys_parse_combo(rq->keys[i], &c, err) < 0) {
			return act_call_usage(err->msg);
		}
	}
	if (rq->hold && keys_parse_combo(rq->hold, &c, err) < 0) {
		return act_call_usage(err->msg);
	}
	return 0;
}

/* Typing and waits stop cleanly on Ctrl-C (the spare keycodes are given back first): the signals
 * blocked and read from a signalfd, returned; -1 for the other actions. */
static int stop_on_signals(const struct act_req *rq)
{
	if (rq->cmd != ACT_TYPE && rq->cmd != ACT_KEY && rq->cmd != ACT_WAIT) {
		return -1;
	}
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	return signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
}

/* What open, launch and clipboard set start a program with, as `botdesk exec` would: the
 * desktop's environment, the browser setting, and the desktop's cgroup. */
struct starter {
	struct desktop_probe probe;
	struct settings settings;
	int cgroup_fd; /* or -1 */
	bool loaded;
};

static int starter_load(struct starter *s, struct profile *p, struct error *err)
{
	desktop_probe(p, &s->probe);
	int r = settings_load(&s->settings, err);
	if (r < 0) {
		return r;
	}
	s->loaded = true;
	/* What it starts counts against the desktop's memory limit, as exec's program (none:
	 * the desktop has no cgroup of its own). */
	int fd = desktop_cgroup_procs(&s->settings, &s->probe);
	s->cgroup_fd = fd < 0 ? -1 : fd;
	return 0;
}

static void starter_free(struct starter *s)
{
	if (s->loaded) {
		settings_free(&s->settings);
	}
	safe_close(s->cgroup_fd);
}

/* The action on the desktop: connected, run, logged, its outcome printed. */
static int run(struct act_call *c, struct act *a)
{
	int r = act_open(a, c->display, c->xauthority, &c->err);
	if (r < 0) {
		return r;
	}
	struct act_out out;
	r = act_run(a, &c->rq, &out, &c->err);
	act_call_log(c, &out, r);
	if (r == 0) {
		r = print_outcome(&c->rq, &out, &c->err);
	}
	free(out.pic.data);
	free(out.data);
	free(out.json);
	/* Not closed: the server frees everything of ours when the process ends, and
	 * XCloseDisplay would wait for one more round trip. Everything was synced. A sanitizer
	 * build closes it, so the leak checker sees Xlib's memory given back. */
#ifdef BOTDESK_SANITIZED
	act_close(a);
#endif
	return r;
}

int main(int argc, char **argv)
{
	log_set_program("botdesk");
	/* The clipboard's owner, started by `clipboard set` (clipboard.h). */
	if (argc > 1 && streq(argv[1], CLIP_OWNER_ARG)) {
		return clip_owner_main(argc, argv);
	}
	struct act_call c;
	if (act_call_take(argc, argv, "botdesk-act", &c) < 0 ||
	    act_call_parse(argc, argv, &c) < 0) {
		return EXIT_USAGE;
	}
	_cleanup_free_ char *text = NULL;
	int status = read_input(&c.rq, &text, &c.err);
	if (status != 0) {
		return status;
	}
	_cleanup_close_ int sigfd = stop_on_signals(&c.rq);
	/* Only typing and held keys need XKB: without it, the connection's set-up takes two
	 * round trips less. */
	if (c.rq.cmd != ACT_TYPE && c.rq.cmd != ACT_KEY && !c.rq.hold) {
		XkbIgnoreExtension(True);
	}
	bool opens = c.rq.cmd == ACT_OPEN || c.rq.cmd == ACT_LAUNCH;
	struct starter st = {.cgroup_fd = -1};
	if ((opens || c.rq.cmd == ACT_CLIPBOARD_SET) && starter_load(&st, &c.p, &c.err) < 0) {
		log_error("%s", c.err.msg);
		return EXIT_FAILURE;
	}
	/* The clipboard's owner is this very program. */
	struct act a = {.check = act_call_lease_check,
			.ctx = &c.p,
			.sigfd = sigfd,
			.dirfd = c.p.dirfd,
			.program = "/proc/self/exe",
			.browser = opens ? st.settings.browser : NULL,
			.env = opens ? &st.probe.env : NULL,
			.cgroup_fd = st.cgroup_fd};
	int r = run(&c, &a);
	starter_free(&st);
	fflush(stdout);
	return actprint_exit(r, &c.err);
}
