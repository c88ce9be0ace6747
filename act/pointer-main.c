/* botdesk-act-pointer PROFILE DIR DIRFD DISPLAY XAUTHORITY LOG_TEXT ACTION [ARG...]: botdesk-act
 * for the pointer commands alone (click, move, drag, scroll), run by `botdesk ACTION` for them
 * once it has checked the arguments, that the desktop runs and that the agent holds it; and a
 * take's release of what the agent holds (ACTION --release-held, common/acthandoff.h). Through
 * XCB (xptr.h): two X libraries to load instead of Xlib's ten, three round trips instead of
 * nine, for the action agents call most. Exit 0; 1 failure; 2 bad input; 4 a human holds the
 * desktop. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "actargs.h"
#include "acthandoff.h"
#include "actlog.h"
#include "actprint.h"
#include "control.h"
#include "desktop.h"
#include "exitstatus.h"
#include "lease.h"
#include "log.h"
#include "parse.h"
#include "util.h"
#include "xptr.h"

/* The lease, read again right before the desktop is touched. */
static int lease_check(void *ctx, struct error *err)
{
	struct lease l;
	return control_need_agent(ctx, &l, err);
}

/* A take's last step (common/acthandoff.h), from `botdesk take` or the browser's Take over:
 * first the agent's event under way, if any, reaches the desktop (the agent holds the act lock
 * until it has), so a key it pressed is down by then and released below; then every key and
 * button the agent holds, let go. */
static int release_held(struct profile *p, char **argv)
{
	int r = lease_quiesce_at(p->dirfd, LEASE_QUIESCE_WAIT_MS);
	if (r == -ETIMEDOUT) {
		log_warn(
			"an agent action on profile '%s' kept sending for %d s after the take (stopped or hung?); its events may still arrive",
			p->name, LEASE_QUIESCE_WAIT_MS / 1000);
	}
	struct error err = {{0}};
	struct xptr x;
	unsigned n = 0;
	r = xptr_open(&x, p->name, argv[4], argv[5], &err);
	if (r == 0) {
		r = xptr_release_held(&x, &n, &err);
		xcb_disconnect(x.c);
	}
	if (r < 0) {
		log_error("cannot release the keys and buttons the agent holds: %s", err.msg);
		return EXIT_FAILURE;
	}
	return 0;
}

int main(int argc, char **argv)
{
	log_set_program("botdesk");
	struct profile p = PROFILE_INIT;
	if (actprint_take_handoff(argc, argv, "botdesk-act-pointer", &p) < 0) {
		return EXIT_USAGE;
	}
	if (streq(argv[7], ACT_RELEASE_HELD)) {
		return release_held(&p, argv);
	}
	struct error err = {{0}};
	struct act_req rq;
	if (act_parse_argv(argc - 7, argv + 7, &rq, &err) < 0) {
		log_error("%s", err.msg);
		fputs("Try 'botdesk --help'.\n", stderr);
		return EXIT_USAGE;
	}
	if (!act_by_pointer_program(&rq)) {
		log_error(
			"botdesk-act-pointer does click, move, drag, scroll, mouse-down and mouse-up at a point with no keys held; '%s' with these arguments is botdesk-act's",
			act_cmd_name(rq.cmd));
		return EXIT_USAGE;
	}
	bool log_text = streq(argv[6], "1");
	struct xptr x;
	int r = xptr_open(&x, p.name, argv[4], argv[5], &err);
	if (r == 0) {
		struct act_out out;
		r = xptr_run(&x, &rq, &out, lease_check, &p, p.dirfd, &err);
		/* A refusal sent nothing; a take part way through is logged where it stopped. */
		if (err.kind != ERROR_HUMAN_HOLDS || out.stopped) {
			actlog_stamp_activity(&p);
			_cleanup_free_ char *line = actlog_line("cli", &rq, &out, r, log_text);
			if (line && actlog_append(p.dirfd, line) < 0) {
				log_warn("cannot append to %s/%s", p.dir, ACTLOG_FILE);
			}
		}
		if (r == 0) {
			/* The window it landed on, for the result an agent reads (--json). */
			if (rq.json) {
				xptr_landed(&x, &out);
			}
			actprint_result(&rq, &out);
		}
		/* Not closed: the server frees everything of ours when the process ends, and the
		 * events were synced. A sanitizer build closes it, for the leak checker. */
#ifdef BOTDESK_SANITIZED
		xcb_disconnect(x.c);
#endif
	}
	fflush(stdout);
	return actprint_exit(r, &err);
}
