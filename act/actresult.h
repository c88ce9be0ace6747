/* The actions' results, one JSON object each: what `--json` prints and the MCP tool's text, as
 * the rows of act/acttable.c name them. Each writes into buf (cut at size) and returns true, or
 * false when the action has no result of this kind. Pure. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "actargs.h"

struct act_out;

typedef bool actresult_fn(const struct act_req *rq, const struct act_out *out, char *buf,
			  size_t size);

/* click, move, scroll, mouse-down, mouse-up and drag: the point (and drag's end), the screen,
 * the window it landed on, what --changes saw. */
actresult_fn actresult_point;
actresult_fn actresult_cursor;
actresult_fn actresult_type;
actresult_fn actresult_key;
actresult_fn actresult_picture;
/* wait: how long it paused. */
actresult_fn actresult_paused;
/* wait-idle and wait-change: what happened, after how long. */
actresult_fn actresult_wait;
/* clipboard get, windows, tree, find: a result of any size, in out->json (act.c); false. */
actresult_fn actresult_none;
actresult_fn actresult_clip_set;
actresult_fn actresult_window;
/* open and launch: the new window's id. */
actresult_fn actresult_opened;
