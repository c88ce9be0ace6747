/* botdesk-mcp --profile NAME: a Model Context Protocol server on stdin/stdout for one profile's
 * desktop, run by `botdesk mcp`. One X connection for its whole life (the actions run
 * in-process, so a call costs a round trip or two, not a process); the lease is read again
 * before every action; logs go to stderr. Ends at the end of its input.
 * botdesk-mcp --profile NAME --batch: `botdesk batch`, one batch (mcp/batch.h) read whole from
 * stdin, its steps run as the MCP tool batch runs them, in the screen's space as the CLI's
 * actions are, the result printed as JSON; exit 0 done, 1 a step failed, 2 malformed input, 4
 * stopped for a human. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "act.h"
#include "actlog.h"
#include "acttable.h"
#include "batch.h"
#include "config.h"
#include "control.h"
#include "desktop.h"
#include "exitstatus.h"
#include "fileio.h"
#include "log.h"
#include "mcp-a11y.h"
#include "mcp-computer.h"
#include "mcp-era.h"
#include "mcp-proto.h"
#include "modelpic.h"
#include "profile.h"
#include "settings.h"
#include "status.h"
#include "util.h"

/* The settle before the screenshot a `computer` call answers with: the screen quiet this long,
 * or at most the bound (a clock or a video never settles). */
#define COMPUTER_SETTLE_QUIET_MS 300
#define COMPUTER_SETTLE_MAX_MS 2000
/* Between two steps of one call. An application reads the X events waiting for it in one go
 * and merges them: Chromium, handed a list's steps back to back, pressed a drag and a right
 * click where a later step's motion went (e2e-computer fails without the gap). 50 ms lets it
 * read each step on its own on a loaded host; a reference harness spends more than that
 * starting xdotool for each action. */
#define COMPUTER_STEP_GAP_MS 50

struct server {
	struct settings settings;
	const char *profile;
	struct profile p;
	struct act a;
	struct identity launcher;   /* the launcher of the desktop a is connected to */
	struct desktop_probe probe; /* its last probe: the environment open and launch give */
	const char *source;         /* actions.jsonl's source: "mcp", or "cli" for botdesk batch */
	uint64_t epoch;             /* the lease's epoch a running batch began under */
};

static void send_line(char *line)
{
	if (!line) {
		log_error("out of memory");
		exit(EXIT_FAILURE);
	}
	if (write_all(1, line, strlen(line)) < 0) {
		/* The client is gone: nothing left to serve. */
		exit(0);
	}
	free(line);
}

static json_t *text_result(const char *text, bool is_error)
{
	return mcp_tool_result(json_pack("[o]", mcp_text(text)), is_error);
}

/* The profile's directory, opened once it exists (start makes it). */
static int open_profile(struct server *s, bool create, struct error *err)
{
	if (s->p.dirfd >= 0) {
		return 0;
	}
	profile_close(&s->p);
	return profile_open(&s->settings, s->profile, create, &s->p, err);
}

static char *status_json(struct server *s, const struct desktop_probe *probe)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		return NULL;
	}
	struct status st;
	status_gather(&s->settings, &s->p, probe, &st);
	status_print_json(&st, f);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static json_t *tool_status(struct server *s, bool start, uint64_t wait_ms)
{
	struct error err = {{0}};
	struct desktop_probe probe;
	int r = open_profile(s, start, &err);
	if (r == 0 && start) {
		r = desktop_start(&s->settings, &s->p, wait_ms, &probe, &err);
	} else if (r == 0) {
		desktop_probe(&s->p, &probe);
	}
	if (r < 0) {
		return text_result(error_isset(&err) ? err.msg : strerror(-r), true);
	}
	_cleanup_free_ char *j = status_json(s, &probe);
	return j ? text_result(j, false) : NULL;
}

/* lease, and ask_human (reason, or NULL): the request recorded first (common/lease.h); never
 * refused while a human holds the desktop. */
