#include "batch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp-proto.h"
#include "util.h"

static bool tool_listed(json_t *tools_list, const char *name)
{
	json_t *tools = json_object_get(tools_list, "tools"), *t;
	size_t i;
	json_array_foreach(tools, i, t)
	{
		json_t *n = json_object_get(t, "name");
		if (json_is_string(n) && streq(json_string_value(n), name)) {
			return true;
		}
	}
	return false;
}

static int check_step(json_t *step, size_t no, json_t *tools_list, struct error *err)
{
	if (!json_is_object(step)) {
		return error_set(err, -EINVAL,
				 "step %zu is not an object {\"tool\": NAME, \"arguments\": {...}}",
				 no);
	}
	const char *k;
	json_t *v;
	json_object_foreach(step, k, v)
	{
		if (!streq(k, "tool") && !streq(k, "arguments")) {
			return error_set(
				err, -EINVAL,
				"step %zu has a member '%.64s': a step has only tool and arguments",
				no, k);
		}
	}
	json_t *tool = json_object_get(step, "tool");
	if (!json_is_string(tool)) {
		return error_set(
			err, -EINVAL,
			"step %zu has no 'tool' (a tool's name as a string, e.g. \"click\")", no);
	}
	const char *name = json_string_value(tool);
	if (streq(name, BATCH_TOOL)) {
		return error_set(err, -EINVAL,
				 "step %zu is a batch: a batch's steps are single tools", no);
	}
	if (!tool_listed(tools_list, name)) {
		return error_set(
			err, -EINVAL,
			"step %zu names no tool of this server: '%.64s' (tools/list has them)", no,
			name);
	}
	json_t *args = json_object_get(step, "arguments");
	if (args && !json_is_object(args)) {
		return error_set(err, -EINVAL, "step %zu: 'arguments' must be an object", no);
	}
	/* The arguments as the tool reads them, before any step runs: a typo in the last step
	 * leaves the desktop untouched. What only the desktop can tell (a point off its screen)
	 * fails when the step runs. A tool this parser does not read stays for its call. */
	_cleanup_(json_decrefp) json_t *params =
		args ? json_pack("{s:s,s:O}", "name", name, "arguments", args)
		     : json_pack("{s:s}", "name", name);
	enum mcp_tool t;
	struct act_req rq;
	uint64_t wait_ms;
	struct error aerr = {{0}};
	if (!params) {
		return -ENOMEM;
	}
	if (mcp_tool_args(params, &t, &rq, &wait_ms, &aerr) == -EINVAL) {
		return error_set(err, -EINVAL, "step %zu (%s): %s", no, name, aerr.msg);
	}
	return 0;
}

int batch_check(json_t *steps, json_t *tools_list, struct error *err)
{
	if (!json_is_array(steps)) {
		return error_set(
			err, -EINVAL,
			"a batch is a JSON array of steps, each {\"tool\": NAME, \"arguments\": {...}}");
	}
	size_t n = json_array_size(steps);
	if (n == 0 || n > BATCH_STEPS_MAX) {
		return error_set(err, -EINVAL, "a batch takes 1 to %d steps, not %zu",
				 BATCH_STEPS_MAX, n);
	}
	json_t *step;
	size_t i;
	json_array_foreach(steps, i, step)
	{
		int r = check_step(step, i + 1, tools_list, err);
		if (r < 0) {
			return r;
		}
	}
	return 0;
}

/* The first text item of a tool result's content, or NULL. */
static const char *first_text(json_t *content)
{
	json_t *item;
	size_t i;
	json_array_foreach(content, i, item)
	{
		json_t *type = json_object_get(item, "type"), *text = json_object_get(item, "text");
		if (json_is_string(type) && streq(json_string_value(type), "text") &&
		    json_is_string(text)) {
			return json_string_value(text);
		}
	}
	return NULL;
}

/* The step's entry in the summary from the tool's result (NULL: a protocol error, in err); its
 * images go to images. *ret_ok says whether the step succeeded; *ret_msg is its message when
 * not (borrowed from entry). */
static json_t *step_entry(size_t no, const char *tool, json_t *res, const struct error *err,
			  json_t *images, bool *ret_ok, const char **ret_msg)
{
	json_t *content = json_object_get(res, "content");
	bool ok = res && !json_is_true(json_object_get(res, "isError"));
	json_t *e = json_pack("{s:I,s:s,s:b}", "step", (json_int_t)no, "tool", tool, "ok", ok);
	if (!e) {
		return NULL;
	}
	const char *text = first_text(content);
	int r = 0;
	if (!ok) {
		const char *msg = text ? text : err->msg;
		r = json_object_set_new(e, "error", json_string(msg[0] ? msg : "the step failed"));
	} else if (text) {
		json_t *parsed = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
		r = parsed ? json_object_set_new(e, "result", parsed)
			   : json_object_set_new(e, "text", json_string(text));
	}
	json_t *item;
	size_t i, n = 0;
	json_array_foreach(content, i, item)
	{
		json_t *type = json_object_get(item, "type");
		if (r == 0 && json_is_string(type) && streq(json_string_value(type), "image")) {
			r = json_array_append(images, item);
			n++;
		}
	}
	if (r == 0 && n > 0) {
		r = json_object_set_new(e, "images", json_integer((json_int_t)n));
	}
	if (r < 0) {
		json_decref(e);
		return NULL;
	}
	*ret_ok = ok;
	*ret_msg = ok ? NULL : json_string_value(json_object_get(e, "error"));
	return e;
}

