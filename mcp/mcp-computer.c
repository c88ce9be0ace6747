/* Anthropic's computer tool (mcp-computer.h): its input, one action, into the plan's steps. */
#include "mcp-computer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp-plan.h"
#include "strtable.h"
#include "util.h"

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
	int r = plan_coord(json_array_get(v, 0), name, x, err);
	return r ? r : plan_coord(json_array_get(v, 1), name, y, err);
}

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
	const char *t = plan_string(args, "text");
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
				rq = plan_add(p, ACT_KEY, "key", 0, err);
			}
			const char *c = rq ? plan_keep(p, s, n, err) : NULL;
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
	struct act_req *rq = plan_add(p, ACT_CLICK, action_names[a], 0, err);
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
	size_t i = strtable_index(plan_string(args, "scroll_direction"), dirs, ARRAY_SIZE(dirs));
	if (i == ARRAY_SIZE(dirs)) {
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
	struct act_req *rq = plan_add(p, amount ? ACT_SCROLL : ACT_MOVE, "scroll", 0, err);
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
		if (plan_coord(json_array_get(v, i), "region", &c[i], err) < 0) {
			return -EINVAL;
		}
	}
	if (c[2] <= c[0] || c[3] <= c[1]) {
		return error_set(
			err, -EINVAL,
			"invalid arguments: 'region' [x0, y0, x1, y1] needs x1 > x0 and y1 > y0");
	}
	struct act_req *rq = plan_add(p, ACT_SCREENSHOT, "zoom", 0, err);
	if (!rq) {
		return -EINVAL;
	}
	rq->format = ACT_FORMAT_JPEG;
	rq->region = true;
	/* Scaled to the model picture's size (mcp-planrun.c sets it), up as well as down: a zoom
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
	struct act_req *rq = plan_add(p, cmds[a], action_names[a], 0, err);
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
	const char *text = plan_string(args, "text");
	if (!text || !*text) {
		return error_set(err, -EINVAL, "invalid arguments: '%s' needs 'text'",
				 action_names[a]);
	}
	if (a == A_KEY) {
		return keys(args, text, p, err);
	}
	struct act_req *rq = plan_add(p, a == A_TYPE ? ACT_TYPE : ACT_KEY, action_names[a], 0, err);
	if (!rq) {
		return -EINVAL;
	}
	if (a == A_TYPE) {
		return plan_text(rq, text, err);
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
	plan_begin(p, 1, MCP_ANSWER_TEXT);
	size_t a =
		strtable_index(plan_string(args, "action"), action_names, ARRAY_SIZE(action_names));
	if (a == ARRAY_SIZE(action_names)) {
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
		return plan_add(p, ACT_CURSOR, "cursor_position", 0, err) ? 0 : -EINVAL;
	case A_SCREENSHOT:
		p->answer = MCP_ANSWER_PICTURE;
		rq = plan_add(p, ACT_SCREENSHOT, "screenshot", 0, err);
		if (rq) {
			rq->format = ACT_FORMAT_JPEG;
		}
		return rq ? 0 : -EINVAL;
	case A_WAIT:
		rq = plan_add(p, ACT_WAIT, "wait", 0, err);
		return rq ? seconds(args, ACT_HOLD_MAX_MS, &rq->timeout_ms, err) : -EINVAL;
	}
	return -EINVAL;
}
