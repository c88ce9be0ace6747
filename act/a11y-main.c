/* botdesk-act-a11y PROFILE DIR DIRFD DISPLAY XAUTHORITY LOG_TEXT ACTION [ARG...]: tree, find,
 * and click or type on an --element, run by `botdesk ACTION` (and the MCP server) once it has
 * checked the arguments, that the desktop runs and that the agent holds it. The one program
 * that loads libatspi and GLib (act/a11y.h), so that no other action pays for them. The clicks
 * and keys are botdesk-act's (act.h): the element only says where. Exit 0; 1 failure (no
 * accessibility bus, the call's time ran out); 2 bad input (no element or several match); 4 a
 * human holds the desktop. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <X11/XKBlib.h>

#include "a11y.h"
#include "act.h"
#include "actargs.h"
#include "actcall.h"
#include "actprint.h"
#include "envfile.h"
#include "exitstatus.h"
#include "log.h"
#include "profile.h"
#include "timeutil.h"
#include "util.h"

/* The last guard of the call's bound: were a D-Bus call to block past its own timeout (the bus
 * itself stuck), the process ends, with a message, a second after the deadline. */
static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] =
		"botdesk: the accessibility bus did not answer within the call's time (--timeout); stopped\n";
	ssize_t n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)n;
	_exit(EXIT_FAILURE);
}

/* The desktop's bus and display, from its env file (the runner verified the directory): libatspi
 * finds the accessibility bus through them. */
static int desktop_environment(struct profile *p, const char *display, const char *xauth,
			       struct error *err)
{
	char buf[8192];
	struct envfile e;
	int r = envfile_read(p->dirfd, STATE_ENV, buf, sizeof(buf), &e);
	const char *bus = r == 0 ? envfile_get(&e, "DBUS_SESSION_BUS_ADDRESS") : NULL;
	if (!bus) {
		return error_set(err, r < 0 ? r : -ENOENT,
				 "the desktop of profile '%s' published no session bus", p->name);
	}
	if (setenv("DISPLAY", display, 1) < 0 || setenv("XAUTHORITY", xauth, 1) < 0 ||
	    setenv("DBUS_SESSION_BUS_ADDRESS", bus, 1) < 0) {
		return error_set(err, negative_errno(), "setenv: %s", strerror(errno));
	}
	return 0;
}

/* Leaves the accessibility bus, the tree's objects first (they belong to it). */
static void leave(struct a11y_tree *t)
{
	a11y_tree_free(t);
	a11y_close();
}

/* click or type on the element t->v[i]: the middle of its bounds, through botdesk-act's hands;
 * type clicks first unless the element has the focus. Leaves the bus before the first key
 * (a11y_close() says why). */
