/* The arguments of the desktop actions' tools (mcp-args.h), read into action requests. */
#include "mcp-args.h"

#include <stdint.h>
#include <string.h>

#include "acttable.h"
#include "parse.h"
#include "picture.h"
#include "strtable.h"
#include "util.h"

/* Reads an optional member of a type; -EINVAL naming it when it is of another. */
int args_member(json_t *args, const char *name, int type, bool required, json_t **ret,
		struct error *err)
{
	json_t *v = json_object_get(args, name);
	*ret = v;
	if (!v) {
		return required ? error_set(err, -EINVAL, "invalid arguments: '%s' is required",
					    name)
				: 0;
	}
	bool ok = type == JSON_REAL ? json_is_number(v) : json_typeof(v) == (json_type)type;
	if (type == JSON_TRUE) {
		ok = json_is_boolean(v);
	}
	if (!ok) {
		static const char *const names[] = {"an object",  "an array", "a string",
						    "an integer", "a number", "a boolean"};
		static const int types[] = {JSON_OBJECT, JSON_ARRAY, JSON_STRING, JSON_INTEGER,
					    JSON_REAL};
		size_t i = 0;
		while (i < ARRAY_SIZE(types) && types[i] != type) {
			i++;
		}
		return error_set(err, -EINVAL, "invalid arguments: '%s' must be %s", name,
				 names[i]);
	}
	return 0;
}

static int uint_member(json_t *args, const char *name, bool required, unsigned min, unsigned max,
		       unsigned *ret, struct error *err)
{
	json_t *v;
	int r = args_member(args, name, JSON_INTEGER, required, &v, err);
	if (r < 0 || !v) {
		return r;
	}
	json_int_t n = json_integer_value(v);
	if (n < (json_int_t)min || n > (json_int_t)max) {
		return error_set(err, -EINVAL,
				 "invalid arguments: '%s' must be from %u to %u, not %lld", name,
				 min, max, (long long)n);
	}
	*ret = (unsigned)n;
	return 0;
}

/* An enum member: the index of its value in values, or -EINVAL. */
static int enum_member(json_t *args, const char *name, bool required, const char *const *values,
		       size_t n, int *ret, struct error *err)
{
	json_t *v;
	int r = args_member(args, name, JSON_STRING, required, &v, err);
	if (r < 0 || !v) {
		return r;
	}
	size_t i = strtable_index(json_string_value(v), values, n);
	if (i == n) {
		return error_set(err, -EINVAL, "invalid arguments: '%s' cannot be '%s'", name,
				 json_string_value(v));
	}
	*ret = (int)i;
	return 0;
}

int args_seconds(json_t *args, const char *name, uint64_t max_ms, uint64_t *ret, struct error *err)
{
	json_t *v;
	int r = args_member(args, name, JSON_REAL, false, &v, err);
	if (r < 0 || !v) {
		return r;
	}
	double s = json_number_value(v);
	if (!(s > 0) || s * 1000 > (double)max_ms) {
		return error_set(err, -EINVAL,
				 "invalid arguments: '%s' must be seconds above 0, up to %llu",
				 name, (unsigned long long)(max_ms / 1000));
	}
	*ret = (uint64_t)(s * 1000 + 0.5);
	*ret = *ret ? *ret : 1;
	return 0;
}

static int geometry_member(json_t *args, const char *name, unsigned min, unsigned *w, unsigned *h,
			   struct error *err)
{
	json_t *v;
	int r = args_member(args, name, JSON_STRING, false, &v, err);
	if (r < 0 || !v) {
		return r;
	}
	unsigned max = min == PICTURE_SIDE_MIN ? PICTURE_SIDE_MAX : ACT_COORD_MAX;
	if (parse_geometry(json_string_value(v), min, max, w, h) < 0) {
		return error_set(
			err, -EINVAL,
			"invalid arguments: '%s' must be WIDTHxHEIGHT, e.g. 960x600, not '%s'",
			name, json_string_value(v));
	}
	return 0;
}

/* Every member of args is one the tool knows. */
int args_known_only(json_t *args, const char *const *known, struct error *err)
{
	const char *k;
	json_t *v;
	json_object_foreach(args, k, v)
	{
		bool ok = false;
		for (size_t i = 0; known[i]; i++) {
			ok = ok || streq(k, known[i]);
		}
		if (!ok) {
			return error_set(err, -EINVAL, "invalid arguments: the tool takes no '%s'",
					 k);
		}
	}
	return 0;
}

