/* The tools (mcp-proto.h): the list a client is given, and a tools/call's tool and arguments. */
#include "mcp-proto.h"

#include "acttable.h"
#include "lease.h"
#include "mcp-args.h"
#include "util.h"

/* The server's own tools; the desktop's actions are the vocabulary's (act/acttable.c). */
static const struct {
	const char *name;
	const char *const *args;
	const char *json;
} own_tools[] = {
	[MCP_TOOL_STATUS] =
		{"status", (const char *const[]){NULL},
		 "{\"name\":\"status\",\"description\":\"Whether the desktop runs, its display, size, memory and idle time.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}}"},
	[MCP_TOOL_START] =
		{"start", (const char *const[]){"wait", NULL},
		 "{\"name\":\"start\",\"description\":\"Starts the desktop unless it runs (idempotent) and returns its status.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"wait\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":3600,\"description\":\"seconds, default 30\"}},\"additionalProperties\":false}}"},
	[MCP_TOOL_LEASE] =
		{"lease", (const char *const[]){NULL},
		 "{\"name\":\"lease\",\"description\":\"Who controls the desktop: the agent, or a human (then every action is refused until they hand it back).\",\"inputSchema\":{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}}"},
	[MCP_TOOL_BATCH] =
		{"batch", (const char *const[]){"steps", NULL},
		 "{\"name\":\"batch\",\"description\":\"Runs several of this server's tools in one call, in order, each step with the arguments it takes alone (e.g. [{\\\"tool\\\":\\\"click\\\",\\\"arguments\\\":{\\\"x\\\":10,\\\"y\\\":20}},{\\\"tool\\\":\\\"type\\\",\\\"arguments\\\":{\\\"text\\\":\\\"hi\\\"}}]). Stops at the first step that fails, and at once when a human takes the desktop, with nothing more sent. The result is each step's result (the pictures follow it), and which step stopped and why.\","
		 "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"steps\":{\"type\":\"array\",\"minItems\":1,\"maxItems\":64,\"items\":{\"type\":\"object\",\"properties\":{\"tool\":{\"type\":\"string\",\"description\":\"a tool of this server other than batch\"},\"arguments\":{\"type\":\"object\",\"description\":\"the tool's arguments\"}},\"required\":[\"tool\"],\"additionalProperties\":false}}},\"required\":[\"steps\"],\"additionalProperties\":false}}"},
	/* The models' own vocabularies, as they emit them (mcp-computer.h; docs/mcp.md). */
	[MCP_TOOL_COMPUTER] = {"computer",
			       (const char *const[]){"action", "coordinate", "start_coordinate",
						     "text", "scroll_direction", "scroll_amount",
						     "duration", "region", "repeat", NULL},
			       "{\"name\":\"computer\",\"description\":\"Anthropic's computer tool (computer_20250124, computer_20251124) taken as the model emits it: coordinates in the default screenshot's pixels, text in xdotool's key syntax (and the modifiers held on a click, drag or scroll). Answers a screenshot or zoom with the picture, cursor_position with X=..,Y=.., the other actions with what was done.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"action\":{\"type\":\"string\",\"enum\":[\"key\",\"hold_key\",\"type\",\"cursor_position\",\"mouse_move\",\"left_mouse_down\",\"left_mouse_up\",\"left_click\",\"left_click_drag\",\"right_click\",\"middle_click\",\"double_click\",\"triple_click\",\"scroll\",\"wait\",\"screenshot\",\"zoom\"]},\"coordinate\":{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"minimum\":0},\"minItems\":2,\"maxItems\":2},\"start_coordinate\":{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"minimum\":0},\"minItems\":2,\"maxItems\":2},\"text\":{\"type\":\"string\"},\"scroll_direction\":{\"type\":\"string\",\"enum\":[\"up\",\"down\",\"left\",\"right\"]},\"scroll_amount\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":100},\"duration\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":300},\"region\":{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"minimum\":0},\"minItems\":4,\"maxItems\":4},\"repeat\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100}},\"required\":[\"action\"],\"additionalProperties\":false}}"},
	[MCP_TOOL_COMPUTER_ACTIONS] =
		{"computer_actions", (const char *const[]){"actions", "action", NULL},
		 "{\"name\":\"computer_actions\",\"description\":\"OpenAI's computer-use actions taken as the model emits them (click, double_click, drag, keypress, move, screenshot, scroll, type, wait), run in order, stopping at the first failure or when a human takes the desktop; answered with one screenshot after the last. Coordinates in the default screenshot's pixels.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"actions\":{\"type\":\"array\",\"maxItems\":32,\"items\":{\"type\":\"object\",\"properties\":{\"type\":{\"type\":\"string\",\"enum\":[\"click\",\"double_click\",\"drag\",\"keypress\",\"move\",\"screenshot\",\"scroll\",\"type\",\"wait\"]}},\"required\":[\"type\"]}},\"action\":{\"type\":\"object\",\"description\":\"one action, as computer_use_preview sends it\"}},\"additionalProperties\":false}}"},
	[MCP_TOOL_ASK] =
		{"ask_human", (const char *const[]){"reason", NULL},
		 "{\"name\":\"ask_human\",\"description\":\"Asks for a human's help (a login, a CAPTCHA, a decision): the request shows in the lease and in the browser viewer's bar until a human takes the desktop. Then every action is refused until they hand it back; call lease to see.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"reason\":{\"type\":\"string\",\"maxLength\":200,\"description\":\"what the human should do, one line\"}},\"additionalProperties\":false}}"},
};

