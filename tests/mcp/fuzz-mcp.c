/* The MCP request parser under libFuzzer: any bytes as one request line, through the JSON-RPC
 * checks and, for tools/call, the tool's argument checks into an action request. Neither may
 * crash, leak or read out of bounds, whatever the input; a request that passes must be one the
 * actions can take (coordinates and counts in their bounds, text printable UTF-8). */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "../helper/fuzz.h"
#include "mcp-proto.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct error err = {{0}};
	struct mcp_msg msg;
	int code = mcp_parse((const char *)data, size, &msg, &err);
	if (code == 0 && msg.method && strcmp(msg.method, "tools/call") == 0) {
		enum mcp_tool tool;
		struct act_req rq;
		uint64_t wait_ms;
		if (mcp_tool_args(msg.params, &tool, &rq, &wait_ms, &err) == 0) {
			assert(tool < MCP_TOOL_COUNT);
			assert(rq.x <= ACT_COORD_MAX && rq.y <= ACT_COORD_MAX);
			assert(rq.amount >= 1 && rq.amount <= ACT_SCROLL_MAX);
			assert(rq.n_keys <= ACT_KEYS_MAX);
			assert(rq.delay_ms <= ACT_DELAY_MAX_MS);
			size_t n, bad;
			assert(!rq.text || (rq.text_len <= ACT_TEXT_MAX &&
					    utf8_validate(rq.text, rq.text_len, &n, &bad) == 0));
		}
	}
	mcp_msg_free(&msg);
	return 0;
}
