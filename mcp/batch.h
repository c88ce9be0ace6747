/* A batch: several of the MCP server's own tool calls in one request (the MCP tool `batch`) or one
 * process (`botdesk batch`, which runs botdesk-mcp --batch). Each step is what a tools/call's
 * params are, {"tool": NAME, "arguments": {...}}, and runs through the very function that serves
 * a tools/call, so any tool the server lists (but batch itself) is a step. Steps run in order;
 * the first that fails ends the batch, and so does a human's take, checked before every step:
 * nothing more is sent. The result says which step stopped and why. Pure (jansson, no X, no
 * files): the caller brings the call and the lease check, and the unit tests a stand-in. */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* The most steps one batch takes: a model's plan of a screen's worth of actions fits, and the
 * answer stays bounded (each step's result is at most a picture). */
#define BATCH_STEPS_MAX 64
/* The most bytes of `botdesk batch`'s standard input: an MCP request line's bound. */
#define BATCH_INPUT_MAX (1024 * 1024)
/* The batch tool's own name: never a step. */
#define BATCH_TOOL "batch"

enum batch_end {
	BATCH_DONE,   /* every step done: exit 0 */
	BATCH_FAILED, /* a step failed: exit 1 */
	BATCH_HUMAN,  /* a human took the desktop: exit 4 */
};

struct batch_ops {
	/* One step, as tools/call's params {"name", "arguments"}: the tool's result (a new
	 * reference), or NULL with a JSON-RPC error code in *code and the message in err. */
	json_t *(*call)(void *ctx, json_t *params, int *code, struct error *err);
	/* Right before each step: 0 while the agent still holds the lease the batch began
	 * under (the same epoch), else non-zero with the message in err. */
	int (*check)(void *ctx, struct error *err);
	void *ctx;
};

/* Checks steps before any runs: an array of 1 to BATCH_STEPS_MAX objects with a "tool" string,
 * one of those tools_list (a tools/list result) names other than batch, and an optional
 * "arguments" object, nothing else. 0, or -EINVAL with the message naming the step. */
int batch_check(json_t *steps, json_t *tools_list, struct error *err);

struct batch_result {
	enum batch_end end;
	size_t steps, done;
	/* {"status": "done"|"failed"|"human", "steps": N, "done": K, "results": [...],
	 * "stopped": {"step", "tool", "reason", "message"} when it stopped}; a result is
	 * {"step", "tool", "ok", and "result" (the tool's text when it is JSON) or "text", or
	 * "error", and "images": how many of images are its}. */
	json_t *summary;
	json_t *images; /* the steps' image content items, in step order */
};

/* Runs the checked steps through ops. 0 with ret filled (batch_result_free() it), or -ENOMEM. */
int batch_run(json_t *steps, const struct batch_ops *ops, struct batch_result *ret);
void batch_result_free(struct batch_result *r);

/* The MCP tool's result: the summary as text, then the images; an error when it stopped.
 * Takes r's summary and images. NULL when out of memory. */
json_t *batch_tool_result(struct batch_result *r);

/* `botdesk batch`'s output: the summary as one line of JSON, each step's "images" the data:
 * URLs of its pictures. malloc'ed, ending in a newline; NULL when out of memory. */
char *batch_cli_output(const struct batch_result *r);
