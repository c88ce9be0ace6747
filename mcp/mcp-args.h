/* A tool call's arguments read into an action request (act/actargs.h): the members' readers,
 * each naming the member in its message, and the desktop actions' arguments. Internal to the MCP
 * library: mcp-tools.c reads the server's own tools' arguments through the same readers. */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "actargs.h"
#include "error.h"

/* args' member name into *ret (NULL when absent): -EINVAL naming it when it is required and
 * absent, or of another type than type (JSON_REAL: any number; JSON_TRUE: a boolean). */
int args_member(json_t *args, const char *name, int type, bool required, json_t **ret,
		struct error *err);

/* An optional member in seconds above 0, at most max_ms, into *ret in milliseconds (at least 1);
 * *ret is left as it is when the member is absent. */
int args_seconds(json_t *args, const char *name, uint64_t max_ms, uint64_t *ret, struct error *err);

/* Every member of args is one of known (NULL-terminated). */
int args_known_only(json_t *args, const char *const *known, struct error *err);

/* The request's members from its desktop action's tool arguments (rq->cmd says which action; a
 * wait's `for` may change it). -EINVAL with the message for a value the tool refuses. */
int args_action(json_t *args, struct act_req *rq, struct error *err);
