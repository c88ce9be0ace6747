/* The agent's actions as requests: click, move, drag, scroll, cursor, type, key, screenshot,
 * wait-idle, wait-change. One parser for their command lines, used by the runner (so bad input
 * is exit 2 before anything is loaded) and again by botdesk-act, which trusts nothing it is
 * handed; the MCP server fills the same request from JSON. Pure: no X. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

enum act_cmd {
	ACT_CLICK,
	ACT_MOVE,
	ACT_DRAG,
	ACT_SCROLL,
	ACT_CURSOR,
	ACT_TYPE,
	ACT_KEY,
	ACT_SCREENSHOT,
	ACT_WAIT_IDLE,
	ACT_WAIT_CHANGE,
	/* The models' vocabulary (issue 25.5): a button held or let go, a pause. */
	ACT_MOUSE_DOWN,
	ACT_MOUSE_UP,
	ACT_WAIT,
	/* The desktop's objects (issue 26): clipboard, windows. */
	ACT_CLIPBOARD_GET,
	ACT_CLIPBOARD_SET,
	ACT_WINDOWS,
	ACT_WINDOW,
	ACT_OPEN,
	ACT_LAUNCH,
	/* The accessibility tree (issue 27, act/a11y.h): done by botdesk-act-a11y. */
	ACT_TREE,
	ACT_FIND,
	ACT_CMD_COUNT,
};

enum act_scroll {
	ACT_SCROLL_UP,
	ACT_SCROLL_DOWN,
	ACT_SCROLL_LEFT,
	ACT_SCROLL_RIGHT,
};

enum act_key_mode {
	ACT_KEY_TAP,
	ACT_KEY_PRESS,
	ACT_KEY_RELEASE,
};

enum act_format {
	ACT_FORMAT_PNG,
	ACT_FORMAT_JPEG,
};

enum act_win_op {
	ACT_WIN_FOCUS,
	ACT_WIN_CLOSE,
	ACT_WIN_MOVE,
	ACT_WIN_RESIZE,
};

/* Bounds every caller shares. */
#define ACT_COORD_MAX 65535
#define ACT_SCROLL_MAX 100
#define ACT_DELAY_MAX_MS 1000
#define ACT_TEXT_MAX 65536         /* bytes of text one `type` takes */
#define ACT_CLIP_MAX (1024 * 1024) /* bytes of text the clipboard takes or gives */
#define ACT_KEYS_MAX 64            /* combos one `key` takes */
#define ACT_COMBO_MAX 128          /* bytes of one combo */
#define ACT_WAIT_MAX_MS (600 * 1000)
#define ACT_WAIT_DEFAULT_MS (10 * 1000)
#define ACT_QUIET_DEFAULT_MS 300
#define ACT_QUALITY_DEFAULT 85
#define ACT_CLICKS_MAX 3             /* presses of one click: 2 double, 3 triple */
#define ACT_PATH_MAX 64              /* points of one drag --path */
#define ACT_HOLD_MAX_MS (300 * 1000) /* key --hold-for: Anthropic's longest hold_key */
#define ACT_DEPTH_MAX 64             /* levels `tree --depth` may ask for */
#define ACT_MATCH_MAX 1024           /* bytes of --role, --name, --window, --element */

