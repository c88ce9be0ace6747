#include "mcp-proto.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "parse.h"
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

static const char *const tool_names[MCP_TOOL_COUNT] = {
	[MCP_TOOL_SCREENSHOT] = "screenshot",
	[MCP_TOOL_CLICK] = "click",
	[MCP_TOOL_MOVE] = "move",
	[MCP_TOOL_DRAG] = "drag",
	[MCP_TOOL_SCROLL] = "scroll",
	[MCP_TOOL_TYPE] = "type",
	[MCP_TOOL_KEY] = "key",
	[MCP_TOOL_CURSOR] = "cursor",
	[MCP_TOOL_WAIT] = "wait",
	[MCP_TOOL_STATUS] = "status",
	[MCP_TOOL_START] = "start",
	[MCP_TOOL_LEASE] = "lease",
};

/* The tools as clients see them. Coordinates are in the default screenshot's pixels (sized for
 * the model, act/modelpic.h) unless "from" names the size of the picture they were read from (a
 * screenshot with max, a thumbnail, the screen itself): the server scales them exactly as that
 * picture was scaled. */
#define COORD "{\"type\":\"integer\",\"minimum\":0,\"maximum\":65535}"
#define FROM                                                                              \
	"\"from\":{\"type\":\"string\",\"pattern\":\"^[0-9]+x[0-9]+$\",\"description\":"  \
	"\"WIDTHxHEIGHT of the picture the coordinates were read from, e.g. 960x600, or " \
	"the screen's size for screen pixels; omit for the default screenshot's pixels\"}"
#define BUTTON "\"button\":{\"type\":\"string\",\"enum\":[\"left\",\"middle\",\"right\"]}"
static const char *const tools_json[] = {
	"{\"name\":\"screenshot\",\"description\":\"A picture of the desktop's screen and its size. By default the largest of the screen's aspect within the model's image budget (long edge and 28-pixel tiles at most 1568 each), with the scale; the other tools' coordinates are in that picture unless they give from.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"max\":{\"type\":\"string\",\"pattern\":\"^[0-9]+x[0-9]+$\",\"description\":\"fit inside WIDTHxHEIGHT instead, e.g. 1280x800; coordinates read from it need from\"},\"region\":{\"type\":\"array\",\"items\":" COORD
	",\"minItems\":4,\"maxItems\":4,\"description\":\"[x, y, width, height] in the default picture's pixels, or in from's; the region at the screen's full resolution\"},\"from\":{\"type\":\"string\",\"pattern\":\"^[0-9]+x[0-9]+$\",\"description\":\"WIDTHxHEIGHT of the picture region is read in, or the screen's size for screen pixels\"},\"format\":{\"type\":\"string\",\"enum\":[\"jpeg\",\"png\"],\"description\":\"jpeg (the default) or png (lossless, slower)\"},\"quality\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100,\"description\":\"JPEG quality, default 85\"}},\"additionalProperties\":false}}",
	"{\"name\":\"click\",\"description\":\"Clicks at x, y.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"x\":" COORD
	",\"y\":" COORD "," BUTTON ",\"double\":{\"type\":\"boolean\"}," FROM
	"},\"required\":[\"x\",\"y\"],\"additionalProperties\":false}}",
	"{\"name\":\"move\",\"description\":\"Moves the pointer to x, y.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"x\":" COORD
	",\"y\":" COORD "," FROM "},\"required\":[\"x\",\"y\"],\"additionalProperties\":false}}",
	"{\"name\":\"drag\",\"description\":\"Presses at x1, y1, moves to x2, y2 and releases.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"x1\":" COORD
	",\"y1\":" COORD ",\"x2\":" COORD ",\"y2\":" COORD "," BUTTON "," FROM
	"},\"required\":[\"x1\",\"y1\",\"x2\",\"y2\"],\"additionalProperties\":false}}",
	"{\"name\":\"scroll\",\"description\":\"Scrolls the wheel at x, y.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"x\":" COORD
	",\"y\":" COORD
	",\"direction\":{\"type\":\"string\",\"enum\":[\"up\",\"down\",\"left\",\"right\"]},\"amount\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100}," FROM
	"},\"required\":[\"x\",\"y\",\"direction\"],\"additionalProperties\":false}}",
	"{\"name\":\"type\",\"description\":\"Types text exactly, whatever the keyboard layout (any Unicode; newline is Return).\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},\"delay_ms\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":1000}},\"required\":[\"text\"],\"additionalProperties\":false}}",
	"{\"name\":\"key\",\"description\":\"Presses key combos in turn, e.g. [\\\"ctrl+l\\\", \\\"Return\\\"]; X keysym names, ctrl, alt, shift, super.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"keys\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1,\"maxItems\":64},\"mode\":{\"type\":\"string\",\"enum\":[\"tap\",\"press\",\"release\"]},\"delay_ms\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":1000}},\"required\":[\"keys\"],\"additionalProperties\":false}}",
	"{\"name\":\"cursor\",\"description\":\"Where the pointer is.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{" FROM "},\"additionalProperties\":false}}",
	"{\"name\":\"wait\",\"description\":\"Waits until the screen has changed since the last action (for=change), or has stopped changing (for=idle), instead of sleeping.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"for\":{\"type\":\"string\",\"enum\":[\"change\",\"idle\"]},\"timeout\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":600,\"description\":\"seconds, default 10\"},\"quiet\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":600,\"description\":\"seconds without a change that count as idle, default 0.3\"}},\"required\":[\"for\"],\"additionalProperties\":false}}",
	"{\"name\":\"status\",\"description\":\"Whether the desktop runs, its display, size, memory and idle time.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}}",
	"{\"name\":\"start\",\"description\":\"Starts the desktop unless it runs (idempotent) and returns its status.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"wait\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":3600,\"description\":\"seconds, default 30\"}},\"additionalProperties\":false}}",
	"{\"name\":\"lease\",\"description\":\"Who controls the desktop: the agent, or a human (then every action is refused until they hand it back).\",\"inputSchema\":{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}}",
};

