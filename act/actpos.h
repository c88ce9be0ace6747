/* The actions' positional arguments (what is left of argv once the options are out), one parser
 * a shape, as the rows of act/acttable.c name them: each fills the request (actargs.h) and
 * returns 0, or -EINVAL with a message naming the wrong argument (the caller's exit 2). Pure. */
#pragma once

#include "actargs.h"
#include "error.h"

/* args are the n positional arguments in order. */
typedef int actpos_fn(struct act_req *rq, int n, char **args, struct error *err);

/* X Y: click, move, and scroll's optional count after them; nothing with --element. */
actpos_fn actpos_point;
/* mouse-down and mouse-up: X Y, or nothing for where the pointer is. */
actpos_fn actpos_maybe_point;
/* drag: X1 Y1 X2 Y2, or with --path 2 to ACT_PATH_MAX points X,Y. */
actpos_fn actpos_drag;
/* wait: SECONDS above 0, fractions allowed. */
actpos_fn actpos_seconds;
/* type: one TEXT, or none (--file or standard input), checked by act_check_text(). */
actpos_fn actpos_text;
/* key: 1 to ACT_KEYS_MAX combos (one with --hold-for). */
actpos_fn actpos_combos;
/* clipboard set: TEXT, or standard input (read by botdesk-act) when none. */
actpos_fn actpos_clip_set;
/* window focus|close ID, window move ID X Y, window resize ID WIDTH HEIGHT. */
actpos_fn actpos_window;
/* open TARGET (a URL or a file), launch NAME (a desktop file's name). */
actpos_fn actpos_target;
/* The actions that take none. */
actpos_fn actpos_none;
