/* botdesk-act-pointer PROFILE DIR DIRFD DISPLAY XAUTHORITY LOG_TEXT ACTION [ARG...]: botdesk-act
 * for the pointer commands alone (click, move, drag, scroll), run by `botdesk ACTION` for them
 * once it has checked the arguments, that the desktop runs and that the agent holds it; and a
 * take's release of what the agent holds (ACTION --release-held, common/acthandoff.h). Through
 * XCB (xptr.h): two X libraries to load instead of Xlib's ten, three round trips instead of
 * nine, for the action agents call most. Exit 0; 1 failure; 2 bad input; 4 a human holds the
 * desktop. */
#include <stdio.h>

#include "actargs.h"
#include "actcall.h"
#include "acthandoff.h"
#include "actprint.h"
#include "exitstatus.h"
#include "lease.h"
#include "log.h"
#include "util.h"
#include "xptr.h"

/* A take's last step (common/acthandoff.h), from `botdesk take` or the browser's Take over:
 * first the agent's event under way, if any, reaches the desktop (the agent holds the act lock
 * until it has), so a key it pressed is down by then and released below; then every key and
 * button the agent holds, let go. */
static int release_held(struct act_call *c)
{
	int r = lease_quiesce_at(c->p.dirfd, LEASE_QUIESCE_WAIT_MS);
	if (r == -ETIMEDOUT) {
		log_warn(
			"an agent action on profile '%s' kept sending for %d s after the take (stopped or hung?); its events may still arrive",
			c->p.name, LEASE_QUIESCE_WAIT_MS / 1000);
	}
	struct xptr x;
	unsigned n = 0;
	r = xptr_open(&x, c->p.name, c->display, c->xauthority, &c->err);
	if (r == 0) {
		r = xptr_release_held(&x, &n, &c->err);
		xcb_disconnect(x.c);
	}
	if (r < 0) {
		log_error("cannot release the keys and buttons the agent holds: %s", c->err.msg);
		return EXIT_FAILURE;
	}
	return 0;
}

int main(int argc, char **argv)
{
	log_set_program("botdesk");
	struct act_call c;
	if (act_call_take(argc, argv, "botdesk-act-pointer", &c) < 0) {
		return EXIT_USAGE;
	}
	if (streq(argv[7], ACT_RELEASE_HELD)) {
		return release_held(&c);
	}
	if (act_call_parse(argc, argv, &c) < 0) {
		return EXIT_USAGE;
	}
	if (!act_by_pointer_program(&c.rq)) {
		log_error(
			"botdesk-act-pointer does click, move, drag, scroll, mouse-down and mouse-up at a point with no keys held; '%s' with these arguments is botdesk-act's",
			act_cmd_name(c.rq.cmd));
		return EXIT_USAGE;
	}
	struct xptr x;
	int r = xptr_open(&x, c.p.name, c.display, c.xauthority, &c.err);
	if (r == 0) {
		struct act_out out;
		r = xptr_run(&x, &c.rq, &out, act_call_lease_check, &c.p, c.p.dirfd, &c.err);
		act_call_log(&c, &out, r);
		if (r == 0) {
			/* The window it landed on, for the result an agent reads (--json). */
			if (c.rq.json) {
				xptr_landed(&x, &out);
			}
			actprint_result(&c.rq, &out);
		}
		/* Not closed: the server frees everything of ours when the process ends, and the
		 * events were synced. A sanitizer build closes it, for the leak checker. */
#ifdef BOTDESK_SANITIZED
		xcb_disconnect(x.c);
#endif
	}
	fflush(stdout);
	return actprint_exit(r, &c.err);
}
