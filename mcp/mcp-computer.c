#include "mcp-computer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modelpic.h"
#include "util.h"

/* A new step of cmd for input item `item`; NULL (with the message) when the plan is full. */
static struct act_req *add(struct mcp_plan *p, enum act_cmd cmd, const char *what, size_t item,
			   struct error *err)
{
	if (p->n == MCP_STEPS_MAX) {
		error_set(err, -EINVAL,
			  "invalid arguments: the call comes to more than %d steps; split it",
			  MCP_STEPS_MAX);
		return NULL;
	}
	struct act_req *rq = &p->steps[p->n];
	act_req_init(rq, cmd);
	p->item[p->n] = item;
	p->what[p->n] = what;
	p->n++;
	return rq;
}

/* A copy of s kept in the plan (the steps point to it); NULL when it does not fit. */
static const char *keep(struct mcp_plan *p, const char *s, size_t len, struct error *err)
{
	if (p->n_strings == ARRAY_SIZE(p->strings) || len >= sizeof(p->strings[0])) {
		error_set(err, -EINVAL, "invalid arguments: a key combo too long, or too many");
		return NULL;
	}
	char *d = p->strings[p->n_strings++];
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

/* A number that is a pixel coordinate (a whole number, or one the model wrote with a fraction,
 * rounded). */
static int coord(json_t *v, const char *name, unsigned *ret, struct error *err)
{
	double d = -1;
	if (json_is_integer(v)) {
		d = (double)json_integer_value(v);
	} else if (json_is_real(v)) {
		d = json_real_value(v);
	}
	if (!(d >= 0) || d > ACT_COORD_MAX) {
		return error_set(err, -EINVAL,
				 "invalid arguments: '%s' must hold pixel coordinates from 0 to %d",
				 name, ACT_COORD_MAX);
	}
	*ret = (unsigned)(d + 0.5);
	return 0;
}

/* [x, y] */
static int pair(json_t *args, const char *name, bool required, unsigned *x, unsigned *y,
		bool *ret_given, struct error *err)
{
	json_t *v = json_object_get(args, name);
	*ret_given = v != NULL && !json_is_null(v);
	if (!*ret_given) {
		return required
			       ? error_set(
					 err, -EINVAL,
					 "invalid arguments: '%s' [x, y] is required for this action",
					 name)
			       : 0;
	}
	if (!json_is_array(v) || json_array_size(v) != 2) {
		return error_set(err, -EINVAL, "invalid arguments: '%s' must be [x, y]", name);
	}
	int r = coord(json_array_get(v, 0), name, x, err);
	return r ? r : coord(json_array_get(v, 1), name, y, err);
}

static const char *string_member(json_t *args, const char *name)
{
	json_t *v = json_object_get(args, name);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* -------- Anthropic -------- */

enum action {
	A_KEY,
	A_HOLD_KEY,
	A_TYPE,
	A_CURSOR_POSITION,
	A_MOUSE_MOVE,
	A_LEFT_MOUSE_DOWN,
	A_LEFT_MOUSE_UP,
	A_LEFT_CLICK,
	A_LEFT_CLICK_DRAG,
	A_RIGHT_CLICK,
	A_MIDDLE_CLICK,
	A_DOUBLE_CLICK,
	A_TRIPLE_CLICK,
	A_SCROLL,
	A_WAIT,
	A_SCREENSHOT,
	A_ZOOM,
};

static const char *const action_names[] = {
	[A_KEY] = "key",
	[A_HOLD_KEY] = "hold_key",
	[A_TYPE] = "type",
	[A_CURSOR_POSITION] = "cursor_position",
	[A_MOUSE_MOVE] = "mouse_move",
	[A_LEFT_MOUSE_DOWN] = "left_mouse_down",
	[A_LEFT_MOUSE_UP] = "left_mouse_up",
	[A_LEFT_CLICK] = "left_click",
	[A_LEFT_CLICK_DRAG] = "left_click_drag",
	[A_RIGHT_CLICK] = "right_click",
	[A_MIDDLE_CLICK] = "middle_click",
	[A_DOUBLE_CLICK] = "double_click",
	[A_TRIPLE_CLICK] = "triple_click",
	[A_SCROLL] = "scroll",
	[A_WAIT] = "wait",
	[A_SCREENSHOT] = "screenshot",
	[A_ZOOM] = "zoom",
};

/* The modifiers held during a click, drag, scroll or move: `text`, xdotool's syntax ("shift",
 * "ctrl+shift"), read by act/keys.c as it is. */
static int modifiers(json_t *args, struct act_req *rq)
{
	const char *t = string_member(args, "text");
	rq->hold = t && *t ? t : NULL;
	return 0;
}

/* `key`: xdotool's syntax, combos separated by spaces ("ctrl+a Delete"), repeated `repeat`
 * times (the toolset's), 64 combos a step. */
static int keys(json_t *args, const char *text, struct mcp_plan *p, struct error *err)
{
	unsigned repeat = 1;
	json_t *rv = json_object_get(args, "repeat");
	if (rv &&
	    (!json_is_integer(rv) || json_integer_value(rv) < 1 || json_integer_value(rv) > 100)) {
		return error_set(err, -EINVAL, "invalid arguments: 'repeat' must be 1 to 100");
	}
	repeat = rv ? (unsigned)json_integer_value(rv) : 1;
	struct act_req *rq = NULL;
	for (unsigned k = 0; k < repeat; k++) {
		for (const char *s = text; *s;) {
			s += strspn(s, " ");
			size_t n = strcspn(s, " ");
			if (n == 0) {
				break;
			}
			if (!rq || rq->n_keys == ACT_KEYS_MAX) {
				rq = add(p, ACT_KEY, "key", 0, err);
			}
			const char *c = rq ? keep(p, s, n, err) : NULL;
			if (!c) {
				return -EINVAL;
			}
			rq->keys[rq->n_keys++] = c;
			s += n;
		}
	}
	return rq ? 0
		  : error_set(
			    err, -EINVAL,
			    "invalid arguments: 'text' names the keys, e.g. \"ctrl+a\" or \"Return\"");
}

static int seconds(json_t *args, uint64_t max_ms, uint64_t *ret, struct error *err)
{
	json_t *v = json_object_get(args, "duration");
	double s = json_is_number(v) ? json_number_value(v) : -1;
	if (!(s > 0) || s * 1000 > (double)max_ms) {
		return error_set(
			err, -EINVAL,
			"invalid arguments: 'duration' must be seconds above 0, up to %llu",
			(unsigned long long)(max_ms / 1000));
	}
	*ret = (uint64_t)(s * 1000 + 0.5);
	*ret = *ret ? *ret : 1;
	return 0;
}

static int clicks(json_t *args, enum action a, struct mcp_plan *p, struct error *err)
{
	struct act_req *rq = add(p, ACT_CLICK, action_names[a], 0, err);
	if (!rq) {
		return -EINVAL;
	}
	bool given;
	int r = pair(args, "coordinate", false, &rq->x, &rq->y, &given, err);
	rq->at_pointer = !given;
	static const unsigned buttons[] = {
		[A_RIGHT_CLICK] = 3, [A_MIDDLE_CLICK] = 2, [A_TRIPLE_CLICK] = 0};
	static const unsigned counts[] = {[A_DOUBLE_CLICK] = 2, [A_TRIPLE_CLICK] = 3};
	rq->button = buttons[a] ? buttons[a] : 1;
	rq->clicks = counts[a] ? counts[a] : 1;
	rq->dbl = rq->clicks == 2;
	return r ? r : modifiers(args, rq);
}

static int scroll(json_t *args, struct mcp_plan *p, struct error *err)
{
	static const char *const dirs[] = {"up", "down", "left", "right"};
	const char *d = string_member(args, "scroll_direction");
	size_t i = 0;
	while (d && i < ARRAY_SIZE(dirs) && !streq(d, dirs[i])) {
		i++;
	}
	if (!d || i == ARRAY_SIZE(dirs)) {
		return error_set(
			err, -EINVAL,
			"invalid arguments: 'scroll_direction' must be up, down, left or right");
	}
	json_t *av = json_object_get(args, "scroll_amount");
	json_int_t amount = json_is_integer(av) ? json_integer_value(av) : -1;
	if (amount < 0 || amount > ACT_SCROLL_MAX) {
		return error_set(err, -EINVAL,
				 "invalid arguments: 'scroll_amount' must be wheel steps, 0 to %d",
				 ACT_SCROLL_MAX);
	}
	/* No steps: the pointer goes there, nothing scrolls. */
	struct act_req *rq = add(p, amount ? ACT_SCROLL : ACT_MOVE, "scroll", 0, err);
	if (!rq) {
		return -EINVAL;
	}
	bool given;
	int r = pair(args, "coordinate", false, &rq->x, &rq->y, &given, err);
	if (r == 0 && !given && !amount) {
		p->n--; /* nowhere to go, nothing to scroll */
		return 0;
	}
	rq->at_pointer = !given;
	rq->dir = (enum act_scroll)i;
	rq->amount = (unsigned)amount;
	return r ? r : modifiers(args, rq);
}

static int zoom(json_t *args, struct mcp_plan *p, struct error *err)
{
	json_t *v = json_object_get(args, "region");
	unsigned c[4];
	if (!json_is_array(v) || json_array_size(v) != 4) {
		return error_set(err, -EINVAL,
				 "invalid arguments: 'region' must be [x0, y0, x1, y1]");
	}
	for (size_t i = 0; i < 4; i++) {
		if (coord(json_array_get(v, i), "region", &c[i], err) < 0) {
			return -EINVAL;
		}
	}
	if (c[2] <= c[0] || c[3] <= c[1]) {
		return error_set(
			err, -EINVAL,
			"invalid arguments: 'region' [x0, y0, x1, y1] needs x1 > x0 and y1 > y0");
	}
	struct act_req *rq = add(p, ACT_SCREENSHOT, "zoom", 0, err);
	if (!rq) {
		return -EINVAL;
	}
	rq->format = ACT_FORMAT_JPEG;
	rq->region = true;
	/* Scaled to the model picture's size (mcp-main.c sets it), up as well as down: a zoom
	 * shows a small region at more of the model's tiles than the screenshot gave it. */
	rq->enlarge = true;
	rq->rx = c[0];
	rq->ry = c[1];
	rq->rw = c[2] - c[0];
	rq->rh = c[3] - c[1];
	p->zoom = true;
	p->answer = MCP_ANSWER_PICTURE;
	return 0;
}

/* The pointer's other actions: move, button down and up, drag. */
static int pointer(json_t *args, enum action a, struct mcp_plan *p, struct error *err)
{
	static const enum act_cmd cmds[] = {
		[A_MOUSE_MOVE] = ACT_MOVE,
		[A_LEFT_MOUSE_DOWN] = ACT_MOUSE_DOWN,
		[A_LEFT_MOUSE_UP] = ACT_MOUSE_UP,
		[A_LEFT_CLICK_DRAG] = ACT_DRAG,
	};
	struct act_req *rq = add(p, cmds[a], action_names[a], 0, err);
	if (!rq) {
		return -EINVAL;
	}
	bool given, start;
	int r;
	if (a == A_LEFT_CLICK_DRAG) {
		/* Without start_coordinate (computer_20241022's form) from where the pointer is. */
		r = pair(args, "start_coordinate", false, &rq->x, &rq->y, &start, err);
		r = r ? r : pair(args, "coordinate", true, &rq->x2, &rq->y2, &given, err);
		rq->at_pointer = !start;
	} else {
		r = pair(args, "coordinate", a == A_MOUSE_MOVE, &rq->x, &rq->y, &given, err);
		rq->at_pointer = !given;
	}
	return r ? r : modifiers(args, rq);
}

static int keyboard(json_t *args, enum action a, struct mcp_plan *p, struct error *err)
{
	const char *text = string_member(args, "text");
	if (!text || !*text) {
		return error_set(err, -EINVAL, "invalid arguments: '%s' needs 'text'",
				 action_names[a]);
	}
	if (a == A_KEY) {
		return keys(args, text, p, err);
	}
	struct act_req *rq = add(p, a == A_TYPE ? ACT_TYPE : ACT_KEY, action_names[a], 0, err);
	if (!rq) {
		return -EINVAL;
	}
	if (a == A_TYPE) {
		size_t chars;
		rq->text = text;
		rq->text_len = strlen(text);
		return act_check_text(rq->text, rq->text_len, "'text'", &chars, err);
	}
	if (strchr(text, ' ') || strlen(text) > ACT_COMBO_MAX) {
		return error_set(err, -EINVAL,
				 "invalid arguments: hold_key holds one combo, e.g. \"shift\"");
	}
	rq->keys[0] = text;
	rq->n_keys = 1;
	return seconds(args, ACT_HOLD_MAX_MS, &rq->hold_ms, err);
}

int mcp_computer_plan(json_t *args, struct mcp_plan *p, struct error *err)
{
	p->n = p->n_strings = 0;
	p->items = 1;
	p->zoom = false;
	p->answer = MCP_ANSWER_TEXT;
	const char *name = string_member(args, "action");
	size_t a = 0;
	while (name && a < ARRAY_SIZE(action_names) && !streq(name, action_names[a])) {
		a++;
	}
	if (!name || a == ARRAY_SIZE(action_names)) {
		return error_set(
			err, -EINVAL,
			"invalid arguments: 'action' must be one of key, hold_key, type, "
			"cursor_position, mouse_move, left_mouse_down, left_mouse_up, "
			"left_click, left_click_drag, right_click, middle_click, double_click, "
			"triple_click, scroll, wait, screenshot, zoom");
	}
	struct act_req *rq;
	switch ((enum action)a) {
	case A_KEY:
	case A_HOLD_KEY:
	case A_TYPE:
		return keyboard(args, (enum action)a, p, err);
	case A_LEFT_CLICK:
	case A_RIGHT_CLICK:
	case A_MIDDLE_CLICK:
	case A_DOUBLE_CLICK:
	case A_TRIPLE_CLICK:
		return clicks(args, (enum action)a, p, err);
	case A_MOUSE_MOVE:
	case A_LEFT_MOUSE_DOWN:
	case A_LEFT_MOUSE_UP:
	case A_LEFT_CLICK_DRAG:
		return pointer(args, (enum action)a, p, err);
	case A_SCROLL:
		return scroll(args, p, err);
	case A_ZOOM:
		return zoom(args, p, err);
	case A_CURSOR_POSITION:
		p->answer = MCP_ANSWER_CURSOR;
		return add(p, ACT_CURSOR, "cursor_position", 0, err) ? 0 : -EINVAL;
	case A_SCREENSHOT:
		p->answer = MCP_ANSWER_PICTURE;
		rq = add(p, ACT_SCREENSHOT, "screenshot", 0, err);
		if (rq) {
			rq->format = ACT_FORMAT_JPEG;
		}
		return rq ? 0 : -EINVAL;
	case A_WAIT:
		rq = add(p, ACT_WAIT, "wait", 0, err);
		return rq ? seconds(args, ACT_HOLD_MAX_MS, &rq->timeout_ms, err) : -EINVAL;
	}
	return -EINVAL;
}

/* -------- OpenAI -------- */

bool mcp_key_name(const char *name, char *buf, size_t size)
{
	/* OpenAI's names (upper case, DOM-like) that act/keys.c spells otherwise. */
	static const struct {
		const char *from, *to;
	} names[] = {
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
	const char *out = low;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (streq(low, names[i].from)) {
			out = names[i].to;
		}
	}
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
	*ret = keep(p, c, strlen(c), err);
	return *ret ? 0 : -EINVAL;
}

static int xy(json_t *action, struct act_req *rq, struct error *err)
{
	int r = coord(json_object_get(action, "x"), "x", &rq->x, err);
	return r ? r : coord(json_object_get(action, "y"), "y", &rq->y, err);
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
		if (coord(json_object_get(pt, "x"), "path", &rq->path[i][0], err) < 0 ||
		    coord(json_object_get(pt, "y"), "path", &rq->path[i][1], err) < 0) {
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

/* One wheel direction of OpenAI's scroll: |px| pixels as wheel steps. */
static int wheel(json_t *action, long px, enum act_scroll neg, enum act_scroll pos, size_t item,
		 const char *hold, struct mcp_plan *p, struct error *err)
{
	if (px == 0) {
		return 0;
	}
	struct act_req *rq = add(p, ACT_SCROLL, "scroll", item, err);
	if (!rq) {
		return -EINVAL;
	}
	long steps = (labs(px) + MCP_WHEEL_STEP_PX / 2) / MCP_WHEEL_STEP_PX;
	steps = steps < 1 ? 1 : steps;
	rq->amount = (unsigned)(steps > ACT_SCROLL_MAX ? ACT_SCROLL_MAX : steps);
	rq->dir = px < 0 ? neg : pos;
	rq->hold = hold;
	return xy(action, rq, err);
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

static int openai_action(json_t *action, size_t item, struct mcp_plan *p, struct error *err)
{
	static const char *const types[] = {"click",    "double_click", "drag",
					    "keypress", "move",         "screenshot",
					    "scroll",   "type",         "wait"};
	const char *type = json_is_object(action) ? string_member(action, "type") : NULL;
	size_t t = 0;
	while (type && t < ARRAY_SIZE(types) && !streq(type, types[t])) {
		t++;
	}
	if (!type || t == ARRAY_SIZE(types)) {
		return error_set(
			err, -EINVAL,
			"invalid arguments: action %zu: 'type' must be one of click, "
			"double_click, drag, keypress, move, screenshot, scroll, type, wait",
			item + 1);
	}
	const char *hold = NULL;
	int r = t == 3 ? 0 : combo(json_object_get(action, "keys"), p, &hold, err);
	struct act_req *rq = NULL;
	static const enum act_cmd cmds[] = {ACT_CLICK,     ACT_CLICK,  ACT_DRAG, ACT_KEY, ACT_MOVE,
					    ACT_CMD_COUNT, ACT_SCROLL, ACT_TYPE, ACT_WAIT};
	if (r == 0 && cmds[t] != ACT_CMD_COUNT && cmds[t] != ACT_SCROLL) {
		rq = add(p, cmds[t], types[t], item, err);
		r = rq ? 0 : -EINVAL;
	}
	if (r < 0 || cmds[t] == ACT_CMD_COUNT) {
		return r; /* a screenshot: the one after the last action is the answer */
	}
	switch (cmds[t]) {
	case ACT_CLICK: {
		static const char *const buttons[] = {"left", "wheel", "right", "back", "forward"};
		static const unsigned x_buttons[] = {1, 2, 3, 8, 9};
		const char *b = string_member(action, "button");
		size_t i = 0;
		while (b && i < ARRAY_SIZE(buttons) && !streq(b, buttons[i])) {
			i++;
		}
		if ((b || t == 0) && (!b || i == ARRAY_SIZE(buttons))) {
			return error_set(err, -EINVAL,
					 "invalid arguments: a click's 'button' must be left, "
					 "right, wheel, back or forward");
		}
		rq->button = b ? x_buttons[i] : 1;
		rq->clicks = t == 1 ? 2 : 1;
		rq->dbl = t == 1;
		rq->hold = hold;
		return xy(action, rq, err);
	}
	case ACT_DRAG:
		rq->hold = hold;
		return path(action, rq, err);
	case ACT_MOVE:
		rq->hold = hold;
		return xy(action, rq, err);
	case ACT_KEY:
		r = combo(json_object_get(action, "keys"), p, &rq->keys[0], err);
		if (r == 0 && !rq->keys[0]) {
			r = error_set(err, -EINVAL, "invalid arguments: a keypress needs 'keys'");
		}
		rq->n_keys = 1;
		return r;
	case ACT_TYPE: {
		const char *text = string_member(action, "text");
		size_t chars;
		if (!text) {
			return error_set(err, -EINVAL, "invalid arguments: a type needs 'text'");
		}
		rq->text = text;
		rq->text_len = strlen(text);
		return act_check_text(text, rq->text_len, "'text'", &chars, err);
	}
	case ACT_WAIT:
		rq->timeout_ms = MCP_OPENAI_WAIT_MS;
		return 0;
	default: {
		long sx = 0, sy = 0;
		r = scroll_px(action, "scroll_y", &sy, err);
		r = r ? r : scroll_px(action, "scroll_x", &sx, err);
		/* Down and right are positive, as the page's scroll offsets grow. */
		r = r ? r : wheel(action, sy, ACT_SCROLL_UP, ACT_SCROLL_DOWN, item, hold, p, err);
		r = r ? r
		      : wheel(action, sx, ACT_SCROLL_LEFT, ACT_SCROLL_RIGHT, item, hold, p, err);
		if (r == 0 && sx == 0 && sy == 0 && (rq = add(p, ACT_MOVE, "scroll", item, err))) {
			rq->hold = hold;
			r = xy(action, rq, err);
		}
		return r;
	}
	}
}

int mcp_computer_actions_plan(json_t *args, struct mcp_plan *p, struct error *err)
{
	p->n = p->n_strings = 0;
	p->zoom = false;
	p->answer = MCP_ANSWER_SCREEN;
	json_t *list = json_object_get(args, "actions"), *one = json_object_get(args, "action");
	if ((list && one) || (!list && !one)) {
		return error_set(err, -EINVAL,
				 "invalid arguments: give 'actions', the list of actions (or one "
				 "'action')");
	}
	if (one) {
		p->items = 1;
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
