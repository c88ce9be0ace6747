/* The actions' positional arguments (what is left of argv once the options are out), one parser
 * a shape, as the rows of act/acttable.c name them: each fills the request (actargs.h) and
 * returns 0, or -EINVAL with a message naming the wrong argument (the caller's exit 2). Pure. */
#pragma once

#include "actargs.h"
#include "error.h"

/* X Y: click, move, and scroll's optional count after them; nothing with --element. */
int actpos_point(struct act_req *rq, int n, char **args, struct error *err);
/* mouse-down and mouse-up: X Y, or nothing for where the pointer is. */
int actpos_maybe_point(struct act_req *rq, int n, char **args, struct error *err);
/* drag: X1 Y1 X2 Y2, or with --path 2 to ACT_PATH_MAX points X,Y. */
int actpos_drag(struct act_req *rq, int n, char **args, struct error *err);
/* wait: SECONDS above 0, fractions allowed. */
int actpos_seconds(struct act_req *rq, int n, char **args, struct error *err);
/* type: one TEXT, or none (--file or standard input), checked by act_check_text(). */
int actpos_text(struct act_req *rq, int n, char **args, struct error *err);
/* key: 1 to ACT_KEYS_MAX combos (one with --hold-for). */
int actpos_combos(struct act_req *rq, int n, char **args, struct error *err);
/* clipboard set: TEXT, or standard input (read by botdesk-act) when none. */
int actpos_clip_set(struct act_req *rq, int n, char **args, struct error *err);
/* window focus|close ID, window move ID X Y, window resize ID WIDTH HEIGHT. */
int actpos_window(struct act_req *rq, int n, char **args, struct error *err);
/* open TARGET (a URL or a file), launch NAME (a desktop file's name). */
int actpos_target(struct act_req *rq, int n, char **args, struct error *err);
/* The actions that take none. */
int actpos_none(struct act_req *rq, int n, char **args, struct error *err);