json_t *mcp_tools_list(void)
{
	json_t *tools = json_array();
	for (size_t i = 0; tools && i < ARRAY_SIZE(tools_json); i++) {
		json_t *t = json_loads(tools_json[i], 0, NULL);
		if (!t || json_array_append_new(tools, t) < 0) {
			json_decref(tools);
			return NULL;
		}
	}
	return tools ? json_pack("{s:o}", "tools", tools) : NULL;
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
		int i = type == JSON_OBJECT    ? 0
			: type == JSON_ARRAY   ? 1
			: type == JSON_STRING  ? 2
			: type == JSON_INTEGER ? 3
			: type == JSON_REAL    ? 4
					       : 5;
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
	if (parse_geometry(json_string_value(v), min, name[0] == 'm' ? 8192 : ACT_COORD_MAX, w, h) <
	    0) {
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

static int pointer_args(json_t *a, enum mcp_tool tool, struct act_req *rq, struct error *err)
{
	static const char *const buttons[] = {"left", "middle", "right"};
	static const char *const dirs[] = {"up", "down", "left", "right"};
	int r = geometry_member(a, "from", 1, &rq->from_w, &rq->from_h, err);
	if (r == 0 && tool == MCP_TOOL_DRAG) {
		r = uint_member(a, "x1", true, 0, ACT_COORD_MAX, &rq->x, err);
		r = r ? r : uint_member(a, "y1", true, 0, ACT_COORD_MAX, &rq->y, err);
		r = r ? r : uint_member(a, "x2", true, 0, ACT_COORD_MAX, &rq->x2, err);
		r = r ? r : uint_member(a, "y2", true, 0, ACT_COORD_MAX, &rq->y2, err);
	} else if (r == 0 && tool != MCP_TOOL_CURSOR) {
		r = uint_member(a, "x", true, 0, ACT_COORD_MAX, &rq->x, err);
		r = r ? r : uint_member(a, "y", true, 0, ACT_COORD_MAX, &rq->y, err);
	}
	int b = 0;
	if (r == 0 && (tool == MCP_TOOL_CLICK || tool == MCP_TOOL_DRAG)) {
		r = enum_member(a, "button", false, buttons, 3, &b, err);
		rq->button = (unsigned)b + 1;
	}
	json_t *dbl;
	if (r == 0 && tool == MCP_TOOL_CLICK) {
		r = member(a, "double", JSON_TRUE, false, &dbl, err);
		rq->dbl = dbl && json_is_true(dbl);
	}
	int d = 0;
	if (r == 0 && tool == MCP_TOOL_SCROLL) {
		r = enum_member(a, "direction", true, dirs, 4, &d, err);
		rq->dir = (enum act_scroll)d;
		r = r ? r : uint_member(a, "amount", false, 1, ACT_SCROLL_MAX, &rq->amount, err);
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
	int r = geometry_member(a, "max", 16, &rq->max_w, &rq->max_h, err);
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

int mcp_tool_args(json_t *params, enum mcp_tool *ret_tool, struct act_req *rq,
		  uint64_t *ret_wait_ms, struct error *err)
{
	static const char *const known[MCP_TOOL_COUNT][8] = {
		[MCP_TOOL_SCREENSHOT] = {"max", "region", "from", "format", "quality"},
		[MCP_TOOL_CLICK] = {"x", "y", "button", "double", "from"},
		[MCP_TOOL_MOVE] = {"x", "y", "from"},
		[MCP_TOOL_DRAG] = {"x1", "y1", "x2", "y2", "button", "from"},
		[MCP_TOOL_SCROLL] = {"x", "y", "direction", "amount", "from"},
		[MCP_TOOL_TYPE] = {"text", "delay_ms"},
		[MCP_TOOL_KEY] = {"keys", "mode", "delay_ms"},
		[MCP_TOOL_CURSOR] = {"from"},
		[MCP_TOOL_WAIT] = {"for", "timeout", "quiet"},
		[MCP_TOOL_START] = {"wait"},
	};
	static const enum act_cmd cmds[MCP_TOOL_COUNT] = {
		[MCP_TOOL_SCREENSHOT] = ACT_SCREENSHOT,
		[MCP_TOOL_CLICK] = ACT_CLICK,
		[MCP_TOOL_MOVE] = ACT_MOVE,
		[MCP_TOOL_DRAG] = ACT_DRAG,
		[MCP_TOOL_SCROLL] = ACT_SCROLL,
		[MCP_TOOL_TYPE] = ACT_TYPE,
		[MCP_TOOL_KEY] = ACT_KEY,
		[MCP_TOOL_CURSOR] = ACT_CURSOR,
		[MCP_TOOL_WAIT] = ACT_WAIT_IDLE,
	};
	json_t *name = params ? json_object_get(params, "name") : NULL;
	if (!json_is_string(name)) {
		return error_set(err, MCP_INVALID_PARAMS,
				 "invalid params: tools/call needs a tool 'name'");
	}
	int tool = -1;
	for (int i = 0; i < MCP_TOOL_COUNT; i++) {
		if (streq(json_string_value(name), tool_names[i])) {
			tool = i;
		}
	}
	if (tool < 0) {
		return error_set(err, MCP_INVALID_PARAMS, "unknown tool '%s'",
				 json_string_value(name));
	}
	*ret_tool = (enum mcp_tool)tool;
	json_t *a = json_object_get(params, "arguments");
	json_t *empty = NULL;
	if (!a) {
		a = empty = json_object();
	} else if (!json_is_object(a)) {
		return error_set(err, MCP_INVALID_PARAMS,
				 "invalid params: 'arguments' must be an object");
	}
	int r = known_only(a, known[tool], err);
	act_req_init(rq, tool < MCP_TOOL_STATUS ? cmds[tool] : ACT_CURSOR);
	*ret_wait_ms = 30000;
	switch (r ? -1 : tool) {
	case MCP_TOOL_SCREENSHOT:
		r = screenshot_args(a, rq, err);
		break;
	case MCP_TOOL_CLICK:
	case MCP_TOOL_MOVE:
	case MCP_TOOL_DRAG:
	case MCP_TOOL_SCROLL:
	case MCP_TOOL_CURSOR:
		r = pointer_args(a, (enum mcp_tool)tool, rq, err);
		break;
	case MCP_TOOL_TYPE: {
		json_t *text;
		r = member(a, "text", JSON_STRING, true, &text, err);
		r = r ? r
		      : uint_member(a, "delay_ms", false, 0, ACT_DELAY_MAX_MS, &rq->delay_ms, err);
		if (r == 0) {
			size_t chars;
			rq->text = json_string_value(text);
			rq->text_len = json_string_length(text);
			r = act_check_text(rq->text, rq->text_len, "'text'", &chars, err);
		}
		break;
	}
	case MCP_TOOL_KEY:
		r = key_args(a, rq, err);
		break;
	case MCP_TOOL_WAIT: {
		static const char *const fors[] = {"change", "idle"};
		int f = 0;
		r = enum_member(a, "for", true, fors, 2, &f, err);
		rq->cmd = f == 0 ? ACT_WAIT_CHANGE : ACT_WAIT_IDLE;
		r = r ? r : seconds_member(a, "timeout", ACT_WAIT_MAX_MS, &rq->timeout_ms, err);
		r = r ? r : seconds_member(a, "quiet", ACT_WAIT_MAX_MS, &rq->quiet_ms, err);
		break;
	}
	case MCP_TOOL_START:
		r = seconds_member(a, "wait", 3600 * 1000, ret_wait_ms, err);
		break;
	default:
		break;
	}
	json_decref(empty);
	return r;
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
	json_t *msg = json_pack("{s:s,s:O?,s:{s:i,s:s,s:o*}}", "jsonrpc", "2.0", "id", id, "error",
				"code", code, "message", message, "data", data);
	char *s = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
	json_decref(msg);
	char *line = NULL;
	if (s && asprintf(&line, "%s\n", s) < 0) {
		line = NULL;
	}
	free(s);
	return line;
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
	static const char b64[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = (len + 2) / 3 * 4;
	_cleanup_free_ char *out = malloc(n + 1);
	if (!out) {
		return NULL;
	}
	char *o = out;
	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16;
		v |= i + 1 < len ? (uint32_t)data[i + 1] << 8 : 0;
		v |= i + 2 < len ? data[i + 2] : 0;
		*o++ = b64[(v >> 18) & 63];
		*o++ = b64[(v >> 12) & 63];
		*o++ = i + 1 < len ? b64[(v >> 6) & 63] : '=';
		*o++ = i + 2 < len ? b64[v & 63] : '=';
	}
	json_t *s = json_stringn_nocheck(out, n);
	return s ? json_pack("{s:s,s:o,s:s}", "type", "image", "data", s, "mimeType", mime) : NULL;
}
