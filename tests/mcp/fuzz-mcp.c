/* The MCP request parser under libFuzzer: any bytes as one request line, through the JSON-RPC
 * checks, the era's routing (mcp-era.h) and, for tools/call, the tool's argument checks into an
 * action request. None may crash, leak or read out of bounds, whatever the input; a request
 * routed must be one its era has, and one that passes the argument checks must be one the
 * actions can take (coordinates and counts in their bounds, text printable UTF-8); a batch's
 * steps go through their checks (and each step's arguments through its tool's). */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "../helper/fuzz.h"
#include "batch.h"
#include "mcp-computer.h"
#include "mcp-era.h"
#include "mcp-proto.h"
#include "utf8.h"

/* The models' vocabularies: every step a plan holds is one the actions can take. */
static void check_plan(enum mcp_tool tool, json_t *args)
{
	static struct mcp_plan plan;
	struct error err = {{0}};
	int r = tool == MCP_TOOL_COMPUTER ? mcp_computer_plan(args, &plan, &err)
					  : mcp_computer_actions_plan(args, &plan, &err);
	if (r < 0) {
		assert(r == -EINVAL && err.msg[0]);
		return;
	}
	assert(plan.n <= MCP_STEPS_MAX);
	for (size_t i = 0; i < plan.n; i++) {
		const struct act_req *rq = &plan.steps[i];
		assert(rq->cmd < ACT_CMD_COUNT);
		assert(rq->x <= ACT_COORD_MAX && rq->y <= ACT_COORD_MAX);
		assert(rq->x2 <= ACT_COORD_MAX && rq->y2 <= ACT_COORD_MAX);
		assert(rq->n_path <= ACT_PATH_MAX && rq->n_keys <= ACT_KEYS_MAX);
		assert(rq->clicks >= 1 && rq->clicks <= ACT_CLICKS_MAX);
		assert(rq->cmd != ACT_SCROLL || (rq->amount >= 1 && rq->amount <= ACT_SCROLL_MAX));
		assert(rq->hold_ms <= ACT_HOLD_MAX_MS && rq->timeout_ms <= ACT_WAIT_MAX_MS);
		assert(rq->cmd != ACT_KEY || rq->n_keys >= 1);
		size_t n, bad;
		assert(!rq->text || (rq->text_len <= ACT_TEXT_MAX &&
				     utf8_validate(rq->text, rq->text_len, &n, &bad) == 0));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {{0}};
	struct mcp_msg msg;
	int code = mcp_parse((const char *)data, size, &msg, &err);
	struct mcp_route route;
	if (code == 0 && msg.id) {
		int r = mcp_route(&msg, &route, &err);
		if (r == 0 && route.era == MCP_MODERN) {
			assert(route.method != MCP_INITIALIZE && route.method != MCP_PING);
			assert(strcmp(route.requested, MCP_MODERN_VERSION) == 0);
		} else if (r == 0) {
			assert(route.method != MCP_DISCOVER);
		} else if (r == MCP_UNSUPPORTED_VERSION) {
			json_t *d = mcp_unsupported_data(route.requested);
			assert(d);
			json_decref(d);
		} else {
			assert(r == MCP_INVALID_PARAMS || r == MCP_METHOD_NOT_FOUND);
		}
	}
	if (code == 0 && msg.method && strcmp(msg.method, "tools/call") == 0) {
		enum mcp_tool tool;
		struct act_req rq;
		uint64_t wait_ms;
		int r = mcp_tool_args(msg.params, &tool, &rq, &wait_ms, &err);
		if (r == 0 && (tool == MCP_TOOL_COMPUTER || tool == MCP_TOOL_COMPUTER_ACTIONS)) {
			check_plan(tool, json_object_get(msg.params, "arguments"));
		} else if (r == 0) {
			assert(tool < MCP_TOOL_COUNT);
			assert(rq.x <= ACT_COORD_MAX && rq.y <= ACT_COORD_MAX);
			assert(rq.amount >= 1 && rq.amount <= ACT_SCROLL_MAX);
			assert(rq.n_keys <= ACT_KEYS_MAX);
			assert(rq.delay_ms <= ACT_DELAY_MAX_MS);
			size_t n, bad;
			assert(!rq.text || (rq.text_len <= ACT_TEXT_MAX &&
					    utf8_validate(rq.text, rq.text_len, &n, &bad) == 0));
		}
		/* A batch's steps pass their checks only as 1 to BATCH_STEPS_MAX steps. */
		json_t *steps = json_object_get(json_object_get(msg.params, "arguments"), "steps");
		json_t *tools = steps ? mcp_tools_list() : NULL;
		if (tools && batch_check(steps, tools, &err) == 0) {
			assert(json_array_size(steps) >= 1 &&
			       json_array_size(steps) <= BATCH_STEPS_MAX);
		}
		json_decref(tools);
	}
	mcp_msg_free(&msg);
	return 0;
}
