/* The action vocabulary as one table: a row per action says everything the front ends know about
 * it (its name, the options it takes, whether botdesk-act-pointer does it, its line in --help and
 * in the docs, its MCP tool, its result as JSON and its members in the action log). The CLI parser
 * (actargs.c), `botdesk
 * --help` and `--list-commands` (so the bash completion), the MCP tool list (mcp/) and the docs'
 * action table (the test action-docs) are all derived from it. Adding an action is its row here,
 * its request fields and enum value (actargs.h) and its implementation (act.c); an MCP tool
 * whose arguments take a new shape adds their reading to mcp/mcp-args.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "actargs.h"
#include "actlogkeys.h"
#include "actpos.h"
#include "actresult.h"

struct act_out;

/* The options an action may take, one bit each (actargs.c's long options). */
enum act_opt {
	ACT_O_JSON = 1u << 0,
	ACT_O_FROM = 1u << 1,
	ACT_O_BUTTON = 1u << 2,
	ACT_O_DOUBLE = 1u << 3,
	ACT_O_UP = 1u << 4,
	ACT_O_DOWN = 1u << 5,
	ACT_O_LEFT = 1u << 6,
	ACT_O_RIGHT = 1u << 7,
	ACT_O_FILE = 1u << 8,
	ACT_O_DELAY = 1u << 9,
	ACT_O_PRESS = 1u << 10,
	ACT_O_RELEASE = 1u << 11,
	ACT_O_MAX = 1u << 12,
	ACT_O_FORMAT = 1u << 13,
	ACT_O_QUALITY = 1u << 14,
	ACT_O_OUTPUT = 1u << 15,
	ACT_O_REGION = 1u << 16,
	ACT_O_TIMEOUT = 1u << 17,
	ACT_O_QUIET = 1u << 18,
	/* The models' vocabulary (issue 25.5). */
	ACT_O_TRIPLE = 1u << 19,
	ACT_O_HOLD = 1u << 20,
	ACT_O_PATH = 1u << 21,
	ACT_O_HOLD_FOR = 1u << 22,
	ACT_O_PRIMARY = 1u << 23,
	/* The accessibility tree's (issue 27) */
	ACT_O_WINDOW = 1u << 24,
	ACT_O_DEPTH = 1u << 25,
	ACT_O_ROLE = 1u << 26,
	ACT_O_NAME = 1u << 27,
	ACT_O_ELEMENT = 1u << 28,
	/* What a pointer action changed on the screen (issue 26.5) */
	ACT_O_CHANGES = 1u << 29,
};

struct act_action {
	const char *name; /* the command, and the request's act_cmd by its index */
	/* The first positional argument that picks this row among rows of the same name
	 * (`clipboard get`, `clipboard set`), or NULL. */
	const char *verb;
	/* The positional arguments (argv's, options taken out) into rq; -EINVAL naming the wrong
	 * one. */
	actpos_fn *positionals;
	bool pointer;     /* done by botdesk-act-pointer (no X library but XCB's) */
	unsigned options; /* enum act_opt bits */
	/* What follows the name in --help, docs/CLI.md and botdesk(1) (placeholders in capitals,
	 * options with their dashes). */
	const char *synopsis;
	const char *summary; /* docs/CLI.md's "what it does" */
	const char *exits;   /* docs/CLI.md's exit column */
	/* The MCP tool that does it (NULL: none of its own; wait-change is the `wait` tool's), the
	 * arguments the tool takes (NULL-terminated) and the tool as tools/list shows it. */
	const char *mcp_tool;
	const char *const *mcp_args;
	const char *mcp_json;
	/* The result as one JSON object (`--json`, the MCP tool's text), into buf; false when the
	 * action has none. */
	actresult_fn *result_json;
	/* Its own members of its line in actions.jsonl after the common ones (actlogkeys.h); NULL:
	 * none. r is what the action returned; typed text only with log_text. */
	actlogkeys_fn *log_keys;
};

extern const struct act_action act_actions[ACT_CMD_COUNT];

/* The row of the action NAME, or NULL. */
const struct act_action *act_action_find(const char *name);
/* The row whose MCP tool is NAME, or NULL. */
const struct act_action *act_action_by_tool(const char *name);

/* `botdesk --help`'s lines for the actions, wrapped to 79 columns. */
void act_print_help(FILE *f);
/* The docs' rows: docs/CLI.md's action table (markdown) and botdesk(1)'s synopsis lines (scdoc),
 * as the test action-docs compares them. */
void act_print_doc_rows(FILE *f, bool scdoc);
