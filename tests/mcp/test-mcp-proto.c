/* The MCP server's wire side without a desktop: JSON-RPC checks and their codes, the tools'
 * argument checks, the two eras (routing, version negotiation) and the responses' shape, and the
 * models' vocabularies (Anthropic's computer input, OpenAI's actions) into action requests. */
#include "../unit.h"

#include "mcp-computer.h"
#include "mcp-era.h"
#include "mcp-proto.h"

static int parse(const char *line, struct mcp_msg *msg)
{
	struct error err = {{0}};
	return mcp_parse(line, strlen(line), msg, &err);
}

static void test_requests(void **state)
{
	struct mcp_msg msg;
	assert_int_equal(parse("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}", &msg), 0);
	assert_string_equal(msg.method, "ping");
	assert_int_equal(json_integer_value(msg.id), 7);
	mcp_msg_free(&msg);
	assert_int_equal(
		parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", &msg), 0);
	assert_null(msg.id);
	mcp_msg_free(&msg);
	static const struct {
		const char *line;
		int code;
	} bad[] = {
		{"{", MCP_PARSE_ERROR},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} x", MCP_PARSE_ERROR},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xff\"}", MCP_PARSE_ERROR},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}", MCP_PARSE_ERROR},
		{"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", MCP_INVALID_REQUEST},
		{"{\"id\":1,\"method\":\"ping\"}", MCP_INVALID_REQUEST},
		{"{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", MCP_INVALID_REQUEST},
		{"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", MCP_INVALID_REQUEST},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":3}", MCP_INVALID_REQUEST},
		{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[]}",
		 MCP_INVALID_REQUEST},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i].line, &msg), bad[i].code);
		mcp_msg_free(&msg);
	}
	/* The id of an invalid request is still answered when it could be read. */
	assert_int_equal(parse("{\"jsonrpc\":\"1.0\",\"id\":\"x\",\"method\":\"ping\"}", &msg),
			 MCP_INVALID_REQUEST);
	assert_string_equal(json_string_value(msg.id), "x");
	mcp_msg_free(&msg);
}

static int call(const char *params, enum mcp_tool *tool, struct act_req *rq, struct error *err,
		json_t **keep)
{
	*keep = json_loads(params, 0, NULL);
	assert_non_null(*keep);
	uint64_t wait_ms;
	*err = (struct error){{0}};
	return mcp_tool_args(*keep, tool, rq, &wait_ms, err);
}

