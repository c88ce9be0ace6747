/* botdesk-mcp --profile NAME: a Model Context Protocol server on stdin/stdout for one profile's
 * desktop, run by `botdesk mcp`. One X connection for its whole life (the actions run
 * in-process, so a call costs a round trip or two, not a process); the lease is read again
 * before every action; logs go to stderr. Ends at the end of its input. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "act.h"
#include "actlog.h"
#include "acttable.h"
#include "config.h"
#include "control.h"
#include "desktop.h"
#include "fileio.h"
#include "log.h"
#include "mcp-a11y.h"
#include "mcp-era.h"
#include "mcp-proto.h"
#include "modelpic.h"
#include "profile.h"
#include "settings.h"
#include "status.h"
#include "util.h"

struct server {
	struct settings settings;
	const char *profile;
	struct profile p;
	struct act a;
	struct identity launcher; /* the launcher of the desktop a is connected to */
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

static json_t *tool_lease(struct server *s)
{
	struct error err = {{0}};
	struct lease l = {.holder = LEASE_AGENT};
	(void)open_profile(s, false, &err);
	if (s->p.dirfd >= 0) {
		(void)lease_read_at(s->p.dirfd, &l);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		return NULL;
	}
	control_print_json(s->profile, &l, f);
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
	struct desktop_probe probe;
	desktop_probe(&s->p, &probe);
	if (!probe.running) {
		return error_set(err, -ENOTCONN,
				 "no desktop is running for profile '%s'; call the start tool",
				 s->profile);
	}
	if (act_is_open(&s->a) && (probe.launcher.pid != s->launcher.pid ||
				   probe.launcher.starttime != s->launcher.starttime)) {
		act_close(&s->a);
	}
	if (act_is_open(&s->a)) {
		return 0;
	}
	const char *display = envfile_get(&probe.env, "DISPLAY");
	const char *xauth = envfile_get(&probe.env, "XAUTHORITY");
	_cleanup_free_ char *fallback = xauth ? NULL : profile_path(&s->p, STATE_XAUTHORITY);
	r = act_open(&s->a, display, xauth ? xauth : fallback, err);
	if (r == 0) {
		s->launcher = probe.launcher;
		s->a.dirfd = s->p.dirfd;
	}
	return r;
}

/* The action's result as its row gives it (act/acttable.c: what `--json` prints too), after the
 * picture for a screenshot. */
static json_t *action_result(const struct act_req *rq, struct act_out *out)
{
	char text[256];
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

static json_t *tool_action(struct server *s, const struct act_req *rq)
{
	if (act_is_a11y(rq)) {
		return tool_a11y(s, rq);
	}
	struct error err = {{0}};
	int r = connect_desktop(s, &err);
	struct lease l;
	if (r == 0) {
		r = control_need_agent(&s->p, &l, &err);
	}
	if (r < 0) {
		return text_result(err.msg, true);
	}
	struct act_out out;
	r = act_run(&s->a, rq, &out, &err);
	if (r == -ECONNRESET) {
		/* The desktop went away under us; one more try on a fresh connection. */
		act_close(&s->a);
		err = (struct error){{0}};
		r = connect_desktop(s, &err);
		r = r ? r : act_run(&s->a, rq, &out, &err);
	}
	/* A refusal sent nothing; a take part way through is logged where it stopped. */
	if ((err.kind != ERROR_HUMAN_HOLDS || out.stopped) && s->p.dirfd >= 0) {
		actlog_stamp_activity(&s->p);
		_cleanup_free_ char *line =
			actlog_line("mcp", rq, &out, r, s->settings.log_typed_text);
		if (line && actlog_append(s->p.dirfd, line) < 0) {
			log_warn("cannot append to %s/%s", s->p.dir, ACTLOG_FILE);
		}
	}
	const char *msg = error_isset(&err) ? err.msg : strerror(-r);
	json_t *res = r == 0 ? action_result(rq, &out) : text_result(msg, true);
	free(out.pic.data);
	return res;
}

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
		return tool_lease(s);
	default:
		return tool_action(s, &rq);
	}
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

int main(int argc, char **argv)
{
	log_set_program("botdesk-mcp");
	if (argc != 3 || !streq(argv[1], "--profile") || !profile_name_valid(argv[2])) {
		log_error("usage: botdesk-mcp --profile NAME (run by 'botdesk mcp')");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	struct server s = {.profile = argv[2], .p = PROFILE_INIT};
	struct error err = {{0}};
	if (settings_load(&s.settings, &err) < 0) {
		log_error("%s", err.msg);
		return EXIT_FAILURE;
	}
	s.a = (struct act){.check = lease_check,
			   .ctx = &s.p,
			   .sigfd = -1,
			   .dirfd = -1,
			   .track = true,
			   .model_space = true};
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
