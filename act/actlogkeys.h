/* Each action's own members of its line in actions.jsonl (actlog.h), as the rows of
 * act/acttable.c name them: what the request asked and, when it was done (r == 0), where it
 * landed. Typed text (a `type`'s text, `key`'s combos, the clipboard's text, `open`'s URL) only
 * with log_text: it is often a password or a token. Pure. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "actargs.h"

struct act_out;

/* click, move, drag, scroll, mouse-down and mouse-up: the screen points, the path's length, the
 * keys held, the picture the points were read in, the button, the clicks, the wheel. */
void actlogkeys_pointer(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
			bool log_text);
/* type: how many characters (the text with log_text). */
void actlogkeys_type(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
		     bool log_text);
/* key: how many combos, held how long or pressed or released (the combos with log_text). */
void actlogkeys_key(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
		    bool log_text);
void actlogkeys_screenshot(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
			   bool log_text);
/* wait: the seconds it paused. */
void actlogkeys_pause(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
		      bool log_text);
/* clipboard get and set: which selection, how many bytes (set's text with log_text). */
void actlogkeys_clipboard(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
			  bool log_text);
void actlogkeys_window(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
		       bool log_text);
/* open and launch: the application's name (a URL only with log_text: it may carry a token in its
 * query), the new window. */
void actlogkeys_opened(FILE *f, const struct act_req *rq, const struct act_out *out, int r,
		       bool log_text);