static void test_tool_args(void **state)
{
	enum mcp_tool tool;
	struct act_req rq;
	struct error err;
	json_t *p;
	assert_int_equal(call("{\"name\":\"click\",\"arguments\":{\"x\":480,\"y\":300,\"from\":"
			      "\"960x600\",\"button\":\"middle\",\"double\":true}}",
			      &tool, &rq, &err, &p),
			 0);
	assert_int_equal(tool, MCP_TOOL_ACTION);
	assert_int_equal(rq.cmd, ACT_CLICK);
	assert_int_equal(rq.from_w, 960);
	assert_int_equal(rq.button, 2);
	assert_true(rq.dbl);
	json_decref(p);
	assert_int_equal(call("{\"name\":\"key\",\"arguments\":{\"keys\":[\"ctrl+l\",\"Return\"],"
			      "\"mode\":\"release\"}}",
			      &tool, &rq, &err, &p),
			 0);
	assert_int_equal(rq.n_keys, 2);
	assert_string_equal(rq.keys[1], "Return");
	assert_int_equal(rq.key_mode, ACT_KEY_RELEASE);
	json_decref(p);
	assert_int_equal(call("{\"name\":\"wait\",\"arguments\":{\"for\":\"change\",\"timeout\":"
			      "0.5}}",
			      &tool, &rq, &err, &p),
			 0);
	assert_int_equal(rq.cmd, ACT_WAIT_CHANGE);
	assert_int_equal(rq.timeout_ms, 500);
	json_decref(p);
	assert_int_equal(call("{\"name\":\"type\",\"arguments\":{\"text\":\"\\u20ac\\ud83d\\ude00"
			      "\"}}",
			      &tool, &rq, &err, &p),
			 0);
	assert_int_equal(rq.text_len, 7);
	json_decref(p);
	/* The desktop's objects. */
	assert_int_equal(
		call("{\"name\":\"clipboard_set\",\"arguments\":{\"text\":\"ab\\n\\ud83d\\ude00\",\"primary\":true}}",
		     &tool, &rq, &err, &p),
		0);
	assert_int_equal(rq.cmd, ACT_CLIPBOARD_SET);
	assert_int_equal(rq.text_len, 7);
	assert_true(rq.primary);
	json_decref(p);
	assert_int_equal(call("{\"name\":\"clipboard_get\"}", &tool, &rq, &err, &p), 0);
	assert_int_equal(rq.cmd, ACT_CLIPBOARD_GET);
	json_decref(p);
	assert_int_equal(
		call("{\"name\":\"window\",\"arguments\":{\"action\":\"move\",\"id\":\"0x1a00007\",\"x\":-3,\"y\":4}}",
		     &tool, &rq, &err, &p),
		0);
	assert_int_equal(rq.cmd, ACT_WINDOW);
	assert_int_equal(rq.win_id, 0x1a00007);
	assert_int_equal(rq.win_x, -3);
	json_decref(p);
	assert_int_equal(
		call("{\"name\":\"window\",\"arguments\":{\"action\":\"resize\",\"id\":\"12\"}}",
		     &tool, &rq, &err, &p),
		-EINVAL);
	assert_non_null(strstr(err.msg, "'width' is required"));
	json_decref(p);
	assert_int_equal(
		call("{\"name\":\"window\",\"arguments\":{\"action\":\"close\",\"id\":\"0xzz\"}}",
		     &tool, &rq, &err, &p),
		-EINVAL);
	json_decref(p);
	/* No tool to call: a protocol error. */
	static const char *const unknown[] = {
		"{}",
		"{\"name\":\"teleport\"}",
		"{\"name\":\"click\",\"arguments\":[]}",
	};
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		assert_int_equal(call(unknown[i], &tool, &rq, &err, &p), MCP_INVALID_PARAMS);
		assert_true(err.msg[0] != '\0');
		json_decref(p);
	}
	/* Arguments the tool refuses: a tool error, which the model reads (2025-11-25 on). */
	static const char *const invalid[] = {
		"{\"name\":\"click\",\"arguments\":{\"x\":1}}",
		"{\"name\":\"click\",\"arguments\":{\"x\":1,\"y\":-1}}",
		"{\"name\":\"click\",\"arguments\":{\"x\":1,\"y\":65536}}",
		"{\"name\":\"click\",\"arguments\":{\"x\":1.5,\"y\":1}}",
		"{\"name\":\"click\",\"arguments\":{\"x\":1,\"y\":1,\"button\":\"up\"}}",
		"{\"name\":\"click\",\"arguments\":{\"x\":1,\"y\":1,\"from\":\"960\"}}",
		"{\"name\":\"click\",\"arguments\":{\"x\":1,\"y\":1,\"speed\":1}}",
		"{\"name\":\"scroll\",\"arguments\":{\"x\":1,\"y\":1}}",
		"{\"name\":\"key\",\"arguments\":{\"keys\":[]}}",
		"{\"name\":\"key\",\"arguments\":{\"keys\":[1]}}",
		"{\"name\":\"type\",\"arguments\":{}}",
		"{\"name\":\"type\",\"arguments\":{\"text\":\"a\",\"delay_ms\":5000}}",
		"{\"name\":\"screenshot\",\"arguments\":{\"region\":[0,0,0,1]}}",
		"{\"name\":\"screenshot\",\"arguments\":{\"format\":\"gif\"}}",
		"{\"name\":\"wait\",\"arguments\":{\"for\":\"idle\",\"timeout\":0}}",
		"{\"name\":\"start\",\"arguments\":{\"wait\":99999}}",
	};
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		assert_int_equal(call(invalid[i], &tool, &rq, &err, &p), -EINVAL);
		assert_non_null(strstr(err.msg, "invalid arguments: "));
		json_decref(p);
	}
	static const char scroll0[] = "{\"name\":\"scroll\",\"arguments\":{\"x\":1,\"y\":1,"
				      "\"direction\":\"up\",\"amount\":0}}";
	assert_int_equal(call(scroll0, &tool, &rq, &err, &p), -EINVAL);
	assert_non_null(strstr(err.msg, "'amount' must be from 1 to 100, not 0"));
	json_decref(p);
	/* Allowed by the schema, refused by the action: a tool error too. */
	assert_int_equal(call("{\"name\":\"type\",\"arguments\":{\"text\":\"a\\u0007\"}}", &tool,
			      &rq, &err, &p),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "control character"));
	json_decref(p);
}

