#include "mcp-proto.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "acttable.h"
#include "base64.h"
#include "lease.h"
#include "parse.h"
#include "picture.h"
#include "util.h"

int mcp_parse(const char *line, size_t len, struct mcp_msg *msg, struct error *err)
{
	*msg = (struct mcp_msg){0};
	json_error_t jerr;
	/* Duplicate keys are refused: two "method"s would let a reader and this server disagree
	 * about what was asked. jansson checks UTF-8 and refuses NUL in strings. */
	msg->root = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!msg->root) {
		return error_set(err, MCP_PARSE_ERROR, "parse error: %s (at character %d)",
				 jerr.text, jerr.position);
	}
	if (!json_is_object(msg->root)) {
		return error_set(
			err, MCP_INVALID_REQUEST,
			"invalid request: a message is one JSON object (batches are not part of this protocol revision)");
	}
	json_t *id = json_object_get(msg->root, "id");
	if (id && (json_is_string(id) || json_is_integer(id))) {
		msg->id = id;
	} else if (id) {
		return error_set(err, MCP_INVALID_REQUEST,
				 "invalid request: id must be a string or an integer");
	}
	json_t *v = json_object_get(msg->root, "jsonrpc");
	if (!json_is_string(v) || !streq(json_string_value(v), "2.0")) {
		return error_set(err, MCP_INVALID_REQUEST,
				 "invalid request: jsonrpc must be \"2.0\"");
	}
	json_t *m = json_object_get(msg->root, "method");
	if (!json_is_string(m)) {
		return error_set(
			err, MCP_INVALID_REQUEST,
			"invalid request: method must be a string (this server sends no requests, so it expects no responses)");
	}
	msg->method = json_string_value(m);
	json_t *params = json_object_get(msg->root, "params");
	if (params && !json_is_object(params)) {
		return error_set(err, MCP_INVALID_REQUEST,
				 "invalid request: params must be an object");
	}
	msg->params = params;
	return 0;
}

void mcp_msg_free(struct mcp_msg *msg)
{
	json_decref(msg->root);
	*msg = (struct mcp_msg){0};
}