/* A match of the accessibility tree's (role, name, window, element): one line of printable
 * text, 1 to ACT_MATCH_MAX bytes; NULL when absent. */
static int match_member(json_t *a, const char *name, const char **ret, struct error *err)
{
	json_t *v;
	int r = args_member(a, name, JSON_STRING, false, &v, err);
	if (r < 0 || !v) {
		return r;
	}
	size_t len = json_string_length(v), chars;
	const char *s = json_string_value(v);
	if (len == 0 || len > ACT_MATCH_MAX || strlen(s) != len || strpbrk(s, "\n\t") ||
	    act_check_text(s, len, name, &chars, err) < 0) {
		return error_set(err, -EINVAL,
				 "invalid arguments: '%s' must be one line of text, 1 to %d bytes",
				 name, ACT_MATCH_MAX);
	}
	*ret = s;
	return 0;
}

/* tree and find (act/a11y.h). */
static int a11y_args(json_t *a, struct act_req *rq, struct error *err)
{
	int r = match_member(a, "window", &rq->window, err);
	if (r == 0 && rq->cmd == ACT_TREE) {
		r = uint_member(a, "depth", false, 1, ACT_DEPTH_MAX, &rq->depth, err);
	}
	if (r == 0 && rq->cmd == ACT_FIND) {
		r = match_member(a, "role", &rq->role, err);
		r = r ? r : match_member(a, "name", &rq->name, err);
	}
	return r;
}

static int pointer_args(json_t *a, struct act_req *rq, struct error *err)
{
	static const char *const buttons[] = {"left", "middle", "right"};
	static const char *const dirs[] = {"up", "down", "left", "right"};
	int r = geometry_member(a, "from", 1, &rq->from_w, &rq->from_h, err);
	if (r == 0 && rq->cmd == ACT_CLICK) {
		r = match_member(a, "element", &rq->element, err);
	}
	if (r == 0 && rq->element) {
		/* The element says where: no point of the model's with it. */
		if (json_object_get(a, "x") || json_object_get(a, "y") || rq->from_w) {
			r = error_set(err, -EINVAL,
				      "invalid arguments: give x and y, or element, not both");
		}
	} else if (r == 0 && rq->cmd == ACT_DRAG) {
		r = uint_member(a, "x1", true, 0, ACT_COORD_MAX, &rq->x, err);
		r = r ? r : uint_member(a, "y1", true, 0, ACT_COORD_MAX, &rq->y, err);
		r = r ? r : uint_member(a, "x2", true, 0, ACT_COORD_MAX, &rq->x2, err);
		r = r ? r : uint_member(a, "y2", true, 0, ACT_COORD_MAX, &rq->y2, err);
	} else if (r == 0 && rq->cmd != ACT_CURSOR) {
		r = uint_member(a, "x", true, 0, ACT_COORD_MAX, &rq->x, err);
		r = r ? r : uint_member(a, "y", true, 0, ACT_COORD_MAX, &rq->y, err);
	}
	int b = 0;
	if (r == 0 && (rq->cmd == ACT_CLICK || rq->cmd == ACT_DRAG)) {
		r = enum_member(a, "button", false, buttons, 3, &b, err);
		rq->button = (unsigned)b + 1;
	}
	json_t *dbl;
	if (r == 0 && rq->cmd == ACT_CLICK) {
		r = args_member(a, "double", JSON_TRUE, false, &dbl, err);
		rq->dbl = dbl && json_is_true(dbl);
		rq->clicks = rq->dbl ? 2 : 1;
	}
	int d = 0;
	if (r == 0 && rq->cmd == ACT_SCROLL) {
		r = enum_member(a, "direction", true, dirs, 4, &d, err);
		rq->dir = (enum act_scroll)d;
		r = r ? r : uint_member(a, "amount", false, 1, ACT_SCROLL_MAX, &rq->amount, err);
	}
	json_t *chg;
	if (r == 0 && rq->cmd != ACT_CURSOR) {
		r = args_member(a, "changes", JSON_TRUE, false, &chg, err);
		rq->changes = chg && json_is_true(chg);
	}
	if (r == 0 && rq->changes && rq->element) {
		r = error_set(err, -EINVAL, "invalid arguments: changes is not taken with element");
	}
	return r;
}