static json_t *tool_lease(struct server *s, bool ask, const char *reason)
{
	struct error err = {{0}};
	struct lease l = {.holder = LEASE_AGENT};
	struct lease_request rq;
	int r = open_profile(s, ask, &err);
	if (r == 0 && ask) {
		r = lease_request_set_at(s->p.dirfd, reason, time(NULL), &rq);
		if (r < 0) {
			error_set(&err, r, "cannot record the request in %s/%s: %s", s->p.dir,
				  LEASE_REQUEST_FILE, strerror(-r));
		}
	}
	if (ask && r < 0) {
		return text_result(error_isset(&err) ? err.msg : strerror(-r), true);
	}
	bool asked = false;
	if (s->p.dirfd >= 0) {
		(void)lease_read_at(s->p.dirfd, &l);
		asked = lease_request_read_at(s->p.dirfd, &rq) == 0;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		return NULL;
	}
	control_print_json(s->profile, &l, asked ? &rq : NULL, f);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	json_t *res = text_result(buf, false);
	free(buf);
	return res;
}

static int lease_check(void *ctx, struct error *err)
{
	struct lease l;
	return control_need_agent(ctx, &l, err);
}

/* Connected to the running desktop: the connection is made again when the desktop was
 * restarted (another launcher) or its server went away. */
