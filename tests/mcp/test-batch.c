/* Batches without a desktop (mcp/batch.h): the steps' checks before anything runs, the order of
 * the calls, the stop at the first failure, the stop for a human before a step and during one
 * (nothing called after it), the result's shape for MCP and for the CLI, images included. The
 * tool calls and the lease are a stand-in that records what it was asked. */
#include "../unit.h"

#include "batch.h"
#include "mcp-proto.h"

struct fake {
	char called[16][32];
	json_t *args[16];
	size_t n_called, n_checks;
	size_t fail_at;  /* the call (1-based) that fails, 0: none */
	size_t human_at; /* the check (1-based) from which the lease is a human's, 0: never */
	size_t taken_in; /* the call (1-based) during which a human takes, 0: none */
	bool with_image; /* screenshot answers with a picture */
};

static json_t *fake_call(void *ctx, json_t *params, int *code, struct error *err)
{
	struct fake *f = ctx;
	(void)err;
	*code = 0;
	size_t no = ++f->n_called;
	snprintf(f->called[no - 1], sizeof(f->called[0]), "%s",
		 json_string_value(json_object_get(params, "name")));
	f->args[no - 1] = json_incref(json_object_get(params, "arguments"));
	if (no == f->taken_in) {
		f->human_at = f->n_checks + 1;
		return mcp_tool_result(json_pack("[o]", mcp_text("stopped: a human took it")),
				       true);
	}
	if (no == f->fail_at) {
		return mcp_tool_result(json_pack("[o]", mcp_text("off the screen")), true);
	}
	if (f->with_image && streq(f->called[no - 1], "screenshot")) {
		static const unsigned char png[] = {0x89, 'P', 'N', 'G'};
		return mcp_tool_result(json_pack("[o,o]", mcp_image(png, 4, "image/png"),
						 mcp_text("{\"width\":4}")),
				       false);
	}
	if (streq(f->called[no - 1], "status")) {
		return mcp_tool_result(json_pack("[o]", mcp_text("not json")), false);
	}
	return mcp_tool_result(json_pack("[o]", mcp_text("{\"x\":1}")), false);
}

static int fake_check(void *ctx, struct error *err)
{
	struct fake *f = ctx;
	f->n_checks++;
	if (f->human_at && f->n_checks >= f->human_at) {
		return error_set(err, -EACCES, "a human holds the desktop");
	}
	return 0;
}

static void fake_free(struct fake *f)
{
	for (size_t i = 0; i < f->n_called; i++) {
		json_decref(f->args[i]);
	}
}

static json_t *steps_of(const char *text)
{
	json_t *s = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	assert_non_null(s);
	return s;
}

static int check(const char *text, struct error *err)
{
	json_t *tools = mcp_tools_list(), *s = steps_of(text);
	assert_non_null(tools);
	*err = (struct error){{0}};
	int r = batch_check(s, tools, err);
	json_decref(s);
	json_decref(tools);
	return r;
}

