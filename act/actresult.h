/* The actions' results, one JSON object each: what `--json` prints and the MCP tool's text, as
 * the rows of act/acttable.c name them. Each writes into buf (cut at size) and returns true, or
 * false when the action has no result of this kind. Pure. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "actargs.h"

struct act_out;

/* click, move, scroll, mouse-down, mouse-up and drag: the point (and drag's end), the screen,
 * the window it landed on, what --changes saw. */
bool actresult_point(const struct act_req *rq, const struct act_out *out, char *buf, size_t size);
bool actresult_cursor(const struct act_req *rq, const struct act_out *out, char *buf, size_t size);
bool actresult_type(const struct act_req *rq, const struct act_out *out, char *buf, size_t size);
bool actresult_key(const struct act_req *rq, const struct act_out *out, char *buf, size_t size);
bool actresult_picture(const struct act_req *rq, const struct act_out *out, char *buf, size_t size);
/* wait: how long it paused. */
bool actresult_paused(const struct act_req *rq, const struct act_out *out, char *buf, size_t size);
/* wait-idle and wait-change: what happened, after how long. */
bool actresult_wait(const struct act_req *rq, const struct act_out *out, char *buf, size_t size);
/* clipboard get, windows, tree, find: a result of any size, in out->json (act.c); false. */
bool actresult_none(const struct act_req *rq, const struct act_out *out, char *buf, size_t size);
bool actresult_clip_set(const struct act_req *rq, const struct act_out *out, char *buf,
			size_t size);
bool actresult_window(const struct act_req *rq, const struct act_out *out, char *buf, size_t size);
/* open and launch: the new window's id. */
bool actresult_opened(const struct act_req *rq, const struct act_out *out, char *buf, size_t size);