/* The server's own tools; the desktop's actions are the vocabulary's (act/acttable.c). */
static const struct {
	const char *name;
	const char *const *args;
	const char *json;
} own_tools[] = {
	[MCP_TOOL_STATUS] =
		{"status", (const char *const[]){NULL},
		 "{\"name\":\"status\",\"description\":\"Whether the desktop runs, its display, size, memory and idle time.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}}"},
	[MCP_TOOL_START] =
		{"start", (const char *const[]){"wait", NULL},
		 "{\"name\":\"start\",\"description\":\"Starts the desktop unless it runs (idempotent) and returns its status.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"wait\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":3600,\"description\":\"seconds, default 30\"}},\"additionalProperties\":false}}"},
	[MCP_TOOL_LEASE] =
		{"lease", (const char *const[]){NULL},
		 "{\"name\":\"lease\",\"description\":\"Who controls the desktop: the agent, or a human (then every action is refused until they hand it back).\",\"inputSchema\":{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}}"},
	[MCP_TOOL_BATCH] =
		{"batch", (const char *const[]){"steps", NULL},
		 "{\"name\":\"batch\",\"description\":\"Runs several of this server's tools in one call, in order, each step with the arguments it takes alone (e.g. [{\\\"tool\\\":\\\"click\\\",\\\"arguments\\\":{\\\"x\\\":10,\\\"y\\\":20}},{\\\"tool\\\":\\\"type\\\",\\\"arguments\\\":{\\\"text\\\":\\\"hi\\\"}}]). Stops at the first step that fails, and at once when a human takes the desktop, with nothing more sent. The result is each step's result (the pictures follow it), and which step stopped and why.\","
		 "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"steps\":{\"type\":\"array\",\"minItems\":1,\"maxItems\":64,\"items\":{\"type\":\"object\",\"properties\":{\"tool\":{\"type\":\"string\",\"description\":\"a tool of this server other than batch\"},\"arguments\":{\"type\":\"object\",\"description\":\"the tool's arguments\"}},\"required\":[\"tool\"],\"additionalProperties\":false}}},\"required\":[\"steps\"],\"additionalProperties\":false}}"},
	/* The models' own vocabularies, as they emit them (mcp-computer.h; docs/mcp.md). */
	[MCP_TOOL_COMPUTER] = {"computer",
			       (const char *const[]){"action", "coordinate", "start_coordinate",
						     "text", "scroll_direction", "scroll_amount",
						     "duration", "region", "repeat", NULL},
			       "{\"name\":\"computer\",\"description\":\"Anthropic's computer tool (computer_20250124, computer_20251124) taken as the model emits it: coordinates in the default screenshot's pixels, text in xdotool's key syntax (and the modifiers held on a click, drag or scroll). Answers a screenshot or zoom with the picture, cursor_position with X=..,Y=.., the other actions with what was done.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"action\":{\"type\":\"string\",\"enum\":[\"key\",\"hold_key\",\"type\",\"cursor_position\",\"mouse_move\",\"left_mouse_down\",\"left_mouse_up\",\"left_click\",\"left_click_drag\",\"right_click\",\"middle_click\",\"double_click\",\"triple_click\",\"scroll\",\"wait\",\"screenshot\",\"zoom\"]},\"coordinate\":{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"minimum\":0},\"minItems\":2,\"maxItems\":2},\"start_coordinate\":{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"minimum\":0},\"minItems\":2,\"maxItems\":2},\"text\":{\"type\":\"string\"},\"scroll_direction\":{\"type\":\"string\",\"enum\":[\"up\",\"down\",\"left\",\"right\"]},\"scroll_amount\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":100},\"duration\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":300},\"region\":{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"minimum\":0},\"minItems\":4,\"maxItems\":4},\"repeat\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100}},\"required\":[\"action\"],\"additionalProperties\":false}}"},
	[MCP_TOOL_COMPUTER_ACTIONS] =
		{"computer_actions", (const char *const[]){"actions", "action", NULL},
		 "{\"name\":\"computer_actions\",\"description\":\"OpenAI's computer-use actions taken as the model emits them (click, double_click, drag, keypress, move, screenshot, scroll, type, wait), run in order, stopping at the first failure or when a human takes the desktop; answered with one screenshot after the last. Coordinates in the default screenshot's pixels.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"actions\":{\"type\":\"array\",\"maxItems\":32,\"items\":{\"type\":\"object\",\"properties\":{\"type\":{\"type\":\"string\",\"enum\":[\"click\",\"double_click\",\"drag\",\"keypress\",\"move\",\"screenshot\",\"scroll\",\"type\",\"wait\"]}},\"required\":[\"type\"]}},\"action\":{\"type\":\"object\",\"description\":\"one action, as computer_use_preview sends it\"}},\"additionalProperties\":false}}"},
	[MCP_TOOL_ASK] =
		{"ask_human", (const char *const[]){"reason", NULL},
		 "{\"name\":\"ask_human\",\"description\":\"Asks for a human's help (a login, a CAPTCHA, a decision): the request shows in the lease and in the browser viewer's bar until a human takes the desktop. Then every action is refused until they hand it back; call lease to see.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"reason\":{\"type\":\"string\",\"maxLength\":200,\"description\":\"what the human should do, one line\"}},\"additionalProperties\":false}}"},
};

static int append_tool(json_t *tools, const char *text)
{
	json_t *t = json_loads(text, 0, NULL);
	return t ? json_array_append_new(tools, t) : -1;
}