static json_t *stopped(size_t no, const char *tool, enum batch_end end, const char *msg)
{
	return json_pack("{s:I,s:s,s:s,s:s}", "step", (json_int_t)no, "tool", tool, "reason",
			 end == BATCH_HUMAN ? "human" : "failed", "message", msg);
}

/* Step i (from 0): its entry appended to results, or the batch's stop in *ret_stop. */
static int run_step(json_t *step, size_t i, const struct batch_ops *ops, json_t *results,
		    struct batch_result *ret, json_t **ret_stop)
{
	const char *tool = json_string_value(json_object_get(step, "tool"));
	struct error err = {{0}};
	/* Before every step, not only the first: a take and a hand-back between two steps is a
	 * new lease the rest of the batch was not planned under. */
	if (ops->check(ops->ctx, &err) != 0) {
		ret->end = BATCH_HUMAN;
		*ret_stop = stopped(i + 1, tool, BATCH_HUMAN, err.msg);
		return *ret_stop ? 0 : -ENOMEM;
	}
	json_t *args = json_object_get(step, "arguments");
	_cleanup_(json_decrefp) json_t *params =
		args ? json_pack("{s:s,s:O}", "name", tool, "arguments", args)
		     : json_pack("{s:s,s:{}}", "name", tool, "arguments");
	int code = 0;
	_cleanup_(json_decrefp) json_t *res =
		params ? ops->call(ops->ctx, params, &code, &err) : NULL;
	bool ok = false;
	const char *msg = NULL;
	json_t *e = params ? step_entry(i + 1, tool, res, &err, ret->images, &ok, &msg) : NULL;
	if (!e || json_array_append_new(results, e) < 0) {
		return -ENOMEM;
	}
	if (ok) {
		ret->done++;
		return 0;
	}
	/* A take while the step ran shows in the lease, whatever the step's own words. */
	struct error lease = {{0}};
	ret->end = ops->check(ops->ctx, &lease) != 0 ? BATCH_HUMAN : BATCH_FAILED;
	*ret_stop = stopped(i + 1, tool, ret->end, msg);
	return *ret_stop ? 0 : -ENOMEM;
}

int batch_run(json_t *steps, const struct batch_ops *ops, struct batch_result *ret)
{
	*ret = (struct batch_result){.end = BATCH_DONE, .steps = json_array_size(steps)};
	_cleanup_(json_decrefp) json_t *results = json_array();
	ret->images = json_array();
	json_t *stop = NULL, *step;
	size_t i;
	int r = results && ret->images ? 0 : -ENOMEM;
	json_array_foreach(steps, i, step)
	{
		if (r < 0 || stop) {
			break;
		}
		r = run_step(step, i, ops, results, ret, &stop);
	}
	static const char *const status[] = {"done", "failed", "human"};
	ret->summary =
		r < 0 ? NULL
		      : json_pack("{s:s,s:I,s:I,s:O,s:o*}", "status", status[ret->end], "steps",
				  (json_int_t)ret->steps, "done", (json_int_t)ret->done, "results",
				  results, "stopped", stop);
	if (!ret->summary) {
		json_decref(stop);
		batch_result_free(ret);
		return -ENOMEM;
	}
	return 0;
}

void batch_result_free(struct batch_result *r)
{
	json_decref(r->summary);
	json_decref(r->images);
	r->summary = r->images = NULL;
}

json_t *batch_tool_result(struct batch_result *r)
{
	_cleanup_free_ char *text = r->summary ? json_dumps(r->summary, JSON_COMPACT) : NULL;
	json_t *content = text ? json_pack("[o]", mcp_text(text)) : NULL;
	if (!content || json_array_extend(content, r->images) < 0) {
		json_decref(content);
		batch_result_free(r);
		return NULL;
	}
	bool error = r->end != BATCH_DONE;
	batch_result_free(r);
	return mcp_tool_result(content, error);
}

/* An image content item as a data: URL. */
static json_t *data_url(json_t *item)
{
	const char *mime = json_string_value(json_object_get(item, "mimeType"));
	json_t *data = json_object_get(item, "data");
	if (!mime || !json_is_string(data)) {
		return NULL;
	}
	char *s = NULL;
	if (asprintf(&s, "data:%s;base64,%s", mime, json_string_value(data)) < 0) {
		return NULL;
	}
	json_t *url = json_stringn_nocheck(s, strlen(s));
	free(s);
	return url;
}

char *batch_cli_output(const struct batch_result *r)
{
	_cleanup_(json_decrefp) json_t *out = json_deep_copy(r->summary);
	json_t *results = json_object_get(out, "results"), *e;
	size_t i, next = 0;
	json_array_foreach(results, i, e)
	{
		json_int_t n = json_integer_value(json_object_get(e, "images"));
		json_t *urls = n > 0 ? json_array() : NULL;
		for (json_int_t k = 0; urls && k < n; k++) {
			json_t *url = data_url(json_array_get(r->images, next++));
			if (!url || json_array_append_new(urls, url) < 0) {
				json_decref(urls);
				return NULL;
			}
		}
		if (urls && json_object_set_new(e, "images", urls) < 0) {
			return NULL;
		}
	}
	_cleanup_free_ char *s = out ? json_dumps(out, JSON_COMPACT) : NULL;
	char *line = NULL;
	if (!s || asprintf(&line, "%s\n", s) < 0) {
		return NULL;
	}
	return line;
}