static void test_check(void **state)
{
	(void)state;
	struct error err;
	static const struct {
		const char *steps, *says;
	} bad[] = {
		{"{\"tool\":\"click\"}", "a batch is a JSON array"},
		{"[]", "1 to 64 steps, not 0"},
		{"[1]", "step 1 is not an object"},
		{"[{\"tool\":\"cursor\"},{\"tool\":\"cursor\",\"args\":{}}]",
		 "step 2 has a member 'args'"},
		{"[{\"arguments\":{}}]", "step 1 has no 'tool'"},
		{"[{\"tool\":7}]", "step 1 has no 'tool'"},
		{"[{\"tool\":\"batch\",\"arguments\":{\"steps\":[]}}]", "step 1 is a batch"},
		{"[{\"tool\":\"teleport\"}]", "no tool of this server: 'teleport'"},
		{"[{\"tool\":\"cursor\",\"arguments\":[]}]",
		 "step 1: 'arguments' must be an object"},
		{"[{\"tool\":\"cursor\"},{\"tool\":\"click\",\"arguments\":{\"x\":1}}]",
		 "step 2 (click): invalid arguments: 'y' is required"},
		{"[{\"tool\":\"type\",\"arguments\":{\"text\":\"a\\u0007\"}}]",
		 "control character"},
		{"[{\"tool\":\"click\",\"arguments\":{\"x\":1,\"y\":1,\"z\":1}}]", "takes no 'z'"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(check(bad[i].steps, &err), -EINVAL);
		if (!strstr(err.msg, bad[i].says)) {
			fail_msg("%s: '%s' does not say '%s'", bad[i].steps, err.msg, bad[i].says);
		}
	}
	/* 64 steps pass, 65 do not. */
	char many[65 * 20 + 8] = "[{\"tool\":\"cursor\"}";
	for (int i = 1; i < 64; i++) {
		strcat(many, ",{\"tool\":\"cursor\"}");
	}
	assert_int_equal(check(strcat(many, "]"), &err), 0);
	strcpy(many + strlen(many) - 1, ",{\"tool\":\"cursor\"}]");
	assert_int_equal(check(many, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "not 65"));
	assert_int_equal(
		check("[{\"tool\":\"click\",\"arguments\":{\"x\":1,\"y\":2}},"
		      "{\"tool\":\"type\",\"arguments\":{\"text\":\"hi\"}},"
		      "{\"tool\":\"screenshot\"},{\"tool\":\"status\"},{\"tool\":\"lease\"},"
		      "{\"tool\":\"wait\",\"arguments\":{\"for\":\"idle\"}}]",
		      &err),
		0);
}

static void run(struct fake *f, const char *text, struct batch_result *res)
{
	json_t *s = steps_of(text);
	struct batch_ops ops = {.call = fake_call, .check = fake_check, .ctx = f};
	assert_int_equal(batch_run(s, &ops, res), 0);
	json_decref(s);
}

static const char *str(json_t *o, const char *path1, const char *path2)
{
	json_t *v = json_object_get(o, path1);
	return json_string_value(path2 ? json_object_get(v, path2) : v);
}

static json_int_t num(json_t *o, const char *path1, const char *path2)
{
	json_t *v = json_object_get(o, path1);
	return json_integer_value(path2 ? json_object_get(v, path2) : v);
}

#define FOUR                                                                                      \
	"[{\"tool\":\"click\",\"arguments\":{\"x\":1,\"y\":2}},{\"tool\":\"move\",\"arguments\":" \
	"{\"x\":3,\"y\":4}},{\"tool\":\"cursor\"},{\"tool\":\"status\"}]"

static void test_all_done(void **state)
{
	(void)state;
	struct fake f = {0};
	struct batch_result res;
	run(&f, FOUR, &res);
	assert_int_equal(res.end, BATCH_DONE);
	assert_int_equal(f.n_called, 4);
	assert_int_equal(f.n_checks, 4);
	assert_string_equal(f.called[0], "click");
	assert_string_equal(f.called[1], "move");
	assert_string_equal(f.called[3], "status");
	/* The step's arguments are the call's, as given; none given is an empty object. */
	assert_int_equal(json_integer_value(json_object_get(f.args[1], "y")), 4);
	assert_int_equal(json_object_size(f.args[2]), 0);
	assert_string_equal(str(res.summary, "status", NULL), "done");
	assert_int_equal(num(res.summary, "steps", NULL), 4);
	assert_int_equal(num(res.summary, "done", NULL), 4);
	assert_null(json_object_get(res.summary, "stopped"));
	json_t *results = json_object_get(res.summary, "results");
	assert_int_equal(json_array_size(results), 4);
	json_t *first = json_array_get(results, 0), *last = json_array_get(results, 3);
	assert_int_equal(num(first, "step", NULL), 1);
	assert_true(json_is_true(json_object_get(first, "ok")));
	assert_int_equal(num(first, "result", "x"), 1);
	/* A text that is no JSON stays text. */
	assert_string_equal(str(last, "text", NULL), "not json");
	json_t *mcp = batch_tool_result(&res);
	assert_non_null(mcp);
	assert_false(json_is_true(json_object_get(mcp, "isError")));
	assert_int_equal(json_array_size(json_object_get(mcp, "content")), 1);
	json_decref(mcp);
	fake_free(&f);
}

static void test_failure_stops(void **state)
{
	(void)state;
	struct fake f = {.fail_at = 2};
	struct batch_result res;
	run(&f, FOUR, &res);
	assert_int_equal(res.end, BATCH_FAILED);
	/* Nothing after the failing step was called. */
	assert_int_equal(f.n_called, 2);
	assert_string_equal(str(res.summary, "status", NULL), "failed");
	assert_int_equal(num(res.summary, "done", NULL), 1);
	assert_int_equal(json_array_size(json_object_get(res.summary, "results")), 2);
	json_t *second = json_array_get(json_object_get(res.summary, "results"), 1);
	assert_false(json_is_true(json_object_get(second, "ok")));
	assert_string_equal(str(second, "error", NULL), "off the screen");
	assert_int_equal(num(res.summary, "stopped", "step"), 2);
	assert_string_equal(str(res.summary, "stopped", "tool"), "move");
	assert_string_equal(str(res.summary, "stopped", "reason"), "failed");
	assert_string_equal(str(res.summary, "stopped", "message"), "off the screen");
	char *out = batch_cli_output(&res);
	assert_non_null(out);
	assert_non_null(strstr(out, "\"status\":\"failed\""));
	assert_int_equal(out[strlen(out) - 1], '\n');
	free(out);
	json_t *mcp = batch_tool_result(&res);
	assert_true(json_is_true(json_object_get(mcp, "isError")));
	json_decref(mcp);
	fake_free(&f);
}

static void test_human_before_a_step(void **state)
{
	(void)state;
	/* The lease changes before the third step: two steps ran, the third was never called. */
	struct fake f = {.human_at = 3};
	struct batch_result res;
	run(&f, FOUR, &res);
	assert_int_equal(res.end, BATCH_HUMAN);
	assert_int_equal(f.n_called, 2);
	assert_string_equal(str(res.summary, "status", NULL), "human");
	assert_int_equal(num(res.summary, "done", NULL), 2);
	assert_int_equal(json_array_size(json_object_get(res.summary, "results")), 2);
	assert_int_equal(num(res.summary, "stopped", "step"), 3);
	assert_string_equal(str(res.summary, "stopped", "tool"), "cursor");
	assert_string_equal(str(res.summary, "stopped", "reason"), "human");
	assert_string_equal(str(res.summary, "stopped", "message"), "a human holds the desktop");
	batch_result_free(&res);
	fake_free(&f);
	/* Held from the start: nothing is called. */
	f = (struct fake){.human_at = 1};
	run(&f, FOUR, &res);
	assert_int_equal(res.end, BATCH_HUMAN);
	assert_int_equal(f.n_called, 0);
	assert_int_equal(num(res.summary, "stopped", "step"), 1);
	batch_result_free(&res);
}

static void test_human_during_a_step(void **state)
{
	(void)state;
	/* A take while step 2 runs: its failure is the human's, and nothing follows. */
	struct fake f = {.taken_in = 2};
	struct batch_result res;
	run(&f, FOUR, &res);
	assert_int_equal(res.end, BATCH_HUMAN);
	assert_int_equal(f.n_called, 2);
	assert_string_equal(str(res.summary, "stopped", "reason"), "human");
	assert_int_equal(num(res.summary, "stopped", "step"), 2);
	assert_string_equal(str(res.summary, "stopped", "message"), "stopped: a human took it");
	batch_result_free(&res);
	fake_free(&f);
}

static void test_images(void **state)
{
	(void)state;
	struct fake f = {.with_image = true};
	struct batch_result res;
	run(&f,
	    "[{\"tool\":\"screenshot\"},{\"tool\":\"cursor\"},{\"tool\":\"screenshot\","
	    "\"arguments\":{\"format\":\"png\"}}]",
	    &res);
	assert_int_equal(res.end, BATCH_DONE);
	assert_int_equal(json_array_size(res.images), 2);
	json_t *results = json_object_get(res.summary, "results");
	assert_int_equal(num(json_array_get(results, 0), "images", NULL), 1);
	assert_null(json_object_get(json_array_get(results, 1), "images"));
	assert_int_equal(num(json_array_get(results, 2), "result", "width"), 4);
	/* The CLI gets each picture as a data: URL in its step. */
	char *out = batch_cli_output(&res);
	assert_non_null(out);
	json_t *o = json_loads(out, 0, NULL);
	assert_non_null(o);
	json_t *urls = json_object_get(json_array_get(json_object_get(o, "results"), 2), "images");
	assert_int_equal(json_array_size(urls), 1);
	assert_string_equal(json_string_value(json_array_get(urls, 0)),
			    "data:image/png;base64,iVBORw==");
	json_decref(o);
	free(out);
	/* MCP gets the summary as text, then the pictures as image items. */
	json_t *mcp = batch_tool_result(&res);
	json_t *content = json_object_get(mcp, "content");
	assert_int_equal(json_array_size(content), 3);
	assert_string_equal(str(json_array_get(content, 0), "type", NULL), "text");
	assert_string_equal(str(json_array_get(content, 1), "type", NULL), "image");
	assert_string_equal(str(json_array_get(content, 2), "mimeType", NULL), "image/png");
	json_decref(mcp);
	fake_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_all_done),
		cmocka_unit_test(test_failure_stops),
		cmocka_unit_test(test_human_before_a_step),
		cmocka_unit_test(test_human_during_a_step),
		cmocka_unit_test(test_images),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