static int connect_desktop(struct server *s, struct error *err)
{
	int r = open_profile(s, false, err);
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

/* The action's result as its row gives it (act/acttable.c: what `--json` prints too), after the
 * picture for a screenshot. */
static json_t *action_result(const struct act_req *rq, struct act_out *out)
{
	char text[2048];
	/* A result of any size (the clipboard's text, the windows) comes whole. */
	if (out->json) {
		return text_result(out->json, false);
	}
	if (rq->cmd != ACT_SCREENSHOT) {
		if (!act_actions[rq->cmd].result_json(rq, out, text, sizeof(text))) {
			text[0] = 0;
		}
		return text_result(text, false);
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
static json_t *tool_a11y(struct server *s, const struct act_req *rq)
{
	struct error err = {{0}};
	int r = connect_desktop(s, &err);
	struct lease l;
	if (r == 0) {
		r = control_need_agent(&s->p, &l, &err);
	}
	if (r < 0) {
		return text_result(err.msg, true);
	}
	struct desktop_probe probe;
	desktop_probe(&s->p, &probe);
	const char *display = envfile_get(&probe.env, "DISPLAY");
	const char *xauth = envfile_get(&probe.env, "XAUTHORITY");
	_cleanup_free_ char *fallback = xauth ? NULL : profile_path(&s->p, STATE_XAUTHORITY);
	if (!display || (!xauth && !fallback)) {
		return text_result("the desktop published no DISPLAY; stop and start it again",
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
	return text_result(r == 0 ? text : err.msg, r < 0);
}

/* One action on the desktop, connected and with the lease checked, logged in actions.jsonl.
 * The caller frees out->pic.data. */
static int run_one(struct server *s, const struct act_req *rq, struct act_out *out,
		   struct error *err)
{
	*out = (struct act_out){0};
	int r = connect_desktop(s, err);
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
		r = connect_desktop(s, err);
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

static json_t *tool_action(struct server *s, const struct act_req *rq)
{
	if (act_is_a11y(rq)) {
		return tool_a11y(s, rq);
	}
	struct error err = {{0}};
	struct act_out out;
	int r = run_one(s, rq, &out, &err);
	json_t *res = r == 0 ? action_result(rq, &out) : text_result(err.msg, true);
	free(out.pic.data);
	free(out.data);
	free(out.json);
	return res;
}

/* The default picture after the actions, once the screen has settled (quiet for a moment, or
 * at most a bound): what Anthropic's reference harness sends after each action, and OpenAI's
 * answer to every call. Appended to content. */
static int settled_screenshot(struct server *s, json_t *content, struct error *err)
{
	struct act_req rq;
	struct act_out out;
	act_req_init(&rq, ACT_WAIT_IDLE);
	rq.quiet_ms = COMPUTER_SETTLE_QUIET_MS;
	rq.timeout_ms = COMPUTER_SETTLE_MAX_MS;
	struct error ignored = {{0}};
	/* Not logged: a pause of the server's own, and a screen that keeps changing (a clock, a
	 * video) is no failure. */
	(void)act_run(&s->a, &rq, &out, &ignored);
	act_req_init(&rq, ACT_SCREENSHOT);
	rq.format = ACT_FORMAT_JPEG;
	int r = run_one(s, &rq, &out, err);
	json_t *res = r == 0 ? action_result(&rq, &out) : NULL;
	free(out.pic.data);
	if (r == 0 && !res) {
		return -ENOMEM;
	}
	size_t i;
	json_t *item;
	json_array_foreach(json_object_get(res, "content"), i, item)
	{
		json_array_append(content, item);
	}
	json_decref(res);
	return r;
}

/* A plan's failure: which step, and what was done before it. */
static json_t *plan_failed(const struct mcp_plan *plan, size_t step, const struct error *err)
{
	if (plan->items <= 1) {
		return text_result(err->msg, true);
	}
	size_t item = plan->item[step];
	char msg[sizeof(err->msg) + 256];
	snprintf(msg, sizeof(msg), "%s at action %zu of %zu (%s): %s. %s",
		 err->kind == ERROR_HUMAN_HOLDS ? "stopped" : "failed", item + 1, plan->items,
		 plan->what[step], err->msg,
		 item == 0 ? "No action before it was done."
			   : "The actions before it were done; none after it was sent.");
	return text_result(msg, true);
}

/* What a `computer` call answers once its steps are done (out: the last step's). */
static json_t *plan_answer(struct server *s, const struct mcp_plan *plan, struct act_out *out)
{
	const struct act_req *last = plan->n ? &plan->steps[plan->n - 1] : NULL;
	char text[2048] = "{}";
	if (plan->answer == MCP_ANSWER_PICTURE && last) {
		json_t *img = mcp_image(out->pic.data, out->pic.len, "image/jpeg");
		return img ? mcp_tool_result(json_pack("[o]", img), false) : NULL;
	}
	if (plan->answer == MCP_ANSWER_CURSOR && last) {
		/* As the reference harness says it, in the picture the model sees. */
		unsigned x = out->from_w ? act_to_picture(out->x, out->sw, out->from_w) : out->x;
		unsigned y = out->from_w ? act_to_picture(out->y, out->sh, out->from_h) : out->y;
		snprintf(text, sizeof(text), "X=%u,Y=%u", x, y);
	} else if (last && !act_actions[last->cmd].result_json(last, out, text, sizeof(text))) {
		snprintf(text, sizeof(text), "{}");
	}
	json_t *content = json_pack("[o]", mcp_text(text));
	struct error err = {{0}};
	if (content && s->settings.computer_screenshots &&
	    settled_screenshot(s, content, &err) < 0) {
		json_decref(content);
		return text_result(err.msg, true);
	}
	return content ? mcp_tool_result(content, false) : NULL;
}

/* The models' vocabularies (mcp-computer.h): the steps in order, the first failure or a human's
 * take stopping the rest. */
static json_t *tool_computer(struct server *s, json_t *params, enum mcp_tool tool)
{
	struct error err = {{0}};
	_cleanup_free_ struct mcp_plan *plan = calloc(1, sizeof(*plan));
	if (!plan) {
		return NULL;
	}
	json_t *args = json_object_get(params, "arguments");
	int r = tool == MCP_TOOL_COMPUTER ? mcp_computer_plan(args, plan, &err)
					  : mcp_computer_actions_plan(args, plan, &err);
	if (r == 0 && plan->zoom) {
		/* The region at the screen's resolution, scaled to fill the model picture's size.
		 */
		r = connect_desktop(s, &err);
		modelpic_size(s->a.sw, s->a.sh, &plan->steps[plan->n - 1].max_w,
			      &plan->steps[plan->n - 1].max_h);
	}
	if (r < 0) {
		return text_result(err.msg, true);
	}
	struct act_out out = {0};
	for (size_t i = 0; i < plan->n; i++) {
		free(out.pic.data);
		if (i > 0) {
			/* Paced as separate calls would be (see COMPUTER_STEP_GAP_MS). */
			(void)poll(NULL, 0, COMPUTER_STEP_GAP_MS);
		}
		r = run_one(s, &plan->steps[i], &out, &err);
		if (r < 0) {
			free(out.pic.data);
			return plan_failed(plan, i, &err);
		}
	}
	json_t *res = NULL;
	if (plan->answer == MCP_ANSWER_SCREEN) {
		json_t *content = json_array();
		r = content ? settled_screenshot(s, content, &err) : -ENOMEM;
		res = r == 0 ? mcp_tool_result(content, false) : NULL;
		if (r < 0) {
			json_decref(content);
			res = r == -ENOMEM ? NULL : text_result(err.msg, true);
		}
	} else {
		res = plan_answer(s, plan, &out);
	}
	free(out.pic.data);
	return res;
}

static json_t *tool_batch(struct server *s, json_t *params);

/* tools/call: the tool's result, or NULL with a JSON-RPC error code in *code. */
static json_t *call_tool(struct server *s, json_t *params, int *code, struct error *err)
{
	enum mcp_tool tool;
	struct act_req rq;
	uint64_t wait_ms;
	*code = mcp_tool_args(params, &tool, &rq, &wait_ms, err);
	if (*code == -EINVAL) {
		*code = 0;
		return text_result(err->msg, true);
	}
	if (*code) {
		return NULL;
	}
	switch (tool) {
	case MCP_TOOL_STATUS:
		return tool_status(s, false, 0);
	case MCP_TOOL_START:
		return tool_status(s, true, wait_ms);
	case MCP_TOOL_LEASE:
		return tool_lease(s, false, NULL);
	case MCP_TOOL_ASK:
		return tool_lease(s, true, rq.text);
	case MCP_TOOL_BATCH:
		return tool_batch(s, params);
	case MCP_TOOL_COMPUTER:
	case MCP_TOOL_COMPUTER_ACTIONS:
		return tool_computer(s, params, tool);
	default:
		return tool_action(s, &rq);
	}
}

/* A batch's step is a tools/call: any tool this server has works as a step, as it works alone. */
static json_t *batch_call(void *ctx, json_t *params, int *code, struct error *err)
{
	return call_tool(ctx, params, code, err);
}

/* Before every step: the agent holds the lease, and it is the one the batch began under. */
static int batch_lease(void *ctx, struct error *err)
{
	struct server *s = ctx;
	struct lease l;
	int r = control_need_agent(&s->p, &l, err);
	if (r == 0 && l.epoch != s->epoch) {
		return error_set_kind(
			err, ERROR_HUMAN_HOLDS, -EACCES,
			"a human took the desktop of profile '%s' during the batch and handed it back (the lease's epoch went from %llu to %llu); the rest of the batch was not sent",
			s->profile, (unsigned long long)s->epoch, (unsigned long long)l.epoch);
	}
	return r;
}

/* Runs checked steps under the lease as it is now; every action of theirs begins only under
 * that epoch (act.h's epoch: no take and hand-back can slip between a step's check and its
 * first event). -EACCES when a human holds the desktop already. */
static int run_batch(struct server *s, json_t *steps, struct batch_result *ret, struct error *err)
{
	struct error ignored = {{0}};
	(void)open_profile(s, false, &ignored);
	struct lease l;
	int r = control_need_agent(&s->p, &l, err);
	if (r < 0) {
		return r;
	}
	s->epoch = l.epoch;
	s->a.epoch = &s->epoch;
	struct batch_ops ops = {.call = batch_call, .check = batch_lease, .ctx = s};
	r = batch_run(steps, &ops, ret);
	s->a.epoch = NULL;
	return r;
}

static json_t *tool_batch(struct server *s, json_t *params)
{
	json_t *steps = json_object_get(json_object_get(params, "arguments"), "steps");
	_cleanup_(json_decrefp) json_t *tools = mcp_tools_list();
	struct error err = {{0}};
	if (!tools) {
		return NULL;
	}
	if (batch_check(steps, tools, &err) < 0) {
		char msg[sizeof(err.msg) + 64];
		snprintf(msg, sizeof(msg), "invalid arguments: 'steps': %s", err.msg);
		return text_result(msg, true);
	}
	struct batch_result res;
	int r = run_batch(s, steps, &res, &err);
	if (r < 0) {
		return text_result(error_isset(&err) ? err.msg : strerror(-r), true);
	}
	return batch_tool_result(&res);
}

static void handle(struct server *s, const char *line, size_t len)
{
	struct error err = {{0}};
	struct mcp_msg msg;
	int code = mcp_parse(line, len, &msg, &err);
	if (code) {
		/* A notification gets no answer, not even an error. */
		if (code == MCP_PARSE_ERROR || msg.id || !msg.method) {
			send_line(mcp_error_line(msg.id, code, err.msg, NULL));
		}
		mcp_msg_free(&msg);
		return;
	}
	if (!msg.id) {
		/* notifications/initialized, notifications/cancelled, ...: nothing to say. */
		mcp_msg_free(&msg);
		return;
	}
	struct mcp_route route;
	code = mcp_route(&msg, &route, &err);
	json_t *result = NULL;
	switch (code ? -1 : (int)route.method) {
	case MCP_INITIALIZE: {
		json_t *v = msg.params ? json_object_get(msg.params, "protocolVersion") : NULL;
		result = mcp_initialize_result(json_is_string(v) ? json_string_value(v) : NULL,
					       BOTDESK_VERSION);
		break;
	}
	case MCP_PING:
		result = json_object();
		break;
	case MCP_DISCOVER:
		result = mcp_discover_result(BOTDESK_VERSION);
		break;
	case MCP_TOOLS_LIST:
		result = mcp_era_tools_list(route.era);
		break;
	case MCP_TOOLS_CALL:
		result = call_tool(s, msg.params, &code, &err);
		break;
	default:
		break;
	}
	if (code) {
		json_t *data = code == MCP_UNSUPPORTED_VERSION
				       ? mcp_unsupported_data(route.requested)
				       : NULL;
		send_line(mcp_error_line(msg.id, code, err.msg, data));
	} else {
		result = mcp_era_result(result, route.era, BOTDESK_VERSION);
		send_line(result ? mcp_result_line(msg.id, result) : NULL);
	}
	mcp_msg_free(&msg);
}

/* Reads lines from fd 0 into a bounded buffer; a longer line is answered with an error and
 * skipped up to its end. */
static int serve(struct server *s)
{
	size_t cap = 64 * 1024, len = 0;
	char *buf = malloc(cap);
	bool skipping = false;
	if (!buf) {
		return -ENOMEM;
	}
	for (;;) {
		if (len == cap) {
			if (cap >= MCP_REQUEST_MAX) {
				skipping = true;
				len = 0;
				send_line(mcp_error_line(
					NULL, MCP_INVALID_REQUEST,
					"invalid request: longer than 1048576 bytes; it was skipped",
					NULL));
			} else {
				cap *= 2;
				char *b = realloc(buf, cap + 1);
				if (!b) {
					free(buf);
					return -ENOMEM;
				}
				buf = b;
			}
		}
		ssize_t n = read(0, buf + len, cap - len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			free(buf);
			return n < 0 ? negative_errno() : 0;
		}
		size_t start = 0, end = len + (size_t)n;
		for (size_t i = len; i < end; i++) {
			if (buf[i] != '\n') {
				continue;
			}
			if (skipping) {
				skipping = false;
			} else if (i > start) {
				size_t l = i - start;
				l -= l > 0 && buf[start + l - 1] == '\r';
				if (l > 0) {
					handle(s, buf + start, l);
				}
			}
			start = i + 1;
		}
		memmove(buf, buf + start, end - start);
		len = skipping ? 0 : end - start;
	}
}

static void warn_to_log(void *data, const char *msg)
{
	(void)data;
	log_warn("%s", msg);
}

/* The batch on stdin: 0 with it in *ret, or the exit status of what was wrong with it. */
static int read_batch(json_t **ret)
{
	_cleanup_free_ char *buf = malloc(BATCH_INPUT_MAX + 1);
	ssize_t n = buf ? read_all(0, buf, BATCH_INPUT_MAX + 1) : -ENOMEM;
	if (n < 0) {
		log_error("cannot read the batch from standard input: %s", strerror((int)-n));
		return EXIT_FAILURE;
	}
	if (n == 0) {
		log_error(
			"no batch on standard input: give a JSON array of steps, each {\"tool\": NAME, \"arguments\": {...}}");
		return EXIT_USAGE;
	}
	if (n > BATCH_INPUT_MAX) {
		log_error("the batch on standard input is longer than %d bytes", BATCH_INPUT_MAX);
		return EXIT_USAGE;
	}
	json_error_t jerr;
	_cleanup_(json_decrefp) json_t *steps =
		json_loadb(buf, (size_t)n, JSON_REJECT_DUPLICATES, &jerr);
	if (!steps) {
		log_error(
			"the batch on standard input is not JSON: %s (line %d, column %d); it is an array of steps, each {\"tool\": NAME, \"arguments\": {...}}",
			jerr.text, jerr.line, jerr.column);
		return EXIT_USAGE;
	}
	_cleanup_(json_decrefp) json_t *tools = mcp_tools_list();
	struct error err = {{0}};
	if (!tools) {
		return EXIT_FAILURE;
	}
	if (batch_check(steps, tools, &err) < 0) {
		log_error("invalid batch: %s", err.msg);
		return EXIT_USAGE;
	}
	*ret = json_incref(steps);
	return 0;
}

/* botdesk batch: the whole batch, its result on stdout, the stop's reason on stderr too. */
static int serve_batch(struct server *s)
{
	_cleanup_(json_decrefp) json_t *steps = NULL;
	int status = read_batch(&steps);
	if (status) {
		return status;
	}
	struct error err = {{0}};
	struct batch_result res;
	int r = run_batch(s, steps, &res, &err);
	if (r < 0) {
		log_error("%s", error_isset(&err) ? err.msg : strerror(-r));
		return exit_status_of(r, &err);
	}
	_cleanup_free_ char *out = batch_cli_output(&res);
	json_t *stop = json_object_get(res.summary, "stopped");
	if (stop) {
		log_error("the batch stopped at step %lld (%s): %s",
			  (long long)json_integer_value(json_object_get(stop, "step")),
			  json_string_value(json_object_get(stop, "tool")),
			  json_string_value(json_object_get(stop, "message")));
	}
	static const int statuses[] = {
		[BATCH_DONE] = 0, [BATCH_FAILED] = EXIT_FAILURE, [BATCH_HUMAN] = EXIT_HUMAN};
	status = statuses[res.end];
	batch_result_free(&res);
	if (!out || write_all(1, out, strlen(out)) < 0) {
		log_error("cannot write the batch's result: %s",
			  out ? strerror(errno) : "out of memory");
		return EXIT_FAILURE;
	}
	return status;
}

int main(int argc, char **argv)
{
	log_set_program("botdesk-mcp");
	bool batch = argc == 4 && streq(argv[3], "--batch");
	if ((argc != 3 && !batch) || !streq(argv[1], "--profile") || !profile_name_valid(argv[2])) {
		log_error(
			"usage: botdesk-mcp --profile NAME [--batch] (run by 'botdesk mcp' and 'botdesk batch')");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	struct server s = {.profile = argv[2], .p = PROFILE_INIT};
	struct error err = {{0}};
	if (settings_load(&s.settings, &err) < 0) {
		log_error("%s", err.msg);
		return EXIT_FAILURE;
	}
	/* stderr is the MCP client's log of this server; stdout is the protocol's alone. */
	s.settings.warn = warn_to_log;
	/* botdesk batch is the CLI's: the screen's space, as its single actions. */
	s.source = batch ? "cli" : "mcp";
	s.a = (struct act){.check = lease_check,
			   .ctx = &s.p,
			   .sigfd = -1,
			   .dirfd = -1,
			   .track = true,
			   .model_space = !batch,
			   .program = s.settings.act,
			   .browser = s.settings.browser,
			   .cgroup_fd = -1};
	if (batch) {
		log_set_program("botdesk");
		int status = serve_batch(&s);
		act_close(&s.a);
		profile_close(&s.p);
		settings_free(&s.settings);
		return status;
	}
	int r = serve(&s);
	act_close(&s.a);
	profile_close(&s.p);
	settings_free(&s.settings);
	if (r < 0) {
		log_error("cannot read the requests: %s", strerror(-r));
		return EXIT_FAILURE;
	}
	return 0;
}