json_t *mcp_tools_list(void)
{
	json_t *tools = json_array();
	int r = tools ? 0 : -1;
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(act_actions); i++) {
		if (act_actions[i].mcp_json) {
			r = append_tool(tools, act_actions[i].mcp_json);
		}
	}
	for (size_t i = MCP_TOOL_STATUS; r == 0 && i < ARRAY_SIZE(own_tools); i++) {
		r = append_tool(tools, own_tools[i].json);
	}
	if (r < 0) {
		json_decref(tools);
		return NULL;
	}
	return json_pack("{s:o}", "tools", tools);
}

/* Reads an optional member of a type; -EINVAL naming it when it is of another. */
static int member(json_t *args, const char *name, int type, bool required, json_t **ret,
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
	int r = member(args, name, JSON_INTEGER, required, &v, err);
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
	int r = member(args, name, JSON_STRING, required, &v, err);
	if (r < 0 || !v) {
		return r;
	}
	for (size_t i = 0; i < n; i++) {
		if (streq(json_string_value(v), values[i])) {
			*ret = (int)i;
			return 0;
		}
	}
	return error_set(err, -EINVAL, "invalid arguments: '%s' cannot be '%s'", name,
			 json_string_value(v));
}

static int seconds_member(json_t *args, const char *name, uint64_t max_ms, uint64_t *ret,
			  struct error *err)
{
	json_t *v;
	int r = member(args, name, JSON_REAL, false, &v, err);
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
	int r = member(args, name, JSON_STRING, false, &v, err);
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
static int known_only(json_t *args, const char *const *known, struct error *err)
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
	int r = member(a, name, JSON_STRING, false, &v, err);
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
		r = member(a, "double", JSON_TRUE, false, &dbl, err);
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
		r = member(a, "changes", JSON_TRUE, false, &chg, err);
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
	int r = member(a, "keys", JSON_ARRAY, true, &keys, err);
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
	r = r ? r : member(a, "region", JSON_ARRAY, false, &region, err);
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
	int r = member(a, "primary", JSON_TRUE, false, &primary, err);
	if (r == 0 && rq->cmd == ACT_CLIPBOARD_SET) {
		r = member(a, "text", JSON_STRING, true, &text, err);
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
	int r = member(a, name, JSON_INTEGER, true, &v, err);
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
	r = r ? r : member(a, "id", JSON_STRING, true, &id, err);
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

/* The request's members from a desktop tool's arguments. */
static int action_args(json_t *a, struct act_req *rq, struct error *err)
{
	switch (rq->cmd) {
	case ACT_SCREENSHOT:
		return screenshot_args(a, rq, err);
	case ACT_CLICK:
	case ACT_MOVE:
	case ACT_DRAG:
	case ACT_SCROLL:
	case ACT_CURSOR:
		return pointer_args(a, rq, err);
	case ACT_TYPE: {
		json_t *text;
		size_t chars;
		int r = member(a, "text", JSON_STRING, true, &text, err);
		if (r == 0) {
			r = match_member(a, "element", &rq->element, err);
		}
		if (r == 0) {
			r = uint_member(a, "delay_ms", false, 0, ACT_DELAY_MAX_MS, &rq->delay_ms,
					err);
		}
		if (r < 0) {
			return r;
		}
		rq->text = json_string_value(text);
		rq->text_len = json_string_length(text);
		return act_check_text(rq->text, rq->text_len, "'text'", &chars, err);
	}
	case ACT_KEY:
		return key_args(a, rq, err);
	case ACT_CLIPBOARD_GET:
	case ACT_CLIPBOARD_SET:
		return clipboard_args(a, rq, err);
	case ACT_WINDOW:
		return window_args(a, rq, err);
	case ACT_OPEN:
	case ACT_LAUNCH: {
		json_t *v;
		const char *key = rq->cmd == ACT_OPEN ? "target" : "name";
		int r = member(a, key, JSON_STRING, true, &v, err);
		if (r < 0) {
			return r;
		}
		char *args[] = {(char *)(uintptr_t)json_string_value(v)};
		r = act_actions[rq->cmd].positionals(rq, 1, args, err);
		return r < 0 ? error_set(err, -EINVAL, "invalid arguments: %s", err->msg) : 0;
	}
	case ACT_TREE:
	case ACT_FIND:
		return a11y_args(a, rq, err);
	case ACT_WAIT_IDLE:
	case ACT_WAIT_CHANGE: {
		static const char *const fors[] = {"change", "idle"};
		int f = 0;
		int r = enum_member(a, "for", true, fors, 2, &f, err);
		rq->cmd = f == 0 ? ACT_WAIT_CHANGE : ACT_WAIT_IDLE;
		if (r == 0) {
			r = seconds_member(a, "timeout", ACT_WAIT_MAX_MS, &rq->timeout_ms, err);
		}
		return r ? r : seconds_member(a, "quiet", ACT_WAIT_MAX_MS, &rq->quiet_ms, err);
	}
	default:
		return 0;
	}
}

/* The tool params name: a desktop action's row, else one of the server's own tools. */
static int find_tool(json_t *params, enum mcp_tool *ret_tool, const struct act_action **ret_action,
		     const char *const **ret_known, struct error *err)
{
	json_t *name = params ? json_object_get(params, "name") : NULL;
	if (!json_is_string(name)) {
		return error_set(err, MCP_INVALID_PARAMS,
				 "invalid params: tools/call needs a tool 'name'");
	}
	const struct act_action *action = act_action_by_tool(json_string_value(name));
	*ret_action = action;
	if (action) {
		*ret_tool = MCP_TOOL_ACTION;
		*ret_known = action->mcp_args;
		return 0;
	}
	for (size_t i = MCP_TOOL_STATUS; i < ARRAY_SIZE(own_tools); i++) {
		if (streq(json_string_value(name), own_tools[i].name)) {
			*ret_tool = (enum mcp_tool)i;
			*ret_known = own_tools[i].args;
			return 0;
		}
	}
	return error_set(err, MCP_INVALID_PARAMS, "unknown tool '%s'", json_string_value(name));
}

int mcp_tool_args(json_t *params, enum mcp_tool *ret_tool, struct act_req *rq,
		  uint64_t *ret_wait_ms, struct error *err)
{
	const struct act_action *action = NULL;
	const char *const *known = NULL;
	int r = find_tool(params, ret_tool, &action, &known, err);
	if (r) {
		return r;
	}
	json_t *a = json_object_get(params, "arguments");
	_cleanup_(json_decrefp) json_t *empty = NULL;
	if (!a) {
		a = empty = json_object();
	} else if (!json_is_object(a)) {
		return error_set(err, MCP_INVALID_PARAMS,
				 "invalid params: 'arguments' must be an object");
	}
	act_req_init(rq, action ? (enum act_cmd)(action - act_actions) : ACT_CURSOR);
	*ret_wait_ms = 30000;
	r = known_only(a, known, err);
	if (r == 0 && action) {
		r = action_args(a, rq, err);
	} else if (r == 0 && *ret_tool == MCP_TOOL_START) {
		r = seconds_member(a, "wait", 3600 * 1000, ret_wait_ms, err);
	} else if (r == 0 && *ret_tool == MCP_TOOL_ASK) {
		json_t *reason;
		r = member(a, "reason", JSON_STRING, false, &reason, err);
		if (r == 0 && reason && !lease_reason_valid(json_string_value(reason))) {
			r = error_set(
				err, -EINVAL,
				"invalid arguments: 'reason' must be one line of at most %d bytes",
				LEASE_REASON_MAX);
		}
		rq->text = r == 0 && reason ? json_string_value(reason) : NULL;
	}
	return r;
}

/* msg (stolen; NULL when building it failed) as one line, or NULL. */
static char *line_of(json_t *msg)
{
	_cleanup_free_ char *s = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
	json_decref(msg);
	char *line = NULL;
	if (s && asprintf(&line, "%s\n", s) < 0) {
		line = NULL;
	}
	return line;
}

/* A result's images, taken out of it while jansson writes the rest: jansson walks a string one
 * code point at a time, 5 ms for a screenshot's megabyte of base64, which needs no escaping and
 * is copied in whole instead. Each leaves a marker no other string holds (a random nonce). */
#define MCP_IMAGES_MAX 8

struct spliced {
	json_t *data[MCP_IMAGES_MAX]; /* the base64 strings taken out (owned) */
	char marker[MCP_IMAGES_MAX][48];
	size_t n;
};

static void take_images(json_t *result, struct spliced *sp)
{
	json_t *content = json_object_get(result, "content"), *item;
	size_t i;
	uint64_t nonce = 0;
	if (getrandom(&nonce, sizeof(nonce), 0) != sizeof(nonce)) {
		return; /* written whole, as jansson does */
	}
	json_array_foreach(content, i, item)
	{
		json_t *data = json_object_get(item, "data");
		if (sp->n == MCP_IMAGES_MAX || !json_is_string(data)) {
			continue;
		}
		snprintf(sp->marker[sp->n], sizeof(sp->marker[0]), "bd-image-%016llx-%zu",
			 (unsigned long long)nonce, sp->n);
		json_t *marker = json_string(sp->marker[sp->n]);
		if (!marker) {
			continue;
		}
		sp->data[sp->n] = json_incref(data);
		json_object_set_new(item, "data", marker);
		sp->n++;
	}
}

/* s with each marker replaced by its base64, and a newline; NULL when out of memory. */
static char *splice(const char *s, const struct spliced *sp)
{
	size_t len = strlen(s) + 2;
	for (size_t k = 0; k < sp->n; k++) {
		len += json_string_length(sp->data[k]);
	}
	char *line = malloc(len), *o = line;
	if (!line) {
		return NULL;
	}
	for (size_t k = 0; k < sp->n; k++) {
		const char *m = strstr(s, sp->marker[k]);
		if (!m) {
			continue;
		}
		memcpy(o, s, (size_t)(m - s));
		o += m - s;
		memcpy(o, json_string_value(sp->data[k]), json_string_length(sp->data[k]));
		o += json_string_length(sp->data[k]);
		s = m + strlen(sp->marker[k]);
	}
	size_t rest = strlen(s);
	memcpy(o, s, rest);
	o[rest] = '\n';
	o[rest + 1] = '\0';
	return line;
}

char *mcp_result_line(json_t *id, json_t *result)
{
	struct spliced sp = {.n = 0};
	if (result) {
		take_images(result, &sp);
	}
	json_t *msg = json_pack("{s:s,s:O?,s:o}", "jsonrpc", "2.0", "id", id, "result", result);
	char *s = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
	json_decref(msg);
	char *line = s ? splice(s, &sp) : NULL;
	free(s);
	for (size_t k = 0; k < sp.n; k++) {
		json_decref(sp.data[k]);
	}
	return line;
}

char *mcp_error_line(json_t *id, int code, const char *message, json_t *data)
{
	return line_of(json_pack("{s:s,s:O?,s:{s:i,s:s,s:o*}}", "jsonrpc", "2.0", "id", id, "error",
				 "code", code, "message", message, "data", data));
}

json_t *mcp_tool_result(json_t *content, bool is_error)
{
	return json_pack("{s:o,s:b}", "content", content, "isError", is_error);
}

json_t *mcp_text(const char *text)
{
	return json_pack("{s:s,s:s}", "type", "text", "text", text);
}

json_t *mcp_image(const unsigned char *data, size_t len, const char *mime)
{
	size_t n = base64_len(len);
	_cleanup_free_ char *out = malloc(n + 1);
	if (!out) {
		return NULL;
	}
	base64_encode(data, len, out);
	json_t *s = json_stringn_nocheck(out, n);
	return s ? json_pack("{s:s,s:o,s:s}", "type", "image", "data", s, "mimeType", mime) : NULL;
}