static int append_tool(json_t *tools, const char *text)
{
	json_t *t = json_loads(text, 0, NULL);
	return t ? json_array_append_new(tools, t) : -1;
}

json_t *mcp_tools_list(void)
{
	json_t *tools = json_array();
	int r = tools ? 0 : -1;
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(act_actions); i++) {
		if (act_actions[i].mcp_json) {
			r = append_tool(tools, act_actions[i].mcp_json);
		}
	}
	for (size_t i = MCP_TOOL_STATUS; r == 0 && i < ARRAY_SIZE(own_tools); i++) {
		r = append_tool(tools, own_tools[i].json);
	}
	if (r < 0) {
		json_decref(tools);
		return NULL;
	}
	return json_pack("{s:o}", "tools", tools);
}

/* The tool params name: a desktop action's row, else one of the server's own tools. */
static int find_tool(json_t *params, enum mcp_tool *ret_tool, const struct act_action **ret_action,
		     const char *const **ret_known, struct error *err)
{
	json_t *name = params ? json_object_get(params, "name") : NULL;
	if (!json_is_string(name)) {
		return error_set(err, MCP_INVALID_PARAMS,
				 "invalid params: tools/call needs a tool 'name'");
	}
	const struct act_action *action = act_action_by_tool(json_string_value(name));
	*ret_action = action;
	if (action) {
		*ret_tool = MCP_TOOL_ACTION;
		*ret_known = action->mcp_args;
		return 0;
	}
	for (size_t i = MCP_TOOL_STATUS; i < ARRAY_SIZE(own_tools); i++) {
		if (streq(json_string_value(name), own_tools[i].name)) {
			*ret_tool = (enum mcp_tool)i;
			*ret_known = own_tools[i].args;
			return 0;
		}
	}
	return error_set(err, MCP_INVALID_PARAMS, "unknown tool '%s'", json_string_value(name));
}

int mcp_tool_args(json_t *params, enum mcp_tool *ret_tool, struct act_req *rq,
		  uint64_t *ret_wait_ms, struct error *err)
{
	const struct act_action *action = NULL;
	const char *const *known = NULL;
	int r = find_tool(params, ret_tool, &action, &known, err);
	if (r) {
		return r;
	}
	json_t *a = json_object_get(params, "arguments");
	_cleanup_(json_decrefp) json_t *empty = NULL;
	if (!a) {
		a = empty = json_object();
	} else if (!json_is_object(a)) {
		return error_set(err, MCP_INVALID_PARAMS,
				 "invalid params: 'arguments' must be an object");
	}
	act_req_init(rq, action ? (enum act_cmd)(action - act_actions) : ACT_CURSOR);
	*ret_wait_ms = 30000;
	r = args_known_only(a, known, err);
	if (r == 0 && action) {
		r = args_action(a, rq, err);
	} else if (r == 0 && *ret_tool == MCP_TOOL_START) {
		r = args_seconds(a, "wait", 3600 * 1000, ret_wait_ms, err);
	} else if (r == 0 && *ret_tool == MCP_TOOL_ASK) {
		json_t *reason;
		r = args_member(a, "reason", JSON_STRING, false, &reason, err);
		if (r == 0 && reason && !lease_reason_valid(json_string_value(reason))) {
			r = error_set(
				err, -EINVAL,
				"invalid arguments: 'reason' must be one line of at most %d bytes",
				LEASE_REASON_MAX);
		}
		rq->text = r == 0 && reason ? json_string_value(reason) : NULL;
	}
	return r;
}
