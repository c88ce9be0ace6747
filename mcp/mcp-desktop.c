/* The desktop side of botdesk-mcp (mcp-server.h): the kept connection, the lease checked before
 * every action, status, start, lease and ask_human through libdesk, and the desktop's actions
 * with their results. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "actlog.h"
#include "acttable.h"
#include "control.h"
#include "log.h"
#include "mcp-a11y.h"
#include "mcp-server.h"
#include "memout.h"
#include "modelpic.h"
#include "status.h"
#include "util.h"

json_t *server_text(const char *text, bool is_error)
{
	return mcp_tool_result(json_pack("[o]", mcp_text(text)), is_error);
}

int server_open_profile(struct server *s, bool create, struct error *err)
{
	if (s->p.dirfd >= 0) {
		return 0;
	}
	profile_close(&s->p);
	return profile_open(&s->settings, s->profile, create, &s->p, err);
}

/* What print writes (one JSON object and a newline), as a tool's text; NULL when out of memory. */
static json_t *printed_result(int (*print)(FILE *f, void *ctx), void *ctx)
{
	_cleanup_free_ char *text = memout(print, ctx);
	if (!text) {
		return NULL;
	}
	text[strcspn(text, "\n")] = '\0';
	return server_text(text, false);
}

static int print_status(FILE *f, void *ctx)
{
	status_print_json(ctx, f);
	return 0;
}

json_t *server_status(struct server *s, bool start, uint64_t wait_ms)
{
	struct error err = {{0}};
	struct desktop_probe probe;
	int r = server_open_profile(s, start, &err);
	if (r == 0 && start) {
		r = desktop_start(&s->settings, &s->p, wait_ms, &probe, &err);
	} else if (r == 0) {
		desktop_probe(&s->p, &probe);
	}
	if (r < 0) {
		return server_text(error_isset(&err) ? err.msg : strerror(-r), true);
	}
	struct status st;
	status_gather(&s->settings, &s->p, &probe, &st);
	return printed_result(print_status, &st);
}

struct lease_view {
	const char *profile;
	const struct lease *l;
	const struct lease_request *rq; /* NULL: no request */
};

static int print_lease(FILE *f, void *ctx)
{
	const struct lease_view *v = ctx;
	control_print_json(v->profile, v->l, v->rq, f);
	return 0;
}

json_t *server_lease(struct server *s, bool ask, const char *reason)
{
	struct error err = {{0}};
	struct lease l = {.holder = LEASE_AGENT};
	struct lease_request rq;
	int r = server_open_profile(s, ask, &err);
	if (r == 0 && ask) {
		r = lease_request_set_at(s->p.dirfd, reason, time(NULL), &rq);
		if (r < 0) {
			error_set(&err, r, "cannot record the request in %s/%s: %s", s->p.dir,
				  LEASE_REQUEST_FILE, strerror(-r));
		}
	}
	if (ask && r < 0) {
		return server_text(error_isset(&err) ? err.msg : strerror(-r), true);
	}
	bool asked = false;
	if (s->p.dirfd >= 0) {
		(void)lease_read_at(s->p.dirfd, &l);
		asked = lease_request_read_at(s->p.dirfd, &rq) == 0;
	}
	struct lease_view v = {.profile = s->profile, .l = &l, .rq = asked ? &rq : NULL};
	return printed_result(print_lease, &v);
}

int server_connect(struct server *s, struct error *err)
{
	int r = server_open_profile(s, false, err);
	if (r < 0) {
		return r;
	}
	struct desktop_probe *pr = &s->probe;
	desktop_probe(&s->p, pr);
	if (!pr->running) {
		return error_set(err, -ENOTCONN,
				 "no desktop is running for profile '%s'; call the start tool",
				 s->profile);
	}
	if (act_is_open(&s->a) && (pr->launcher.pid != s->launcher.pid ||
				   pr->launcher.starttime != s->launcher.starttime)) {
		act_close(&s->a);
	}
	if (act_is_open(&s->a)) {
		return 0;
	}
	const char *display = envfile_get(&pr->env, "DISPLAY");
	const char *xauth = envfile_get(&pr->env, "XAUTHORITY");
	_cleanup_free_ char *fallback = xauth ? NULL : profile_path(&s->p, STATE_XAUTHORITY);
	r = act_open(&s->a, display, xauth ? xauth : fallback, err);
	if (r == 0) {
		s->launcher = pr->launcher;
		s->a.dirfd = s->p.dirfd;
		s->a.env = &pr->env;
		/* What clipboard_set, open and launch start counts against the desktop's limit. */
		safe_close(s->a.cgroup_fd);
		s->a.cgroup_fd = desktop_cgroup_procs(&s->settings, pr);
		s->a.cgroup_fd = s->a.cgroup_fd < 0 ? -1 : s->a.cgroup_fd;
	}
	return r;
}

