/* Each action's own members of its line in actions.jsonl (actlog.h), as the rows of
 * act/acttable.c name them: what the request asked and, when it was done (r == 0), where it
 * landed. Typed text (a `type`'s text, `key`'s combos, the clipboard's text, `open`'s URL) only
 * with log_text: it is often a password or a token. Pure. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "actargs.h"

struct act_out;

/* Writes the members, each with its leading comma, to f; r is what the action returned. */
typedef void actlogkeys_fn(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
			   bool log_text);

/* click, move, drag, scroll, mouse-down and mouse-up: the screen points, the path's length, the
 * keys held, the picture the points were read in, the button, the clicks, the wheel. */
actlogkeys_fn actlogkeys_pointer;
/* type: how many characters (the text with log_text). */
actlogkeys_fn actlogkeys_type;
/* key: how many combos, held how long or pressed or released (the combos with log_text). */
actlogkeys_fn actlogkeys_key;
actlogkeys_fn actlogkeys_screenshot;
/* wait: the seconds it paused. */
actlogkeys_fn actlogkeys_pause;
/* clipboard get and set: which selection, how many bytes (set's text with log_text). */
actlogkeys_fn actlogkeys_clipboard;
actlogkeys_fn actlogkeys_window;
/* open and launch: the application's name (a URL only with log_text: it may carry a token in its
 * query), the new window. */
actlogkeys_fn actlogkeys_opened;