static int key_args(json_t *a, struct act_req *rq, struct error *err)
{
	static const char *const modes[] = {"tap", "press", "release"};
	json_t *keys;
	int r = args_member(a, "keys", JSON_ARRAY, true, &keys, err);
	if (r < 0) {
		return r;
	}
	size_t n = json_array_size(keys);
	if (n == 0 || n > ACT_KEYS_MAX) {
		return error_set(err, -EINVAL, "invalid arguments: 'keys' takes 1 to %d combos",
				 ACT_KEYS_MAX);
	}
	for (size_t i = 0; i < n; i++) {
		json_t *k = json_array_get(keys, i);
		if (!json_is_string(k) || json_string_length(k) == 0 ||
		    json_string_length(k) > ACT_COMBO_MAX) {
			return error_set(
				err, -EINVAL,
				"invalid arguments: 'keys' holds combos as strings, e.g. \"ctrl+l\"");
		}
		rq->keys[i] = json_string_value(k);
	}
	rq->n_keys = n;
	int m = 0;
	r = enum_member(a, "mode", false, modes, 3, &m, err);
	rq->key_mode = (enum act_key_mode)m;
	return r ? r : uint_member(a, "delay_ms", false, 0, ACT_DELAY_MAX_MS, &rq->delay_ms, err);
}

static int screenshot_args(json_t *a, struct act_req *rq, struct error *err)
{
	static const char *const formats[] = {"png", "jpeg"};
	int r = geometry_member(a, "max", PICTURE_SIDE_MIN, &rq->max_w, &rq->max_h, err);
	r = r ? r : geometry_member(a, "from", 1, &rq->from_w, &rq->from_h, err);
	json_t *region;
	r = r ? r : args_member(a, "region", JSON_ARRAY, false, &region, err);
	if (r == 0 && region) {
		unsigned v[4];
		if (json_array_size(region) != 4) {
			return error_set(err, -EINVAL,
					 "invalid arguments: 'region' is [x, y, width, height]");
		}
		for (size_t i = 0; i < 4; i++) {
			json_t *e = json_array_get(region, i);
			json_int_t n = json_is_integer(e) ? json_integer_value(e) : -1;
			if (n < (i < 2 ? 0 : 1) || n > ACT_COORD_MAX) {
				return error_set(
					err, -EINVAL,
					"invalid arguments: 'region' is [x, y, width, height], whole pixels, width and height above 0");
			}
			v[i] = (unsigned)n;
		}
		rq->region = true;
		rq->rx = v[0];
		rq->ry = v[1];
		rq->rw = v[2];
		rq->rh = v[3];
	}
	/* JPEG unless asked for PNG: a picture scaled to the model's size has no long runs left
	 * for deflate, and its PNG costs five times the JPEG's encode (docs/mcp.md). */
	int f = ACT_FORMAT_JPEG;
	r = r ? r : enum_member(a, "format", false, formats, 2, &f, err);
	rq->format = (enum act_format)f;
	unsigned q = ACT_QUALITY_DEFAULT;
	r = r ? r : uint_member(a, "quality", false, 1, 100, &q, err);
	rq->quality = (int)q;
	return r;
}

/* clipboard_get {primary}, clipboard_set {text, primary} */
static int clipboard_args(json_t *a, struct act_req *rq, struct error *err)
{
	json_t *primary, *text = NULL;
	int r = args_member(a, "primary", JSON_TRUE, false, &primary, err);
	if (r == 0 && rq->cmd == ACT_CLIPBOARD_SET) {
		r = args_member(a, "text", JSON_STRING, true, &text, err);
	}
	if (r < 0) {
		return r;
	}
	rq->primary = primary && json_is_true(primary);
	if (!text) {
		return 0;
	}
	rq->text = json_string_value(text);
	rq->text_len = json_string_length(text);
	return act_check_clip_text(rq->text, rq->text_len, "'text'", err);
}

static int int_member(json_t *a, const char *name, int *ret, struct error *err)
{
	json_t *v;
	int r = args_member(a, name, JSON_INTEGER, true, &v, err);
	if (r < 0) {
		return r;
	}
	json_int_t i = json_integer_value(v);
	if (i < -ACT_COORD_MAX || i > ACT_COORD_MAX) {
		return error_set(err, -EINVAL, "invalid arguments: '%s' must be -%d to %d", name,
				 ACT_COORD_MAX, ACT_COORD_MAX);
	}
	*ret = (int)i;
	return 0;
}

