/* botdesk-mcp --profile NAME: a Model Context Protocol server on stdin/stdout for one profile's
 * desktop, run by `botdesk mcp`. One X connection for its whole life (the actions run
 * in-process, so a call costs a round trip or two, not a process); the lease is read again
 * before every action; logs go to stderr. Ends at the end of its input.
 * botdesk-mcp --profile NAME --batch: `botdesk batch`, one batch (mcp/batch.h) read whole from
 * stdin, its steps run as the MCP tool batch runs them, in the screen's space as the CLI's
 * actions are, the result printed as JSON; exit 0 done, 1 a step failed, 2 malformed input, 4
 * stopped for a human. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "control.h"
#include "fileio.h"
#include "log.h"
#include "mcp-era.h"
#include "mcp-proto.h"
#include "mcp-server.h"
#include "profile.h"
#include "util.h"

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

static int lease_check(void *ctx, struct error *err)
{
	struct lease l;
	return control_need_agent(ctx, &l, err);
}

/* tools/call: which tool, then its own function (mcp-server.h). */
json_t *server_call(struct server *s, json_t *params, int *code, struct error *err)
{
	enum mcp_tool tool;
	struct act_req rq;
	uint64_t wait_ms;
	*code = mcp_tool_args(params, &tool, &rq, &wait_ms, err);
	if (*code == -EINVAL) {
		*code = 0;
		return server_text(err->msg, true);
	}
	if (*code) {
		return NULL;
	}
	switch (tool) {
	case MCP_TOOL_STATUS:
		return server_status(s, false, 0);
	case MCP_TOOL_START:
		return server_status(s, true, wait_ms);
	case MCP_TOOL_LEASE:
		return server_lease(s, false, NULL);
	case MCP_TOOL_ASK:
		return server_lease(s, true, rq.text);
	case MCP_TOOL_BATCH:
		return server_batch(s, params);
	case MCP_TOOL_COMPUTER:
	case MCP_TOOL_COMPUTER_ACTIONS:
		return server_computer(s, params, tool);
	default:
		return server_action(s, &rq);
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
		result = server_call(s, msg.params, &code, &err);
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
		int status = server_batch_cli(&s);
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