static int act_on_element(struct act *a, const struct act_req *rq, struct a11y_tree *t, size_t i,
			  struct act_out *out, struct error *err)
{
	const struct a11y_node *n = &t->v[i];
	if (n->w <= 0 || n->h <= 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "the element %s \"%s\" (#%s) has no area on the screen",
				      n->role, n->name, n->id);
	}
	long cx = (long)n->x + n->w / 2, cy = (long)n->y + n->h / 2;
	if (cx < 0 || cy < 0 || cx >= (long)a->sw || cy >= (long)a->sh) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"the middle of %s \"%s\" (#%s), %ld,%ld, is off the %ux%u screen", n->role,
			n->name, n->id, cx, cy, a->sw, a->sh);
	}
	struct act_req click;
	act_req_init(&click, ACT_CLICK);
	click.x = (unsigned)cx;
	click.y = (unsigned)cy;
	if (rq->cmd == ACT_CLICK) {
		leave(t);
		click.button = rq->button;
		click.dbl = rq->dbl;
		return act_run(a, &click, out, err);
	}
	if (!a11y_focused(n)) {
		int r = act_run(a, &click, out, err);
		if (r < 0) {
			return r;
		}
		/* The click reaches the application's element later than its window: Chromium
		 * moves the focus into the page a moment after the click, and a key typed before
		 * that goes elsewhere. So the element must say it has the focus first. */
		uint64_t until = now_ms() + A11Y_FOCUS_WAIT_MS;
		while (!a11y_focused(n)) {
			if (now_ms() >= until) {
				return error_set(
					err, -ETIMEDOUT,
					"clicked %s \"%s\" (#%s), but it did not take the focus within %d ms; nothing was typed",
					n->role, n->name, n->id, A11Y_FOCUS_WAIT_MS);
			}
			struct timespec ts = {0, 20 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
	leave(t);
	struct act_req typing = *rq;
	typing.element = NULL;
	return act_run(a, &typing, out, err);
}

/* What the action prints, or does on its element, from the walked tree t. */
static int answer(struct act *a, struct act_req *rq, struct a11y_tree *t, struct act_out *out,
		  struct error *err)
{
	if (rq->element) {
		size_t i;
		int r = a11y_element(t, rq->element, &i, err);
		return r < 0 ? r : act_on_element(a, rq, t, i, out, err);
	}
	/* Bounds in a picture's pixels with --from (the MCP server's model picture). */
	struct a11y_scale sc = {.pic_w = rq->from_w, .pic_h = rq->from_h, .sw = a->sw, .sh = a->sh};
	if (rq->cmd == ACT_TREE) {
		a11y_print_tree(stdout, t, &sc, rq->json);
		return 0;
	}
	_cleanup_free_ size_t *m = NULL;
	size_t n = a11y_find(t, rq->role, rq->name, &m);
	a11y_print_matches(stdout, t, m, n, &sc, rq->json);
	return 0;
}

static int run(struct act_call *c, struct act_out *out)
{
	struct act_req *rq = &c->rq;
	struct error *err = &c->err;
	int r = desktop_environment(&c->p, c->display, c->xauthority, err);
	if (r < 0 || (r = act_call_lease_check(&c->p, err)) < 0) {
		return r;
	}
	/* The screen's size, what is off it, and the hands for --element. */
	struct act a = {
		.check = act_call_lease_check, .ctx = &c->p, .sigfd = -1, .dirfd = c->p.dirfd};
	if (rq->cmd != ACT_TYPE) {
		XkbIgnoreExtension(True);
	}
	r = act_open(&a, c->display, c->xauthority, err);
	if (r < 0) {
		return r;
	}
	struct a11y_walk w = {
		.window = rq->window,
		.depth = rq->depth,
		.deadline_ms = now_ms() + rq->timeout_ms,
		.sw = a.sw,
		.sh = a.sh,
		.role = rq->cmd == ACT_FIND ? rq->role : NULL,
		.name = rq->cmd == ACT_FIND ? rq->name : NULL,
	};
	/* --element ROLE:NAME reads whole only the nodes of that role, as find does. */
	char spec_buf[ACT_MATCH_MAX + 1];
	struct a11y_spec spec;
	if (rq->element && a11y_parse_spec(rq->element, spec_buf, sizeof(spec_buf), &spec) == 0 &&
	    !spec.id) {
		w.role = spec.role;
		w.name = spec.name;
	}
	struct a11y_tree t;
	r = a11y_walk(&w, &t, err);
	/* The walk is done: a click or typing of any length is not bounded by it. */
	alarm(0);
	if (r == 0) {
		r = answer(&a, rq, &t, out, err);
	}
	leave(&t);
	/* Not closed otherwise: the server frees everything of ours when the process ends (as
	 * botdesk-act). A sanitizer build closes it, for the leak checker. */
#ifdef BOTDESK_SANITIZED
	act_close(&a);
#endif
	return r;
}

int main(int argc, char **argv)
{
	log_set_program("botdesk");
	struct act_call c;
	if (act_call_take(argc, argv, "botdesk-act-a11y", &c) < 0 ||
	    act_call_parse(argc, argv, &c) < 0) {
		return EXIT_USAGE;
	}
	if (!act_is_a11y(&c.rq)) {
		log_error("botdesk-act-a11y does tree, find and --element; '%s' is botdesk-act's",
			  act_cmd_name(c.rq.cmd));
		return EXIT_USAGE;
	}
	_cleanup_free_ char *text = NULL;
	if (c.rq.cmd == ACT_TYPE && actprint_read_text(&c.rq, &text, &c.err) < 0) {
		log_error("%s", c.err.msg);
		return error_isset(&c.err) && c.rq.text ? EXIT_USAGE : EXIT_FAILURE;
	}
	struct sigaction sa = {.sa_handler = on_alarm};
	sigaction(SIGALRM, &sa, NULL);
	alarm((unsigned)((c.rq.timeout_ms + 999) / 1000 + 1));
	struct act_out out = {0};
	int r = run(&c, &out);
	act_call_log(&c, &out, r);
	if (r == 0 && c.rq.element) {
		actprint_result(&c.rq, &out);
	}
	fflush(stdout);
	return actprint_exit(r, &c.err);
}