struct act_req {
	enum act_cmd cmd;
	bool json;
	/* Pointer commands: coordinates as given, in the picture when from_w is set. */
	unsigned x, y, x2, y2;
	unsigned from_w, from_h;
	unsigned button; /* 1 left, 2 middle, 3 right (8 back, 9 forward: the MCP tools only) */
	bool dbl;
	unsigned clicks; /* presses of a click: 1, 2 (--double) or 3 */
	/* Where the pointer is instead of x, y (a click, mouse-down or -up without a point). */
	bool at_pointer;
	/* Keys held down around a pointer action (--hold shift+ctrl), a combo; NULL: none. */
	const char *hold;
	/* drag --path: the points in order (x, y the first, x2, y2 the last); 0: a plain drag. */
	unsigned path[ACT_PATH_MAX][2];
	size_t n_path;
	enum act_scroll dir;
	unsigned amount;
	/* type: the text (not NUL-terminated), or a file to read, or standard input (neither). */
	const char *text;
	size_t text_len;
	const char *file;
	unsigned delay_ms;
	/* key */
	const char *keys[ACT_KEYS_MAX];
	size_t n_keys;
	enum act_key_mode key_mode;
	uint64_t hold_ms; /* key --hold-for: the combo is held this long, then let go; 0: tapped */
	/* screenshot */
	unsigned max_w, max_h; /* 0: full size */
	bool region;
	unsigned rx, ry, rw, rh;
	enum act_format format;
	int quality;
	const char *output; /* NULL: a data URL on stdout; "-": the bytes on stdout */
	bool enlarge; /* a region smaller than max is scaled up to it (the MCP computer's zoom) */
	/* pointer actions' --changes: the screen's regions drawn in the moment after (act.h) */
	bool changes;
	/* waits (`wait` pauses timeout_ms); tree and find's bound on the whole call */
	uint64_t timeout_ms, quiet_ms;
	/* clipboard get/set: PRIMARY instead of CLIPBOARD; set's text is text/text_len (NULL:
	 * standard input); open's TARGET and launch's NAME are text too */
	bool primary;
	/* window: what to do to which window, and where (move: x, y; resize: w, h) */
	enum act_win_op win_op;
	unsigned long win_id;
	int win_x, win_y;
	unsigned win_w, win_h;
	/* tree, find and --element (act/a11y.h) */
	const char *window; /* --window: a window's node id or its title */
	unsigned depth;     /* --depth: levels shown from the applications (or the window); 0 all */
	const char *role;   /* --role */
	const char *name;   /* --name */
	const char *element; /* click and type --element: ROLE:NAME or a node id */
};

/* The command's name as typed, and back. */
const char *act_cmd_name(enum act_cmd cmd);
/* Click, move, drag, scroll, mouse-down and mouse-up: the pointer's actions. */
bool act_is_pointer(enum act_cmd cmd);
/* Whether botdesk-act-pointer (XCB, no keyboard map) can do the request: a pointer action with
 * no keys held and a point to go to. The others go to botdesk-act. */
bool act_by_pointer_program(const struct act_req *rq);
/* tree, find, and click or type on an --element: what botdesk-act-a11y does (the only program
 * that loads libatspi). */
bool act_is_a11y(const struct act_req *rq);
const char *act_button_name(unsigned button);
const char *act_scroll_name(enum act_scroll dir);
const char *act_win_op_name(enum act_win_op op);

/* Writes " --OPTION" to f for each option the action NAME takes (botdesk --list-commands, the
 * shell completion's source); false when NAME is no action. */
bool act_print_options(const char *name, FILE *f);

/* Defaults for cmd. */
void act_req_init(struct act_req *rq, enum act_cmd cmd);

/* Parses argv (argv[0] is the command's name) into rq. -EINVAL with a message naming the
 * argument for anything wrong: the caller's exit 2. argv is not reordered; pointers
 * into it are kept. */
int act_parse_argv(int argc, char **argv, struct act_req *rq, struct error *err);

/* Text for `type`: valid UTF-8, no control characters but newline and tab. what names the
 * source in the message ("TEXT", "--file x", "standard input"). */
int act_check_text(const char *text, size_t len, const char *what, size_t *ret_chars,
		   struct error *err);

/* Text for the clipboard: valid UTF-8 (any character), at most ACT_CLIP_MAX bytes. */
int act_check_clip_text(const char *text, size_t len, const char *what, struct error *err);

/* Where a request's points fall on the screen (actpoints.c). */

/* A picture coordinate to the screen's: the centre of the screen area the picture's pixel p was
 * averaged from, as the thumbnail scaled it (pixel p of a picture `pic` wide covers screen
 * [p * screen / pic, (p + 1) * screen / pic)). */
unsigned act_from_picture(unsigned p, unsigned pic, unsigned screen);
/* A screen coordinate to the picture pixel whose area holds it. */
unsigned act_to_picture(unsigned s, unsigned screen, unsigned pic);

/* The request's pointer coordinates on a sw x sh screen: scaled when they are in a picture,
 * then checked. -EINVAL naming the argument when a point is off the screen. */
int act_resolve_points(const struct act_req *rq, unsigned sw, unsigned sh, unsigned *x, unsigned *y,
		       unsigned *x2, unsigned *y2, struct error *err);
/* A drag's path (rq->n_path points) on a sw x sh screen into ret, as act_resolve_points(). */
int act_resolve_path(const struct act_req *rq, unsigned sw, unsigned sh, unsigned (*ret)[2],
		     struct error *err);
/* -EINVAL when the screenshot's region does not lie on a sw x sh screen. */
int act_check_region(const struct act_req *rq, unsigned sw, unsigned sh, struct error *err);