/* window {action, id, x, y | width, height} */
static int window_args(json_t *a, struct act_req *rq, struct error *err)
{
	static const char *const ops[] = {"focus", "close", "move", "resize"};
	int op = 0;
	json_t *id = NULL;
	int r = enum_member(a, "action", true, ops, ARRAY_SIZE(ops), &op, err);
	r = r ? r : args_member(a, "id", JSON_STRING, true, &id, err);
	if (r < 0) {
		return r;
	}
	rq->win_op = (enum act_win_op)op;
	const char *s = json_string_value(id);
	uint64_t v;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	if ((hex ? parse_hex_u64(s + 2, UINT32_MAX, &v) : parse_u64(s, UINT32_MAX, &v)) < 0 ||
	    v == 0) {
		return error_set(
			err, -EINVAL,
			"invalid arguments: 'id' must be a window id from the windows tool, e.g. 0x1a00007, not '%s'",
			s);
	}
	rq->win_id = (unsigned long)v;
	if (rq->win_op == ACT_WIN_MOVE) {
		r = int_member(a, "x", &rq->win_x, err);
		return r ? r : int_member(a, "y", &rq->win_y, err);
	}
	if (rq->win_op == ACT_WIN_RESIZE) {
		r = uint_member(a, "width", true, 1, ACT_COORD_MAX, &rq->win_w, err);
		return r ? r : uint_member(a, "height", true, 1, ACT_COORD_MAX, &rq->win_h, err);
	}
	return 0;
}

static int type_args(json_t *a, struct act_req *rq, struct error *err)
{
	json_t *text;
	size_t chars;
	int r = args_member(a, "text", JSON_STRING, true, &text, err);
	if (r == 0) {
		r = match_member(a, "element", &rq->element, err);
	}
	if (r == 0) {
		r = uint_member(a, "delay_ms", false, 0, ACT_DELAY_MAX_MS, &rq->delay_ms, err);
	}
	if (r < 0) {
		return r;
	}
	rq->text = json_string_value(text);
	rq->text_len = json_string_length(text);
	return act_check_text(rq->text, rq->text_len, "'text'", &chars, err);
}

/* open {target}, launch {name}: the CLI's positional, read by the action's row. */
static int open_args(json_t *a, struct act_req *rq, struct error *err)
{
	json_t *v;
	const char *key = rq->cmd == ACT_OPEN ? "target" : "name";
	int r = args_member(a, key, JSON_STRING, true, &v, err);
	if (r < 0) {
		return r;
	}
	char *args[] = {(char *)(uintptr_t)json_string_value(v)};
	r = act_actions[rq->cmd].positionals(rq, 1, args, err);
	return r < 0 ? error_set(err, -EINVAL, "invalid arguments: %s", err->msg) : 0;
}

/* wait {for, timeout, quiet}: one tool for both waits, `for` says which. */
static int wait_args(json_t *a, struct act_req *rq, struct error *err)
{
	static const char *const fors[] = {"change", "idle"};
	int f = 0;
	int r = enum_member(a, "for", true, fors, 2, &f, err);
	rq->cmd = f == 0 ? ACT_WAIT_CHANGE : ACT_WAIT_IDLE;
	if (r == 0) {
		r = args_seconds(a, "timeout", ACT_WAIT_MAX_MS, &rq->timeout_ms, err);
	}
	return r ? r : args_seconds(a, "quiet", ACT_WAIT_MAX_MS, &rq->quiet_ms, err);
}

/* Each action's reader of its tool's arguments; an action without one takes none of its own
 * (its row's mcp_args list none). */
static int (*const readers[ACT_CMD_COUNT])(json_t *a, struct act_req *rq, struct error *err) = {
	[ACT_SCREENSHOT] = screenshot_args,
	[ACT_CLICK] = pointer_args,
	[ACT_MOVE] = pointer_args,
	[ACT_DRAG] = pointer_args,
	[ACT_SCROLL] = pointer_args,
	[ACT_CURSOR] = pointer_args,
	[ACT_TYPE] = type_args,
	[ACT_KEY] = key_args,
	[ACT_CLIPBOARD_GET] = clipboard_args,
	[ACT_CLIPBOARD_SET] = clipboard_args,
	[ACT_WINDOW] = window_args,
	[ACT_OPEN] = open_args,
	[ACT_LAUNCH] = open_args,
	[ACT_TREE] = a11y_args,
	[ACT_FIND] = a11y_args,
	[ACT_WAIT_IDLE] = wait_args,
	[ACT_WAIT_CHANGE] = wait_args,
};

int args_action(json_t *a, struct act_req *rq, struct error *err)
{
	return rq->cmd < ACT_CMD_COUNT && readers[rq->cmd] ? readers[rq->cmd](a, rq, err) : 0;
}
