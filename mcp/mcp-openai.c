/* OpenAI's computer-use actions (mcp-computer.h): the `actions` list, or one `action`, into the
 * plan's steps, each action's type read by its row of a table. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp-computer.h"
#include "mcp-plan.h"
#include "strtable.h"
#include "util.h"

bool mcp_key_name(const char *name, char *buf, size_t size)
{
	/* OpenAI's names (upper case, DOM-like) that act/keys.c spells otherwise. */
	static const struct str_pair names[] = {
		{"arrowleft", "Left"},
		{"arrowright", "Right"},
		{"arrowup", "Up"},
		{"arrowdown", "Down"},
		{"cmd", "super"},
		{"command", "super"},
		{"meta", "super"},
		{"win", "super"},
		{"option", "alt"},
		{"numlock", "Num_Lock"},
		{"scrolllock", "Scroll_Lock"},
		{"pause", "Pause"},
	};
	char low[64];
	size_t n = strlen(name);
	if (n == 0 || n >= sizeof(low)) {
		return false;
	}
	for (size_t i = 0; i <= n; i++) {
		low[i] = (char)tolower((unsigned char)name[i]);
	}
	const char *out = strtable_value(names, ARRAY_SIZE(names), low);
	out = out ? out : low;
	/* One character keeps its case but a letter's ("A" with CTRL is ctrl+a, not ctrl+A):
	 * a '+' is "plus" inside a combo. */
	if (n == 1 && name[0] == '+') {
		out = "plus";
	} else if (n == 1 || (unsigned char)name[0] >= 0x80) {
		out = isalpha((unsigned char)name[0]) ? low : name;
	}
	return snprintf(buf, size, "%s", out) < (int)size;
}

/* keys: ["CTRL", "A"] as one combo "ctrl+a" kept in the plan; NULL members make none. */
static int combo(json_t *keys, struct mcp_plan *p, const char **ret, struct error *err)
{
	*ret = NULL;
	if (!keys || json_is_null(keys)) {
		return 0;
	}
	if (!json_is_array(keys) || json_array_size(keys) > 8) {
		return error_set(err, -EINVAL,
				 "invalid arguments: 'keys' must be a list of key names, e.g. "
				 "[\"CTRL\", \"A\"]");
	}
	if (json_array_size(keys) == 0) {
		return 0;
	}
	char c[128] = "";
	size_t i;
	json_t *k;
	json_array_foreach(keys, i, k)
	{
		char one[64];
		if (!json_is_string(k) || !mcp_key_name(json_string_value(k), one, sizeof(one)) ||
		    strlen(c) + strlen(one) + 2 > sizeof(c)) {
			return error_set(err, -EINVAL,
					 "invalid arguments: 'keys' must be a list of key names, "
					 "e.g. [\"CTRL\", \"A\"]");
		}
		if (i) {
			strcat(c, "+");
		}
		strcat(c, one);
	}
	*ret = plan_keep(p, c, strlen(c), err);
	return *ret ? 0 : -EINVAL;
}

static int xy(json_t *action, struct act_req *rq, struct error *err)
{
	int r = plan_coord(json_object_get(action, "x"), "x", &rq->x, err);
	return r ? r : plan_coord(json_object_get(action, "y"), "y", &rq->y, err);
}

static int path(json_t *action, struct act_req *rq, struct error *err)
{
	json_t *v = json_object_get(action, "path"), *pt;
	size_t n = json_array_size(v), i;
	if (!json_is_array(v) || n < 2 || n > ACT_PATH_MAX) {
		return error_set(err, -EINVAL,
				 "invalid arguments: a drag's 'path' is 2 to %d points {x, y}",
				 ACT_PATH_MAX);
	}
	json_array_foreach(v, i, pt)
	{
		if (plan_coord(json_object_get(pt, "x"), "path", &rq->path[i][0], err) < 0 ||
		    plan_coord(json_object_get(pt, "y"), "path", &rq->path[i][1], err) < 0) {
			return -EINVAL;
		}
	}
	rq->n_path = n;
	rq->x = rq->path[0][0];
	rq->y = rq->path[0][1];
	rq->x2 = rq->path[n - 1][0];
	rq->y2 = rq->path[n - 1][1];
	return 0;
}

