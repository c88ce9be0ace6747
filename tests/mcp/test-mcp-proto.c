/* The MCP server's wire side without a desktop: JSON-RPC checks and their codes, the tools'
 * argument checks, version negotiation and the responses' shape. */
#include "../unit.h"

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
	assert_int_equal(tool, MCP_TOOL_CLICK);
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
	static const char *const invalid[] = {
		"{}",
		"{\"name\":\"teleport\"}",
		"{\"name\":\"click\",\"arguments\":[]}",
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
		assert_int_equal(call(invalid[i], &tool, &rq, &err, &p), MCP_INVALID_PARAMS);
		assert_true(err.msg[0] != '\0');
		json_decref(p);
	}
	static const char scroll0[] = "{\"name\":\"scroll\",\"arguments\":{\"x\":1,\"y\":1,"
				      "\"direction\":\"up\",\"amount\":0}}";
	assert_int_equal(call(scroll0, &tool, &rq, &err, &p), MCP_INVALID_PARAMS);
	json_decref(p);
	/* Allowed by the schema, refused by the action: a tool error, not a protocol one. */
	assert_int_equal(call("{\"name\":\"type\",\"arguments\":{\"text\":\"a\\u0007\"}}", &tool,
			      &rq, &err, &p),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "control character"));
	json_decref(p);
}

static void test_responses(void **state)
{
	json_t *r = mcp_initialize_result("2024-11-05", "1.0");
	assert_string_equal(json_string_value(json_object_get(r, "protocolVersion")), "2024-11-05");
	json_decref(r);
	r = mcp_initialize_result("2099-01-01", "1.0");
	assert_string_equal(json_string_value(json_object_get(r, "protocolVersion")),
			    MCP_PROTOCOL_VERSION);
	json_decref(r);
	json_t *tools = mcp_tools_list();
	assert_non_null(tools);
	assert_int_equal(json_array_size(json_object_get(tools, "tools")), MCP_TOOL_COUNT);
	json_decref(tools);
	json_t *id = json_integer(3);
	char *line = mcp_error_line(id, MCP_METHOD_NOT_FOUND, "nope");
	assert_string_equal(line, "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,"
				  "\"message\":\"nope\"}}\n");
	free(line);
	line = mcp_error_line(NULL, MCP_PARSE_ERROR, "x");
	assert_non_null(strstr(line, "\"id\":null"));
	free(line);
	static const unsigned char png[] = {0x89, 'P', 'N', 'G'};
	line = mcp_result_line(
		id, mcp_tool_result(json_pack("[o]", mcp_image(png, 4, "image/png")), false));
	assert_non_null(strstr(line, "\"data\":\"iVBORw==\""));
	assert_non_null(strstr(line, "\"isError\":false"));
	free(line);
	json_decref(id);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_tool_args),
		cmocka_unit_test(test_responses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
