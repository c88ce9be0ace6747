/* Batches run (mcp-server.h, batch.h): the MCP tool batch, and `botdesk batch` (botdesk-mcp
 * --batch), each step through tools/call's own path, under the lease's epoch the batch began
 * under. */
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "control.h"
#include "exitstatus.h"
#include "fileio.h"
#include "log.h"
#include "mcp-server.h"
#include "util.h"

/* A batch's step is a tools/call: any tool this server has works as a step, as it works alone. */
static json_t *batch_call(void *ctx, json_t *params, int *code, struct error *err)
{
	return server_call(ctx, params, code, err);
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
	(void)server_open_profile(s, false, &ignored);
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

json_t *server_batch(struct server *s, json_t *params)
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
		return server_text(msg, true);
	}
	struct batch_result res;
	int r = run_batch(s, steps, &res, &err);
	if (r < 0) {
		return server_text(error_isset(&err) ? err.msg : strerror(-r), true);
	}
	return batch_tool_result(&res);
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

int server_batch_cli(struct server *s)
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
