/* What the two vocabularies' readers (mcp-computer.c, Anthropic's; mcp-openai.c, OpenAI's) build
 * a plan (mcp-computer.h) with: a step added, a string kept in the plan, a coordinate and a
 * string read from the model's arguments. Internal to the MCP library. */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "mcp-computer.h"

/* An empty plan, for items input items, answered as answer says. */
void plan_begin(struct mcp_plan *p, size_t items, enum mcp_answer answer);

/* A new step of cmd for input item `item`, named what; NULL (with the message) when the plan is
 * full. */
struct act_req *plan_add(struct mcp_plan *p, enum act_cmd cmd, const char *what, size_t item,
			 struct error *err);

/* A copy of s's len bytes kept in the plan (the steps point to it); NULL when it does not fit. */
const char *plan_keep(struct mcp_plan *p, const char *s, size_t len, struct error *err);

/* A number that is a pixel coordinate (a whole number, or one the model wrote with a fraction,
 * rounded); name is the member it came from, for the message. */
int plan_coord(json_t *v, const char *name, unsigned *ret, struct error *err);

/* args' member name when it is a string, else NULL. */
const char *plan_string(json_t *args, const char *name);

/* text (the model's, NUL-terminated) as what rq types, checked as the CLI checks it. */
int plan_text(struct act_req *rq, const char *text, struct error *err);
