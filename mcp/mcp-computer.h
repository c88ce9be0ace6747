/* The models' own computer-use vocabularies, read exactly as the models emit them, into the
 * action requests botdesk runs (act/actargs.h), in order:
 *  - Anthropic's `computer` tool input (computer_20250124, computer_20251124 and the toolset's
 *    members): {"action": ..., "coordinate": [x, y], "text": ..., ...};
 *  - OpenAI's computer-use `actions` list (or one `action`): [{"type": "click", ...}, ...].
 * Coordinates are in the model picture's pixels (act/modelpic.h): the requests name no from.
 * Pure: no X, no files, so it is unit-tested and fuzzed as it is. */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "actargs.h"
#include "error.h"

/* Steps one call may become: an OpenAI list of 32 actions, an Anthropic key repeated. */
#define MCP_STEPS_MAX 64
/* OpenAI's actions in one call. */
#define MCP_ACTIONS_MAX 32
/* OpenAI's scroll is in pixels; X's wheel in steps. One step for this many pixels (Chromium's
 * step on X is 53 px, GTK's a little more), rounded, at least one for any distance. */
#define MCP_WHEEL_STEP_PX 53
/* OpenAI's wait has no duration: the harness picks one (its reference sample waits a second). */
#define MCP_OPENAI_WAIT_MS 1000

/* What the call answers with once its steps are done. */
enum mcp_answer {
	MCP_ANSWER_TEXT,    /* the last step's result (Anthropic's actions) */
	MCP_ANSWER_CURSOR,  /* "X=..,Y=.." in the model picture (cursor_position) */
	MCP_ANSWER_PICTURE, /* the last step's picture (screenshot, zoom) */
	MCP_ANSWER_SCREEN,  /* a screenshot taken after the last step (OpenAI's every call) */
};

struct mcp_plan {
	struct act_req steps[MCP_STEPS_MAX];
	/* Which input item each step came from (OpenAI's action index, 0 for Anthropic's), and
	 * its name, for "stopped at step N (click)". */
	size_t item[MCP_STEPS_MAX];
	const char *what[MCP_STEPS_MAX];
	size_t n;
	size_t items; /* input items: OpenAI's actions, or 1 */
	enum mcp_answer answer;
	bool zoom; /* the last step is a zoom: its picture is fitted to the model picture's size */
	/* Strings made while translating (combos such as "ctrl+a"), which the steps point to. */
	char strings[MCP_STEPS_MAX * 2][128];
	size_t n_strings;
};

/* Anthropic's `computer` input (the tool call's arguments) into plan. -EINVAL with a message the
 * model can act on for anything wrong; nothing is run then. plan's steps point into args. */
int mcp_computer_plan(json_t *args, struct mcp_plan *plan, struct error *err);

/* OpenAI's {"actions": [...]} (or {"action": {...}}) into plan: the actions in order, answered with
 * one screenshot after the last. */
int mcp_computer_actions_plan(json_t *args, struct mcp_plan *plan, struct error *err);

/* An xdotool key name or an OpenAI key name ("Return", "ctrl", "CTRL", "ARROWLEFT", "cmd") as
 * act/keys.c reads it, into buf; false when it does not fit. */
bool mcp_key_name(const char *name, char *buf, size_t size);
