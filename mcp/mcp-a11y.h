/* The MCP server's tree and find tools, and click and type on an element: run by
 * botdesk-act-a11y in a child process (the server itself never loads libatspi), whose whole run
 * is bounded (a misbehaving application cannot hang the server), and whose answer is cut to
 * what a model's context takes. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "actargs.h"
#include "error.h"
#include "profile.h"

/* The text a tool answers with at most, in bytes: cut at a line's end, with a note. */
#define MCP_A11Y_TEXT_MAX 24000
/* tree's depth when the model asks for none. */
#define MCP_A11Y_DEPTH_DEFAULT 12

/* The answer for the model (text, malloc'ed, len bytes; taken): whole when it fits in
 * MCP_A11Y_TEXT_MAX, else cut at a line's end with a note that says how many lines are left and
 * how to ask for less. */
char *mcp_a11y_bound(char *text, size_t len);

struct mcp_a11y_call {
	const char *program; /* botdesk-act-a11y */
	struct profile *p;
	const char *display, *xauthority;
	bool log_text;
	unsigned pic_w, pic_h; /* the model picture: tree and find's bounds are in it */
	unsigned sw, sh;       /* the screen */
};

/* Runs rq (tree, find, or click or type with an element). 0 with the answer (malloc'ed, cut)
 * in *ret; else -errno with the program's message in err (ERROR_HUMAN_HOLDS when it exited 4). */
int mcp_a11y_run(const struct mcp_a11y_call *c, const struct act_req *rq, char **ret,
		 struct error *err);