json_t *server_action_result(const struct act_req *rq, struct act_out *out)
{
	char text[2048];
	/* A result of any size (the clipboard's text, the windows) comes whole. */
	if (out->json) {
		return server_text(out->json, false);
	}
	if (rq->cmd != ACT_SCREENSHOT) {
		if (!act_actions[rq->cmd].result_json(rq, out, text, sizeof(text))) {
			text[0] = 0;
		}
		return server_text(text, false);
	}
	/* A picture says how to click on it: scale is screen pixels per picture pixel; coordinates
	 * read from a picture of another size than the default one (sized for the model) go with
	 * from = its size. */
	unsigned mw, mh;
	modelpic_size(out->sw, out->sh, &mw, &mh);
	char scale[48] = "", from[48] = "";
	if (!rq->region && (out->pic.w != out->sw || out->pic.h != out->sh)) {
		snprintf(scale, sizeof(scale), ",\"scale\":%.4f", (double)out->sw / out->pic.w);
	}
	if (!rq->region && (out->pic.w != mw || out->pic.h != mh)) {
		snprintf(from, sizeof(from), ",\"from\":\"%ux%u\"", out->pic.w, out->pic.h);
	}
	snprintf(text, sizeof(text), "{\"width\":%u,\"height\":%u,\"screen\":\"%ux%u\"%s%s}",
		 out->pic.w, out->pic.h, out->sw, out->sh, scale, from);
	json_t *img = mcp_image(out->pic.data, out->pic.len,
				rq->format == ACT_FORMAT_JPEG ? "image/jpeg" : "image/png");
	return img ? mcp_tool_result(json_pack("[o,o]", img, mcp_text(text)), false) : NULL;
}

/* tree, find, and click or type on an element: botdesk-act-a11y's (mcp-a11y.h), in the model
 * picture's space. */
static json_t *a11y_action(struct server *s, const struct act_req *rq)
{
	struct error err = {{0}};
	int r = server_connect(s, &err);
	struct lease l;
	if (r == 0) {
		r = control_need_agent(&s->p, &l, &err);
	}
	if (r < 0) {
		return server_text(err.msg, true);
	}
	struct desktop_probe probe;
	desktop_probe(&s->p, &probe);
	const char *display = envfile_get(&probe.env, "DISPLAY");
	const char *xauth = envfile_get(&probe.env, "XAUTHORITY");
	_cleanup_free_ char *fallback = xauth ? NULL : profile_path(&s->p, STATE_XAUTHORITY);
	if (!display || (!xauth && !fallback)) {
		return server_text("the desktop published no DISPLAY; stop and start it again",
				   true);
	}
	struct mcp_a11y_call c = {
		.program = s->settings.act_a11y,
		.p = &s->p,
		.display = display,
		.xauthority = xauth ? xauth : fallback,
		.log_text = s->settings.log_typed_text,
		.sw = s->a.sw,
		.sh = s->a.sh,
	};
	modelpic_size(s->a.sw, s->a.sh, &c.pic_w, &c.pic_h);
	/* As act_run does for an action: changes before it are not what a later wait waits for. */
	if (rq->element && s->a.watching) {
		screenwait_drain(&s->a.watch);
		s->a.changed = false;
	}
	_cleanup_free_ char *text = NULL;
	r = mcp_a11y_run(&c, rq, &text, &err);
	return server_text(r == 0 ? text : err.msg, r < 0);
}

int server_run_one(struct server *s, const struct act_req *rq, struct act_out *out,
		   struct error *err)
{
	*out = (struct act_out){0};
	int r = server_connect(s, err);
	struct lease l;
	if (r == 0) {
		r = control_need_agent(&s->p, &l, err);
	}
	if (r < 0) {
		return r;
	}
	r = act_run(&s->a, rq, out, err);
	if (r == -ECONNRESET) {
		/* The desktop went away under us; one more try on a fresh connection. */
		act_close(&s->a);
		*err = (struct error){{0}};
		r = server_connect(s, err);
		r = r ? r : act_run(&s->a, rq, out, err);
	}
	/* A refusal sent nothing; a take part way through is logged where it stopped. */
	if ((err->kind != ERROR_HUMAN_HOLDS || out->stopped) && s->p.dirfd >= 0) {
		actlog_stamp_activity(&s->p);
		_cleanup_free_ char *line =
			actlog_line(s->source, rq, out, r, s->settings.log_typed_text);
		if (line && actlog_append(s->p.dirfd, line) < 0) {
			log_warn("cannot append to %s/%s", s->p.dir, ACTLOG_FILE);
		}
	}
	if (r < 0 && !error_isset(err)) {
		error_set(err, r, "%s", strerror(-r));
	}
	return r;
}

json_t *server_action(struct server *s, const struct act_req *rq)
{
	if (act_is_a11y(rq)) {
		return a11y_action(s, rq);
	}
	struct error err = {{0}};
	struct act_out out;
	int r = server_run_one(s, rq, &out, &err);
	json_t *res = r == 0 ? server_action_result(rq, &out) : server_text(err.msg, true);
	free(out.pic.data);
	free(out.data);
	free(out.json);
	return res;
}