/* One action being read: the action, its index in the list, the modifiers its `keys` hold. */
struct openai_call {
	json_t *action;
	size_t item;
	const char *hold;
	struct mcp_plan *p;
};

/* One wheel direction of OpenAI's scroll: |px| pixels as wheel steps. */
static int wheel(const struct openai_call *c, long px, enum act_scroll neg, enum act_scroll pos,
		 struct error *err)
{
	if (px == 0) {
		return 0;
	}
	struct act_req *rq = plan_add(c->p, ACT_SCROLL, "scroll", c->item, err);
	if (!rq) {
		return -EINVAL;
	}
	long steps = (labs(px) + MCP_WHEEL_STEP_PX / 2) / MCP_WHEEL_STEP_PX;
	steps = steps < 1 ? 1 : steps;
	rq->amount = (unsigned)(steps > ACT_SCROLL_MAX ? ACT_SCROLL_MAX : steps);
	rq->dir = px < 0 ? neg : pos;
	rq->hold = c->hold;
	return xy(c->action, rq, err);
}

static int scroll_px(json_t *action, const char *name, long *ret, struct error *err)
{
	json_t *v = json_object_get(action, name);
	if (v && !json_is_null(v) && !json_is_number(v)) {
		return error_set(err, -EINVAL, "invalid arguments: '%s' must be pixels", name);
	}
	double d = v ? json_number_value(v) : 0;
	if (d < -1e6 || d > 1e6) {
		return error_set(err, -EINVAL, "invalid arguments: '%s' is out of range", name);
	}
	*ret = (long)(d < 0 ? d - 0.5 : d + 0.5);
	return 0;
}

/* A click presses the button it names; a double click the left one unless it names one. */
static int press(const struct openai_call *c, struct act_req *rq, unsigned clicks,
		 struct error *err)
{
	static const char *const buttons[] = {"left", "wheel", "right", "back", "forward"};
	static const unsigned x_buttons[] = {1, 2, 3, 8, 9};
	const char *b = plan_string(c->action, "button");
	size_t i = strtable_index(b, buttons, ARRAY_SIZE(buttons));
	if ((b || clicks == 1) && i == ARRAY_SIZE(buttons)) {
		return error_set(err, -EINVAL,
				 "invalid arguments: a click's 'button' must be left, right, "
				 "wheel, back or forward");
	}
	rq->button = b ? x_buttons[i] : 1;
	rq->clicks = clicks;
	rq->dbl = clicks == 2;
	rq->hold = c->hold;
	return xy(c->action, rq, err);
}

static int read_click(const struct openai_call *c, struct act_req *rq, struct error *err)
{
	return press(c, rq, 1, err);
}

static int read_double_click(const struct openai_call *c, struct act_req *rq, struct error *err)
{
	return press(c, rq, 2, err);
}

static int read_drag(const struct openai_call *c, struct act_req *rq, struct error *err)
{
	rq->hold = c->hold;
	return path(c->action, rq, err);
}

static int read_keypress(const struct openai_call *c, struct act_req *rq, struct error *err)
{
	int r = combo(json_object_get(c->action, "keys"), c->p, &rq->keys[0], err);
	if (r == 0 && !rq->keys[0]) {
		r = error_set(err, -EINVAL, "invalid arguments: a keypress needs 'keys'");
	}
	rq->n_keys = 1;
	return r;
}

static int read_move(const struct openai_call *c, struct act_req *rq, struct error *err)
{
	rq->hold = c->hold;
	return xy(c->action, rq, err);
}

/* Its steps its own: one a wheel direction, or a move where it scrolls by nothing. */
static int read_scroll(const struct openai_call *c, struct act_req *rq, struct error *err)
{
	long sx = 0, sy = 0;
	int r = scroll_px(c->action, "scroll_y", &sy, err);
	r = r ? r : scroll_px(c->action, "scroll_x", &sx, err);
	/* Down and right are positive, as the page's scroll offsets grow. */
	r = r ? r : wheel(c, sy, ACT_SCROLL_UP, ACT_SCROLL_DOWN, err);
	r = r ? r : wheel(c, sx, ACT_SCROLL_LEFT, ACT_SCROLL_RIGHT, err);
	if (r == 0 && sx == 0 && sy == 0 &&
	    (rq = plan_add(c->p, ACT_MOVE, "scroll", c->item, err))) {
		r = read_move(c, rq, err);
	}
	return r;
}