static struct mcp_plan plan;

static int anthropic(const char *json, struct error *err)
{
	json_t *a = json_loads(json, 0, NULL);
	assert_non_null(a);
	*err = (struct error){{0}};
	int r = mcp_computer_plan(a, &plan, err);
	/* The plan points into the arguments: they live as long as the test needs. */
	static json_t *keep[64];
	static size_t n;
	json_decref(keep[n % 64]);
	keep[n++ % 64] = a;
	return r;
}

static int openai(const char *json, struct error *err)
{
	json_t *a = json_loads(json, 0, NULL);
	assert_non_null(a);
	*err = (struct error){{0}};
	int r = mcp_computer_actions_plan(a, &plan, err);
	static json_t *keep[64];
	static size_t n;
	json_decref(keep[n % 64]);
	keep[n++ % 64] = a;
	return r;
}

/* Anthropic's computer_20250124 / computer_20251124 input, as the model emits it. */
static void test_anthropic(void **state)
{
	struct error err;
	assert_int_equal(anthropic("{\"action\":\"triple_click\",\"coordinate\":[10,20],"
				   "\"text\":\"shift\"}",
				   &err),
			 0);
	assert_int_equal(plan.n, 1);
	assert_int_equal(plan.steps[0].cmd, ACT_CLICK);
	assert_int_equal(plan.steps[0].clicks, 3);
	assert_int_equal(plan.steps[0].x, 10);
	assert_int_equal(plan.steps[0].y, 20);
	assert_string_equal(plan.steps[0].hold, "shift");
	assert_int_equal(plan.steps[0].from_w, 0); /* the model picture's space */
	assert_int_equal(plan.answer, MCP_ANSWER_TEXT);
	/* Without a coordinate: where the pointer is. */
	assert_int_equal(anthropic("{\"action\":\"right_click\"}", &err), 0);
	assert_true(plan.steps[0].at_pointer);
	assert_int_equal(plan.steps[0].button, 3);
	assert_int_equal(anthropic("{\"action\":\"double_click\",\"coordinate\":[1,2]}", &err), 0);
	assert_int_equal(plan.steps[0].clicks, 2);
	assert_int_equal(anthropic("{\"action\":\"middle_click\",\"coordinate\":[1,2]}", &err), 0);
	assert_int_equal(plan.steps[0].button, 2);
	assert_int_equal(anthropic("{\"action\":\"left_click_drag\",\"start_coordinate\":[1,2],"
				   "\"coordinate\":[30,40]}",
				   &err),
			 0);
	assert_int_equal(plan.steps[0].cmd, ACT_DRAG);
	assert_int_equal(plan.steps[0].x2, 30);
	assert_false(plan.steps[0].at_pointer);
	assert_int_equal(anthropic("{\"action\":\"left_click_drag\",\"coordinate\":[30,40]}", &err),
			 0);
	assert_true(plan.steps[0].at_pointer);
	assert_int_equal(anthropic("{\"action\":\"left_mouse_down\"}", &err), 0);
	assert_int_equal(plan.steps[0].cmd, ACT_MOUSE_DOWN);
	assert_int_equal(anthropic("{\"action\":\"left_mouse_up\",\"coordinate\":[5,6]}", &err), 0);
	assert_int_equal(plan.steps[0].cmd, ACT_MOUSE_UP);
	assert_int_equal(anthropic("{\"action\":\"mouse_move\"}", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'coordinate' [x, y] is required"));
	/* xdotool's key syntax, combos separated by spaces, repeated. */
	assert_int_equal(
		anthropic("{\"action\":\"key\",\"text\":\"ctrl+a Delete\",\"repeat\":2}", &err), 0);
	assert_int_equal(plan.n, 1);
	assert_int_equal(plan.steps[0].n_keys, 4);
	assert_string_equal(plan.steps[0].keys[0], "ctrl+a");
	assert_string_equal(plan.steps[0].keys[3], "Delete");
	assert_int_equal(anthropic("{\"action\":\"key\",\"text\":\"a\",\"repeat\":100}", &err), 0);
	assert_int_equal(plan.n, 2); /* 64 combos a step */
	assert_int_equal(
		anthropic("{\"action\":\"hold_key\",\"text\":\"shift\",\"duration\":1}", &err), 0);
	assert_int_equal(plan.steps[0].hold_ms, 1000);
	assert_int_equal(anthropic("{\"action\":\"hold_key\",\"text\":\"shift\"}", &err), -EINVAL);
	assert_int_equal(
		anthropic("{\"action\":\"hold_key\",\"text\":\"a b\",\"duration\":1}", &err),
		-EINVAL);
	assert_int_equal(anthropic("{\"action\":\"type\",\"text\":\"hi\\n\"}", &err), 0);
	assert_int_equal(plan.steps[0].cmd, ACT_TYPE);
	assert_int_equal(anthropic("{\"action\":\"scroll\",\"coordinate\":[5,5],"
				   "\"scroll_direction\":\"left\",\"scroll_amount\":3,"
				   "\"text\":\"ctrl\"}",
				   &err),
			 0);
	assert_int_equal(plan.steps[0].dir, ACT_SCROLL_LEFT);
	assert_int_equal(plan.steps[0].amount, 3);
	assert_string_equal(plan.steps[0].hold, "ctrl");
	assert_int_equal(anthropic("{\"action\":\"scroll\",\"scroll_direction\":\"sideways\","
				   "\"scroll_amount\":3}",
				   &err),
			 -EINVAL);
	assert_int_equal(anthropic("{\"action\":\"wait\",\"duration\":0.5}", &err), 0);
	assert_int_equal(plan.steps[0].cmd, ACT_WAIT);
	assert_int_equal(plan.steps[0].timeout_ms, 500);
	assert_int_equal(anthropic("{\"action\":\"wait\",\"duration\":301}", &err), -EINVAL);
	assert_int_equal(anthropic("{\"action\":\"screenshot\"}", &err), 0);
	assert_int_equal(plan.answer, MCP_ANSWER_PICTURE);
	assert_int_equal(anthropic("{\"action\":\"cursor_position\"}", &err), 0);
	assert_int_equal(plan.answer, MCP_ANSWER_CURSOR);
	/* zoom: [x0, y0, x1, y1] into a region [x, y, w, h]. */
	assert_int_equal(anthropic("{\"action\":\"zoom\",\"region\":[10,20,110,70]}", &err), 0);
	assert_true(plan.zoom);
	assert_true(plan.steps[0].region);
	assert_int_equal(plan.steps[0].rw, 100);
	assert_int_equal(plan.steps[0].rh, 50);
	assert_int_equal(anthropic("{\"action\":\"zoom\",\"region\":[10,20,5,70]}", &err), -EINVAL);
	assert_int_equal(anthropic("{\"action\":\"teleport\"}", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'action' must be one of"));
	assert_int_equal(anthropic("{\"action\":\"left_click\",\"coordinate\":[-1,2]}", &err),
			 -EINVAL);
}

/* OpenAI's actions list, as the model emits it. */
static void test_openai(void **state)
{
	struct error err;
	assert_int_equal(
		openai("{\"actions\":[{\"type\":\"click\",\"x\":10,\"y\":20,\"button\":\"wheel\","
		       "\"keys\":[\"CTRL\",\"SHIFT\"]},{\"type\":\"double_click\",\"x\":1,\"y\":2},"
		       "{\"type\":\"keypress\",\"keys\":[\"CTRL\",\"A\"]},{\"type\":\"type\","
		       "\"text\":\"hi\"},{\"type\":\"wait\"},{\"type\":\"screenshot\"},"
		       "{\"type\":\"move\",\"x\":3,\"y\":4},{\"type\":\"drag\",\"path\":[{\"x\":1,"
		       "\"y\":1},{\"x\":9,\"y\":1},{\"x\":9,\"y\":9}]},{\"type\":\"scroll\",\"x\":5,"
		       "\"y\":6,\"scroll_x\":-106,\"scroll_y\":300}]}",
		       &err),
		0);
	assert_int_equal(plan.items, 9);
	assert_int_equal(plan.n, 9); /* the screenshot is none; the scroll is two */
	assert_int_equal(plan.answer, MCP_ANSWER_SCREEN);
	assert_int_equal(plan.steps[0].button, 2);
	assert_string_equal(plan.steps[0].hold, "ctrl+shift");
	assert_int_equal(plan.steps[1].clicks, 2);
	assert_string_equal(plan.steps[2].keys[0], "ctrl+a");
	assert_int_equal(plan.steps[4].cmd, ACT_WAIT);
	assert_int_equal(plan.steps[5].cmd, ACT_MOVE);
	assert_int_equal(plan.item[5], 6);
	assert_int_equal(plan.steps[6].n_path, 3);
	assert_int_equal(plan.steps[6].x2, 9);
	/* scroll_y 300 px down: 6 steps of 53; scroll_x -106: 2 steps left. */
	assert_int_equal(plan.steps[7].dir, ACT_SCROLL_DOWN);
	assert_int_equal(plan.steps[7].amount, 6);
	assert_int_equal(plan.steps[8].dir, ACT_SCROLL_LEFT);
	assert_int_equal(plan.steps[8].amount, 2);
	assert_int_equal(plan.item[8], 8);
	assert_int_equal(openai("{\"action\":{\"type\":\"scroll\",\"x\":1,\"y\":1,\"scroll_x\":0,"
				"\"scroll_y\":-10}}",
				&err),
			 0);
	assert_int_equal(plan.steps[0].dir, ACT_SCROLL_UP);
	assert_int_equal(plan.steps[0].amount, 1);
	assert_int_equal(openai("{\"actions\":[{\"type\":\"click\",\"x\":1,\"y\":1,\"button\":"
				"\"back\"}]}",
				&err),
			 0);
	assert_int_equal(plan.steps[0].button, 8);
	assert_int_equal(openai("{\"actions\":[{\"type\":\"keypress\",\"keys\":[\"ARROWLEFT\"]},"
				"{\"type\":\"keypress\",\"keys\":[\"CMD\",\"+\"]}]}",
				&err),
			 0);
	assert_string_equal(plan.steps[0].keys[0], "Left");
	assert_string_equal(plan.steps[1].keys[0], "super+plus");
	assert_int_equal(openai("{\"actions\":[{\"type\":\"move\",\"x\":1,\"y\":1},{\"type\":"
				"\"fly\"}]}",
				&err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "action 2:"));
	assert_int_equal(
		openai("{\"actions\":[{\"type\":\"drag\",\"path\":[{\"x\":1,\"y\":1}]}]}", &err),
		-EINVAL);
	assert_int_equal(openai("{\"actions\":[{\"type\":\"click\",\"x\":1,\"y\":1}]}", &err),
			 -EINVAL);
	assert_int_equal(openai("{}", &err), -EINVAL);
}

/* tree, find and element (issue 27): read into the request as the command line would. */
static void test_a11y_args(void **state)
{
	enum mcp_tool tool;
	struct act_req rq;
	struct error err;
	json_t *p;
	assert_int_equal(call("{\"name\":\"tree\",\"arguments\":{\"window\":\"Form\",\"depth\":3}}",
			      &tool, &rq, &err, &p),
			 0);
	assert_int_equal(rq.cmd, ACT_TREE);
	assert_string_equal(rq.window, "Form");
	assert_int_equal(rq.depth, 3);
	assert_true(act_is_a11y(&rq));
	json_decref(p);
	assert_int_equal(
		call("{\"name\":\"find\",\"arguments\":{\"role\":\"button\",\"name\":\"Send\"}}",
		     &tool, &rq, &err, &p),
		0);
	assert_int_equal(rq.cmd, ACT_FIND);
	assert_string_equal(rq.role, "button");
	assert_string_equal(rq.name, "Send");
	json_decref(p);
	assert_int_equal(call("{\"name\":\"click\",\"arguments\":{\"element\":\"entry:Email\"}}",
			      &tool, &rq, &err, &p),
			 0);
	assert_string_equal(rq.element, "entry:Email");
	assert_true(act_is_a11y(&rq));
	json_decref(p);
	assert_int_equal(
		call("{\"name\":\"type\",\"arguments\":{\"text\":\"a\",\"element\":\"2.0.1\"}}",
		     &tool, &rq, &err, &p),
		0);
	assert_string_equal(rq.element, "2.0.1");
	json_decref(p);
	/* Refused as tool errors, naming the argument. */
	static const char *const bad[] = {
		"{\"name\":\"click\",\"arguments\":{\"element\":\"a:b\",\"x\":1,\"y\":2}}",
		"{\"name\":\"click\",\"arguments\":{\"element\":\"\"}}",
		"{\"name\":\"click\",\"arguments\":{\"element\":\"a\\nb\"}}",
		"{\"name\":\"click\",\"arguments\":{\"element\":3}}",
		"{\"name\":\"tree\",\"arguments\":{\"depth\":0}}",
		"{\"name\":\"tree\",\"arguments\":{\"role\":\"x\"}}",
		"{\"name\":\"find\",\"arguments\":{\"depth\":2}}",
		"{\"name\":\"key\",\"arguments\":{\"keys\":[\"a\"],\"element\":\"a:b\"}}",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_int_equal(call(bad[i], &tool, &rq, &err, &p), -EINVAL);
		json_decref(p);
	}
}

static void test_responses(void **state)
{
	json_t *tools = mcp_tools_list();
	assert_non_null(tools);
	assert_int_equal(json_array_size(json_object_get(tools, "tools")), 24);
	json_decref(tools);
	json_t *id = json_integer(3);
	char *line = mcp_error_line(id, MCP_METHOD_NOT_FOUND, "nope", NULL);
	assert_string_equal(line, "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,"
				  "\"message\":\"nope\"}}\n");
	free(line);
	line = mcp_error_line(NULL, MCP_PARSE_ERROR, "x", NULL);
	assert_non_null(strstr(line, "\"id\":null"));
	free(line);
	line = mcp_error_line(id, MCP_UNSUPPORTED_VERSION, "old",
			      mcp_unsupported_data("1999-01-01"));
	assert_string_equal(line, "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32022,"
				  "\"message\":\"old\",\"data\":{\"supported\":[\"2026-07-28\","
				  "\"2025-11-25\",\"2025-06-18\",\"2025-03-26\",\"2024-11-05\"],"
				  "\"requested\":\"1999-01-01\"}}}\n");
	free(line);
	static const unsigned char png[] = {0x89, 'P', 'N', 'G'};
	line = mcp_result_line(
		id, mcp_tool_result(json_pack("[o]", mcp_image(png, 4, "image/png")), false));
	assert_non_null(strstr(line, "\"data\":\"iVBORw==\""));
	assert_non_null(strstr(line, "\"isError\":false"));
	free(line);
	/* Images are spliced in after jansson wrote the rest: the line is exactly what jansson
	 * writes, for two images of every length mod 3 beside text that looks like a marker. */
	for (size_t n = 1; n <= 6; n++) {
		unsigned char data[6] = {0xff, 0x00, 0x7f, 0x80, 0xd8, 0x01};
		json_t *content = json_pack("[o,o,o]", mcp_image(data, n, "image/jpeg"),
					    mcp_text("bd-image-0000000000000000-0"),
					    mcp_image(data + 6 - n, n, "image/png"));
		json_t *res = mcp_tool_result(content, false);
		json_t *msg = json_pack("{s:s,s:O,s:O}", "jsonrpc", "2.0", "id", id, "result", res);
		char *want = json_dumps(msg, JSON_COMPACT);
		line = mcp_result_line(id, res);
		assert_non_null(line);
		assert_int_equal(strlen(line), strlen(want) + 1);
		assert_memory_equal(line, want, strlen(want));
		assert_int_equal(line[strlen(want)], '\n');
		free(line);
		free(want);
		json_decref(msg);
	}
	json_decref(id);
}

/* mcp_route of one request line: its code, and the route. */
static int route(const char *line, struct mcp_route *rt, struct error *err)
{
	struct mcp_msg msg;
	*err = (struct error){{0}};
	assert_int_equal(mcp_parse(line, strlen(line), &msg, err), 0);
	int r = mcp_route(&msg, rt, err);
	/* requested points into the message: read it before it goes. */
	static char requested[64];
	snprintf(requested, sizeof(requested), "%s", rt->requested ? rt->requested : "");
	rt->requested = requested;
	mcp_msg_free(&msg);
	return r;
}

#define REQ(method, params) "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" method "\"" params "}"
#define MODERN_META(version)                                                                   \
	",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" version "\"," \
	"\"io.modelcontextprotocol/clientCapabilities\":{}}}"

static void test_eras(void **state)
{
	struct mcp_route rt;
	struct error err;
	/* Legacy: the handshake and ping; a _meta without a revision stays legacy. */
	assert_int_equal(
		route(REQ("initialize", ",\"params\":{\"protocolVersion\":\"2025-06-18\"}"), &rt,
		      &err),
		0);
	assert_int_equal(rt.era, MCP_LEGACY);
	assert_int_equal(rt.method, MCP_INITIALIZE);
	assert_int_equal(route(REQ("ping", ""), &rt, &err), 0);
	assert_int_equal(rt.method, MCP_PING);
	assert_int_equal(route(REQ("tools/call", ",\"params\":{\"_meta\":{\"progressToken\":1}}"),
			       &rt, &err),
			 0);
	assert_int_equal(rt.era, MCP_LEGACY);
	assert_int_equal(rt.method, MCP_TOOLS_CALL);
	/* server/discover is modern only: without its _meta it is refused, naming what it
	 * needs. */
	assert_int_equal(route(REQ("server/discover", ""), &rt, &err), MCP_INVALID_PARAMS);
	assert_non_null(strstr(err.msg, "2026-07-28"));
	assert_int_equal(route(REQ("resources/list", ""), &rt, &err), MCP_METHOD_NOT_FOUND);

	/* Modern: discover, tools; the handshake and ping are gone. */
	assert_int_equal(route(REQ("server/discover", MODERN_META("2026-07-28")), &rt, &err), 0);
	assert_int_equal(rt.era, MCP_MODERN);
	assert_int_equal(rt.method, MCP_DISCOVER);
	assert_int_equal(route(REQ("tools/list", MODERN_META("2026-07-28")), &rt, &err), 0);
	assert_int_equal(rt.method, MCP_TOOLS_LIST);
	assert_int_equal(route(REQ("ping", MODERN_META("2026-07-28")), &rt, &err),
			 MCP_METHOD_NOT_FOUND);
	assert_non_null(strstr(err.msg, "ping is not part of revision 2026-07-28"));
	assert_int_equal(route(REQ("initialize", MODERN_META("2026-07-28")), &rt, &err),
			 MCP_METHOD_NOT_FOUND);
	/* A revision named per request that is not 2026-07-28, a legacy one included. */
	assert_int_equal(route(REQ("tools/list", MODERN_META("2099-01-01")), &rt, &err),
			 MCP_UNSUPPORTED_VERSION);
	assert_string_equal(rt.requested, "2099-01-01");
	assert_int_equal(route(REQ("tools/list", MODERN_META("2025-11-25")), &rt, &err),
			 MCP_UNSUPPORTED_VERSION);
	assert_non_null(strstr(err.msg, "negotiated with initialize"));
	/* The _meta a modern request must carry. */
	assert_int_equal(
		route(REQ("tools/list",
			  ",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}"),
		      &rt, &err),
		MCP_INVALID_PARAMS);
	assert_non_null(strstr(err.msg, "clientCapabilities"));
	assert_int_equal(
		route(REQ("tools/list",
			  ",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":7}}"),
		      &rt, &err),
		MCP_INVALID_PARAMS);
}

static void test_era_results(void **state)
{
	/* initialize answers a legacy revision it speaks as asked, anything else (2026-07-28,
	 * which has no initialize, among them) with the newest legacy one. */
	static const struct {
		const char *asked, *answer;
	} nego[] = {
		{"2024-11-05", "2024-11-05"},       {"2025-11-25", "2025-11-25"},
		{"2026-07-28", MCP_LEGACY_VERSION}, {"2099-01-01", MCP_LEGACY_VERSION},
		{NULL, MCP_LEGACY_VERSION},
	};
	for (size_t i = 0; i < sizeof(nego) / sizeof(nego[0]); i++) {
		json_t *r = mcp_initialize_result(nego[i].asked, "1.0");
		assert_string_equal(json_string_value(json_object_get(r, "protocolVersion")),
				    nego[i].answer);
		assert_string_equal(json_string_value(json_object_get(
					    json_object_get(r, "serverInfo"), "name")),
				    "botdesk");
		json_decref(r);
	}
	/* A legacy result is as it was; a modern one says it is complete and names the server. */
	json_t *r = mcp_era_result(json_object(), MCP_LEGACY, "1.0");
	assert_int_equal(json_object_size(r), 0);
	json_decref(r);
	r = mcp_era_result(mcp_era_tools_list(MCP_MODERN), MCP_MODERN, "1.0");
	assert_string_equal(json_string_value(json_object_get(r, "resultType")), "complete");
	assert_true(json_integer_value(json_object_get(r, "ttlMs")) > 0);
	assert_string_equal(json_string_value(json_object_get(r, "cacheScope")), "public");
	assert_int_equal(json_array_size(json_object_get(r, "tools")), 24);
	json_t *info =
		json_object_get(json_object_get(r, "_meta"), "io.modelcontextprotocol/serverInfo");
	assert_string_equal(json_string_value(json_object_get(info, "version")), "1.0");
	json_decref(r);
	r = mcp_era_tools_list(MCP_LEGACY);
	assert_null(json_object_get(r, "ttlMs"));
	json_decref(r);
	r = mcp_discover_result("1.0");
	json_t *v = json_object_get(r, "supportedVersions");
	assert_string_equal(json_string_value(json_array_get(v, 0)), MCP_MODERN_VERSION);
	assert_int_equal(json_array_size(v), 5);
	assert_true(json_is_object(json_object_get(json_object_get(r, "capabilities"), "tools")));
	assert_true(json_is_string(json_object_get(r, "instructions")));
	assert_true(json_integer_value(json_object_get(r, "ttlMs")) > 0);
	json_decref(r);
	assert_null(mcp_era_result(NULL, MCP_MODERN, "1.0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requests),    cmocka_unit_test(test_tool_args),
		cmocka_unit_test(test_responses),   cmocka_unit_test(test_eras),
		cmocka_unit_test(test_era_results), cmocka_unit_test(test_anthropic),
		cmocka_unit_test(test_openai),      cmocka_unit_test(test_a11y_args),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