static int read_type(const struct openai_call *c, struct act_req *rq, struct error *err)
{
	const char *text = plan_string(c->action, "text");
	return text ? plan_text(rq, text, err)
		    : error_set(err, -EINVAL, "invalid arguments: a type needs 'text'");
}

static int read_wait(const struct openai_call *c, struct act_req *rq, struct error *err)
{
	(void)c;
	(void)err;
	rq->timeout_ms = MCP_OPENAI_WAIT_MS;
	return 0;
}

enum openai_type {
	O_CLICK,
	O_DOUBLE_CLICK,
	O_DRAG,
	O_KEYPRESS,
	O_MOVE,
	O_SCREENSHOT,
	O_SCROLL,
	O_TYPE,
	O_WAIT,
};

static const char *const type_names[] = {
	[O_CLICK] = "click",   [O_DOUBLE_CLICK] = "double_click",
	[O_DRAG] = "drag",     [O_KEYPRESS] = "keypress",
	[O_MOVE] = "move",     [O_SCREENSHOT] = "screenshot",
	[O_SCROLL] = "scroll", [O_TYPE] = "type",
	[O_WAIT] = "wait",
};

/* An action type: the step it adds (ACT_CMD_COUNT: none of its own) and what reads the rest of
 * it into the step (NULL: nothing). A screenshot adds none: the one after the last action is
 * the call's answer. */
static const struct {
	enum act_cmd cmd;
	int (*read)(const struct openai_call *c, struct act_req *rq, struct error *err);
} types[] = {
	[O_CLICK] = {ACT_CLICK, read_click},
	[O_DOUBLE_CLICK] = {ACT_CLICK, read_double_click},
	[O_DRAG] = {ACT_DRAG, read_drag},
	[O_KEYPRESS] = {ACT_KEY, read_keypress},
	[O_MOVE] = {ACT_MOVE, read_move},
	[O_SCREENSHOT] = {ACT_CMD_COUNT, NULL},
	[O_SCROLL] = {ACT_CMD_COUNT, read_scroll},
	[O_TYPE] = {ACT_TYPE, read_type},
	[O_WAIT] = {ACT_WAIT, read_wait},
};

static int openai_action(json_t *action, size_t item, struct mcp_plan *p, struct error *err)
{
	const char *name = json_is_object(action) ? plan_string(action, "type") : NULL;
	size_t t = strtable_index(name, type_names, ARRAY_SIZE(type_names));
	if (t == ARRAY_SIZE(type_names)) {
		return error_set(
			err, -EINVAL,
			"invalid arguments: action %zu: 'type' must be one of click, "
			"double_click, drag, keypress, move, screenshot, scroll, type, wait",
			item + 1);
	}
	struct openai_call c = {.action = action, .item = item, .p = p};
	/* Every type's `keys` but a keypress's are the modifiers held while it runs. */
	int r = t == O_KEYPRESS ? 0 : combo(json_object_get(action, "keys"), p, &c.hold, err);
	struct act_req *rq = NULL;
	if (r == 0 && types[t].cmd != ACT_CMD_COUNT) {
		rq = plan_add(p, types[t].cmd, type_names[t], item, err);
		r = rq ? 0 : -EINVAL;
	}
	return r == 0 && types[t].read ? types[t].read(&c, rq, err) : r;
}

int mcp_computer_actions_plan(json_t *args, struct mcp_plan *p, struct error *err)
{
	json_t *list = json_object_get(args, "actions"), *one = json_object_get(args, "action");
	plan_begin(p, 1, MCP_ANSWER_SCREEN);
	if ((list && one) || (!list && !one)) {
		return error_set(err, -EINVAL,
				 "invalid arguments: give 'actions', the list of actions (or one "
				 "'action')");
	}
	if (one) {
		return openai_action(one, 0, p, err);
	}
	if (!json_is_array(list) || json_array_size(list) > MCP_ACTIONS_MAX) {
		return error_set(err, -EINVAL,
				 "invalid arguments: 'actions' is a list of at most %d",
				 MCP_ACTIONS_MAX);
	}
	p->items = json_array_size(list);
	size_t i;
	json_t *action;
	json_array_foreach(list, i, action)
	{
		if (openai_action(action, i, p, err) < 0) {
			return -EINVAL;
		}
	}
	return 0;
}
