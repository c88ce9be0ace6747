#include "acttable.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "act.h"
#include "helptext.h"
#include "parse.h"
#include "strescape.h"
#include "util.h"

static int coordinate(const char *what, const char *s, unsigned *ret, struct error *err)
{
	if (parse_uint_range(s, 0, ACT_COORD_MAX, ret) < 0) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"%s must be a pixel coordinate (0 to %d, counted from the top left), not '%s'",
			what, ACT_COORD_MAX, s);
	}
	return 0;
}

/* The positional arguments, one parser a shape: X Y (and scroll's count). */
static int pos_point(struct act_req *rq, int n, char **args, struct error *err)
{
	bool scroll = rq->cmd == ACT_SCROLL;
	if (rq->element) {
		return n == 0 ? 0
			      : error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					       "%s takes X Y or --element, not both",
					       act_cmd_name(rq->cmd));
	}
	if (n < 2 || n > (scroll ? 3 : 2)) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "%s takes X Y%s",
				      act_cmd_name(rq->cmd),
				      scroll ? " and an optional count" : "");
	}
	if (coordinate("X", args[0], &rq->x, err) < 0 ||
	    coordinate("Y", args[1], &rq->y, err) < 0) {
		return -EINVAL;
	}
	if (n == 3 && parse_uint_range(args[2], 1, ACT_SCROLL_MAX, &rq->amount) < 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "the scroll count must be 1 to %d steps, not '%s'",
				      ACT_SCROLL_MAX, args[2]);
	}
	return 0;
}

/* X,Y of a path, the i-th point. */
static int path_point(const char *s, size_t i, unsigned *ret, struct error *err)
{
	const char *comma = strchr(s, ',');
	uint64_t x, y;
	if (!comma || parse_u64_n(s, (size_t)(comma - s), ACT_COORD_MAX, &x) < 0 ||
	    parse_u64(comma + 1, ACT_COORD_MAX, &y) < 0) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"drag --path takes points as X,Y (pixels from the top left, e.g. 10,20); point %zu is '%s'",
			i + 1, s);
	}
	ret[0] = (unsigned)x;
	ret[1] = (unsigned)y;
	return 0;
}

static int pos_drag(struct act_req *rq, int n, char **args, struct error *err)
{
	if (rq->n_path) {
		/* --path: every positional is a point. */
		if (n < 2 || n > ACT_PATH_MAX) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "drag --path takes 2 to %d points X,Y", ACT_PATH_MAX);
		}
		for (int i = 0; i < n; i++) {
			if (path_point(args[i], (size_t)i, rq->path[i], err) < 0) {
				return -EINVAL;
			}
		}
		rq->n_path = (size_t)n;
		rq->x = rq->path[0][0];
		rq->y = rq->path[0][1];
		rq->x2 = rq->path[n - 1][0];
		rq->y2 = rq->path[n - 1][1];
		return 0;
	}
	if (n != 4) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "drag takes X1 Y1 X2 Y2, or --path X,Y X,Y...");
	}
	if (coordinate("X1", args[0], &rq->x, err) < 0 ||
	    coordinate("Y1", args[1], &rq->y, err) < 0 ||
	    coordinate("X2", args[2], &rq->x2, err) < 0 ||
	    coordinate("Y2", args[3], &rq->y2, err) < 0) {
		return -EINVAL;
	}
	return 0;
}

/* mouse-down and mouse-up: X Y, or nothing for where the pointer is. */
static int pos_maybe_point(struct act_req *rq, int n, char **args, struct error *err)
{
	if (n == 0) {
		rq->at_pointer = true;
		return 0;
	}
	if (n != 2) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "%s takes X Y, or nothing for where the pointer is",
				      act_cmd_name(rq->cmd));
	}
	return pos_point(rq, n, args, err);
}

static int pos_seconds(struct act_req *rq, int n, char **args, struct error *err)
{
	if (n != 1 || parse_seconds_ms(args[0], ACT_WAIT_MAX_MS, &rq->timeout_ms) < 0 ||
	    rq->timeout_ms == 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "wait takes SECONDS above 0, up to %d (e.g. 2 or 0.5)%s%s%s",
				      ACT_WAIT_MAX_MS / 1000, n ? ", not '" : "", n ? args[0] : "",
				      n ? "'" : "");
	}
	return 0;
}

static int pos_text(struct act_req *rq, int n, char **args, struct error *err)
{
	if (n > 1 || (n == 1 && rq->file)) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"type takes one TEXT argument, or --file FILE, or the text on standard input");
	}
	if (n == 0) {
		return 0;
	}
	size_t chars;
	rq->text = args[0];
	rq->text_len = strlen(args[0]);
	return act_check_text(rq->text, rq->text_len, "TEXT", &chars, err);
}

static int pos_combos(struct act_req *rq, int n, char **args, struct error *err)
{
	if (n == 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "key takes one or more combos, e.g. ctrl+l, alt+F4, Return");
	}
	if (n > ACT_KEYS_MAX) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "key takes at most %d combos at a time", ACT_KEYS_MAX);
	}
	if (rq->hold_ms && n != 1) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "key --hold-for holds one combo, e.g. shift or ctrl+a");
	}
	for (int i = 0; i < n; i++) {
		if (!*args[i] || strlen(args[i]) > ACT_COMBO_MAX) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"'%s' is not a key combo: name keys joined by +, e.g. ctrl+shift+t",
				args[i]);
		}
		rq->keys[i] = args[i];
	}
	rq->n_keys = (size_t)n;
	return 0;
}

static int pos_none(struct act_req *rq, int n, char **args, struct error *err)
{
	if (n > 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "unexpected argument '%s'",
				      args[0]);
	}
	return 0;
}

/* clipboard set: TEXT, or standard input (read by botdesk-act) when none. */
static int pos_clip_set(struct act_req *rq, int n, char **args, struct error *err)
{
	if (n > 1) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"clipboard set takes one TEXT argument, or the text on standard input");
	}
	if (n == 0) {
		return 0;
	}
	rq->text = args[0];
	rq->text_len = strlen(args[0]);
	return act_check_clip_text(rq->text, rq->text_len, "TEXT", err);
}

/* A window id as windows prints it (0x1a00007) or in decimal. */
static int window_id(const char *s, unsigned long *ret, struct error *err)
{
	uint64_t v;
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	int r = hex ? parse_hex_u64(s + 2, UINT32_MAX, &v) : parse_u64(s, UINT32_MAX, &v);
	if (r < 0 || v == 0) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"'%s' is no window id: take one from 'botdesk windows' (e.g. 0x1a00007)",
			s);
	}
	*ret = (unsigned long)v;
	return 0;
}

static int signed_coordinate(const char *what, const char *s, int *ret, struct error *err)
{
	unsigned v;
	bool neg = s[0] == '-';
	if (parse_uint_range(s + neg, 0, ACT_COORD_MAX, &v) < 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "%s must be a screen coordinate (-%d to %d), not '%s'", what,
				      ACT_COORD_MAX, ACT_COORD_MAX, s);
	}
	*ret = neg ? -(int)v : (int)v;
	return 0;
}

/* window focus|close ID, window move ID X Y, window resize ID W H. */
static int pos_window(struct act_req *rq, int n, char **args, struct error *err)
{
	static const char *const ops[] = {"focus", "close", "move", "resize"};
	size_t op = ARRAY_SIZE(ops);
	for (size_t i = 0; n > 0 && i < ARRAY_SIZE(ops); i++) {
		if (streq(args[0], ops[i])) {
			op = i;
		}
	}
	int want = op >= ACT_WIN_MOVE ? 4 : 2;
	if (op == ARRAY_SIZE(ops) || n != want) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"window takes focus ID, close ID, move ID X Y or resize ID WIDTH HEIGHT");
	}
	rq->win_op = (enum act_win_op)op;
	if (window_id(args[1], &rq->win_id, err) < 0) {
		return -EINVAL;
	}
	if (op == ACT_WIN_MOVE) {
		return signed_coordinate("X", args[2], &rq->win_x, err) < 0 ||
				       signed_coordinate("Y", args[3], &rq->win_y, err) < 0
			       ? -EINVAL
			       : 0;
	}
	if (op == ACT_WIN_RESIZE && (parse_uint_range(args[2], 1, ACT_COORD_MAX, &rq->win_w) < 0 ||
				     parse_uint_range(args[3], 1, ACT_COORD_MAX, &rq->win_h) < 0)) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"window resize takes a WIDTH and HEIGHT in pixels (1 to %d), not '%s %s'",
			ACT_COORD_MAX, args[2], args[3]);
	}
	return 0;
}

/* open TARGET (a URL or a file), launch NAME (a desktop file's name). */
static int pos_target(struct act_req *rq, int n, char **args, struct error *err)
{
	bool launch = rq->cmd == ACT_LAUNCH;
	if (n != 1 || !*args[0]) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			launch ? "launch takes one application NAME, e.g. xfce4-terminal"
			       : "open takes one URL or file");
	}
	size_t len = strlen(args[0]);
	bool ok = len <= 4096;
	for (size_t i = 0; ok && i < len; i++) {
		unsigned char c = (unsigned char)args[0][i];
		ok = launch ? (isalnum(c) || c == '.' || c == '-' || c == '_')
			    : c >= 0x20 && c != 0x7f;
	}
	if (!ok || (launch && args[0][0] == '.')) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			launch ? "'%s' is no desktop file name (letters, digits, '.', '-', '_')"
			       : "'%s' is no URL or file name botdesk opens (control characters?)",
			args[0]);
	}
	rq->text = args[0];
	rq->text_len = len;
	return 0;
}

/* ,"window":{"id","title"} (null over the root) when the action looked (pointer actions). */
static void landed_json(const struct act_out *out, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!out->landed_known) {
		return;
	}
	if (!out->landed) {
		snprintf(buf, size, ",\"window\":null");
		return;
	}
	char title[sizeof(out->landed_title) * 6 + 1];
	(void)escape_to_buf(title, sizeof(title), out->landed_title, strlen(out->landed_title),
			    &escape_json);
	snprintf(buf, size, ",\"window\":{\"id\":\"0x%lx\",\"title\":\"%s\"}", out->landed, title);
}

/* The results, one JSON object each: what --json prints and the MCP tool's text. */
/* With --changes: ,"changed":[{"x","y","width","height"}...] in screen pixels ([] when nothing
 * was drawn). */
static void regions_json(const struct act_req *rq, const struct act_out *out, char *buf,
			 size_t size)
{
	buf[0] = '\0';
	if (!rq->changes) {
		return;
	}
	size_t o = (size_t)snprintf(buf, size, ",\"changed\":[");
	for (size_t i = 0; i < out->n_regions && o < size; i++) {
		const struct act_rect *r = &out->regions[i];
		o += (size_t)snprintf(buf + o, size - o,
				      "%s{\"x\":%u,\"y\":%u,\"width\":%u,\"height\":%u}",
				      i ? "," : "", r->x, r->y, r->w, r->h);
	}
	if (o < size) {
		snprintf(buf + o, size - o, "]");
	}
}

static bool result_point(const struct act_req *rq, const struct act_out *out, char *buf,
			 size_t size)
{
	char landed[sizeof(out->landed_title) * 6 + 64];
	char regions[ACT_CHANGED_MAX * 64 + 16];
	landed_json(out, landed, sizeof(landed));
	regions_json(rq, out, regions, sizeof(regions));
	snprintf(buf, size, "{\"x\":%u,\"y\":%u,\"screen\":\"%ux%u\"%s%s}", out->x, out->y, out->sw,
		 out->sh, landed, regions);
	return true;
}

static bool result_drag(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	char landed[sizeof(out->landed_title) * 6 + 64];
	char regions[ACT_CHANGED_MAX * 64 + 16];
	landed_json(out, landed, sizeof(landed));
	regions_json(rq, out, regions, sizeof(regions));
	snprintf(buf, size, "{\"x\":%u,\"y\":%u,\"x2\":%u,\"y2\":%u,\"screen\":\"%ux%u\"%s%s}",
		 out->x, out->y, out->x2, out->y2, out->sw, out->sh, landed, regions);
	return true;
}

/* The cursor in the picture's pixels when the request was read in one (--from, or the MCP
 * server's model picture). */
static bool result_cursor(const struct act_req *rq, const struct act_out *out, char *buf,
			  size_t size)
{
	unsigned x = out->x, y = out->y;
	if (out->from_w) {
		x = act_to_picture(x, out->sw, out->from_w);
		y = act_to_picture(y, out->sh, out->from_h);
	}
	snprintf(buf, size, "{\"x\":%u,\"y\":%u,\"screen\":\"%ux%u\"}", x, y, out->sw, out->sh);
	return true;
}

static bool result_type(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	snprintf(buf, size, "{\"characters\":%zu,\"remapped\":%zu}", out->chars, out->remapped);
	return true;
}

static bool result_key(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	snprintf(buf, size, "{\"keys\":%zu}", out->keys);
	return true;
}

/* A scaled picture says how to click on it: coordinates read from it go with from = its size. */
static bool result_picture(const struct act_req *rq, const struct act_out *out, char *buf,
			   size_t size)
{
	bool scaled = !rq->region && (out->pic.w != out->sw || out->pic.h != out->sh);
	char from[64] = "";
	if (scaled) {
		snprintf(from, sizeof(from), ",\"from\":\"%ux%u\"", out->pic.w, out->pic.h);
	}
	snprintf(buf, size, "{\"width\":%u,\"height\":%u,\"screen\":\"%ux%u\"%s}", out->pic.w,
		 out->pic.h, out->sw, out->sh, from);
	return true;
}

static bool result_paused(const struct act_req *rq, const struct act_out *out, char *buf,
			  size_t size)
{
	snprintf(buf, size, "{\"waited_ms\":%llu}", (unsigned long long)out->waited_ms);
	return true;
}

static bool result_wait(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	snprintf(buf, size, "{\"%s\":true,\"waited_ms\":%llu}",
		 rq->cmd == ACT_WAIT_IDLE ? "idle" : "changed", (unsigned long long)out->waited_ms);
	return true;
}

/* clipboard get and windows: a result of any size, in out->json (act.c); the text alone
 * without --json. */
static bool result_none(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	return false;
}

static bool result_clip_set(const struct act_req *rq, const struct act_out *out, char *buf,
			    size_t size)
{
	snprintf(buf, size, "{\"selection\":\"%s\",\"bytes\":%zu,\"characters\":%zu}",
		 rq->primary ? "PRIMARY" : "CLIPBOARD", rq->text_len, out->chars);
	return true;
}

static bool result_window(const struct act_req *rq, const struct act_out *out, char *buf,
			  size_t size)
{
	snprintf(
		buf, size,
		"{\"id\":\"0x%lx\",\"action\":\"%s\",\"x\":%d,\"y\":%d,\"width\":%u,\"height\":%u}",
		rq->win_id, act_win_op_name(rq->win_op), out->wx, out->wy, out->ww, out->wh);
	return true;
}

static bool result_opened(const struct act_req *rq, const struct act_out *out, char *buf,
			  size_t size)
{
	snprintf(buf, size, "{\"id\":\"0x%lx\"}", out->win);
	return true;
}

/* The tools' schemas. Coordinates are in the default screenshot's pixels (sized for the model,
 * act/modelpic.h) unless "from" names the size of the picture they were read from (a screenshot
 * with max, a thumbnail, the screen itself): the server scales them exactly as that picture was
 * scaled. */
#define COORD "{\"type\":\"integer\",\"minimum\":0,\"maximum\":65535}"
#define FROM                                                                                  \
	"\"from\":{\"type\":\"string\",\"pattern\":\"^[0-9]+x[0-9]+$\",\"description\":"      \
	"\"WIDTHxHEIGHT of the picture the coordinates were read from, e.g. 960x600, or the " \
	"screen's size for screen pixels; omit for the default screenshot's pixels\"}"
#define ELEMENT                                                                                    \
	"\"element\":{\"type\":\"string\",\"description\":\"ROLE:NAME of one visible element, as " \
	"find gives them (e.g. push button:Send, entry:Email), or a node id from tree or find\"}"
#define BUTTON "\"button\":{\"type\":\"string\",\"enum\":[\"left\",\"middle\",\"right\"]}"

/* clang-format off */
const struct act_action act_actions[ACT_CMD_COUNT] = {
	[ACT_CLICK] = {
		.name = "click",
		.positionals = pos_point,
		.pointer = true,
		.options = ACT_O_JSON | ACT_O_FROM | ACT_O_BUTTON | ACT_O_DOUBLE | ACT_O_TRIPLE | ACT_O_HOLD | ACT_O_ELEMENT | ACT_O_CHANGES,
		.synopsis = "X Y | --element ROLE:NAME|ID [--button left|middle|right] [--double|--triple] [--hold KEYS] [--from WxH] [--changes] [--json]",
		.summary = "Moves the pointer to X Y and clicks; with `--element`, to the middle of the "
		"one showing element `find` gives for that role and name (or node id), refused when "
		"none or several match. `--triple` is one click of count 3 (a line selected). "
		"`--hold shift+ctrl` holds those keys during it (also on `move`, `drag`, `scroll`, "
		"`mouse-down`, `mouse-up`).",
		.exits = "0; 2 bad input; 3; 4 a human holds the desktop; 1",
		.mcp_tool = "click",
		.mcp_args = (const char *const[]){"x", "y", "button", "double", "from", "element", "changes", NULL},
		.mcp_json =
	"{\"name\":\"click\",\"description\":\"Clicks at x, y, or in the middle of the element named by element.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"changes\":{\"type\":\"boolean\",\"description\":\"also return the screen regions drawn in the moment after (up to 0.6 s): whether it did anything, and where\"},\"x\":" COORD
		",\"y\":" COORD "," BUTTON
		",\"double\":{\"type\":\"boolean\"}," FROM "," ELEMENT
		"},\"anyOf\":[{\"required\":[\"x\",\"y\"]},{\"required\":[\"element\"]}],\"additionalProperties\":false}}",
		.result_json = result_point,
	},
	[ACT_MOVE] = {
		.name = "move",
		.positionals = pos_point,
		.pointer = true,
		.options = ACT_O_JSON | ACT_O_FROM | ACT_O_HOLD | ACT_O_CHANGES,
		.synopsis = "X Y [--hold KEYS] [--from WxH] [--changes] [--json]",
		.summary = "Moves the pointer.",
		.exits = "same",
		.mcp_tool = "move",
		.mcp_args = (const char *const[]){"x", "y", "from", "changes", NULL},
		.mcp_json =
	"{\"name\":\"move\",\"description\":\"Moves the pointer to x, y.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"changes\":{\"type\":\"boolean\",\"description\":\"also return the screen regions drawn in the moment after (up to 0.6 s): whether it did anything, and where\"},\"x\":" COORD
		",\"y\":" COORD "," FROM
		"},\"required\":[\"x\",\"y\"],\"additionalProperties\":false}}",
		.result_json = result_point,
	},
	[ACT_DRAG] = {
		.name = "drag",
		.positionals = pos_drag,
		.pointer = true,
		.options = ACT_O_JSON | ACT_O_FROM | ACT_O_BUTTON | ACT_O_HOLD | ACT_O_PATH | ACT_O_CHANGES,
		.synopsis = "X1 Y1 X2 Y2 | --path X,Y X,Y... [--button B] [--hold KEYS] [--from WxH] [--changes] [--json]",
		.summary = "Presses at X1 Y1, moves there in 10 steps, releases at X2 Y2. With `--path`, "
		"presses at the first of 2–64 points and passes through each in turn, 10 steps a leg.",
		.exits = "same",
		.mcp_tool = "drag",
		.mcp_args = (const char *const[]){"x1", "y1", "x2", "y2", "button", "from", "changes", NULL},
		.mcp_json =
	"{\"name\":\"drag\",\"description\":\"Presses at x1, y1, moves to x2, y2 and releases.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"changes\":{\"type\":\"boolean\",\"description\":\"also return the screen regions drawn in the moment after (up to 0.6 s): whether it did anything, and where\"},\"x1\":" COORD
		",\"y1\":" COORD ",\"x2\":" COORD ",\"y2\":" COORD
		"," BUTTON "," FROM
		"},\"required\":[\"x1\",\"y1\",\"x2\",\"y2\"],\"additionalProperties\":false}}",
		.result_json = result_drag,
	},
	[ACT_SCROLL] = {
		.name = "scroll",
		.positionals = pos_point,
		.pointer = true,
		.options = ACT_O_JSON | ACT_O_FROM | ACT_O_UP | ACT_O_DOWN | ACT_O_LEFT | ACT_O_RIGHT | ACT_O_HOLD | ACT_O_CHANGES,
		.synopsis = "X Y (--up|--down|--left|--right) [N] [--hold KEYS] [--from WxH] [--changes] [--json]",
		.summary = "N wheel steps (1–100, default 1) at X Y (buttons 4–7).",
		.exits = "same",
		.mcp_tool = "scroll",
		.mcp_args = (const char *const[]){"x", "y", "direction", "amount", "from", "changes", NULL},
		.mcp_json =
	"{\"name\":\"scroll\",\"description\":\"Scrolls the wheel at x, y.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"changes\":{\"type\":\"boolean\",\"description\":\"also return the screen regions drawn in the moment after (up to 0.6 s): whether it did anything, and where\"},\"x\":" COORD
		",\"y\":" COORD
		",\"direction\":{\"type\":\"string\",\"enum\":[\"up\",\"down\",\"left\",\"right\"]},\"amount\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100}," FROM
		"},\"required\":[\"x\",\"y\",\"direction\"],\"additionalProperties\":false}}",
		.result_json = result_point,
	},
	[ACT_CURSOR] = {
		.name = "cursor",
		.positionals = pos_none,
		.pointer = false,
		.options = ACT_O_JSON | ACT_O_FROM,
		.synopsis = "[--from WxH] [--json]",
		.summary = "Prints the pointer's position (`X Y`), in the picture's pixels with `--from`.",
		.exits = "same",
		.mcp_tool = "cursor",
		.mcp_args = (const char *const[]){"from", NULL},
		.mcp_json =
	"{\"name\":\"cursor\",\"description\":\"Where the pointer is.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{" FROM
		"},\"additionalProperties\":false}}",
		.result_json = result_cursor,
	},
	[ACT_TYPE] = {
		.name = "type",
		.positionals = pos_text,
		.pointer = false,
		.options = ACT_O_JSON | ACT_O_FILE | ACT_O_DELAY | ACT_O_ELEMENT,
		.synopsis = "TEXT | --file FILE | < stdin [--delay MS] [--element ROLE:NAME|ID] [--json]",
		.summary = "Types the text exactly, whatever the keyboard layout (below). At most 65536 "
		"bytes; `--delay` 0–1000 ms between keys (default 0). `--element` clicks the element "
		"first (as `click --element`) unless it has the focus.",
		.exits = "same; 130 interrupted",
		.mcp_tool = "type",
		.mcp_args = (const char *const[]){"text", "delay_ms", "element", NULL},
		.mcp_json =
	"{\"name\":\"type\",\"description\":\"Types text exactly, whatever the keyboard layout (any Unicode; newline is Return); into the element named by element, focused first.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},\"delay_ms\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":1000}," ELEMENT "},\"required\":[\"text\"],\"additionalProperties\":false}}",
		.result_json = result_type,
	},
	[ACT_KEY] = {
		.name = "key",
		.positionals = pos_combos,
		.pointer = false,
		.options = ACT_O_JSON | ACT_O_DELAY | ACT_O_PRESS | ACT_O_RELEASE | ACT_O_HOLD_FOR,
		.synopsis = "COMBO... [--press|--release|--hold-for S] [--delay MS] [--json]",
		.summary = "Key combos in turn: `ctrl+l`, `alt+F4`, `Return`, `super`, `ctrl+shift+t`, "
		"`ctrl++`. Names are X keysym names (case matters: `a`, `A`, `Page_Up`, `F4`), "
		"the modifiers `ctrl` `alt` `shift` `super` `altgr` `meta` `hyper`, the aliases "
		"`enter` `esc` `tab` `space` `backspace` `del` `ins` `home` `end` `pgup` `pgdn` "
		"`up` `down` `left` `right` `f1`…, or one character. `--press` holds, "
		"`--release` lets go, `--hold-for S` holds one combo S seconds (at most 300) and lets go.",
		.exits = "same",
		.mcp_tool = "key",
		.mcp_args = (const char *const[]){"keys", "mode", "delay_ms", NULL},
		.mcp_json =
	"{\"name\":\"key\",\"description\":\"Presses key combos in turn, e.g. [\\\"ctrl+l\\\", \\\"Return\\\"]; X keysym names, ctrl, alt, shift, super.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"keys\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1,\"maxItems\":64},\"mode\":{\"type\":\"string\",\"enum\":[\"tap\",\"press\",\"release\"]},\"delay_ms\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":1000}},\"required\":[\"keys\"],\"additionalProperties\":false}}",
		.result_json = result_key,
	},
	[ACT_SCREENSHOT] = {
		.name = "screenshot",
		.positionals = pos_none,
		.pointer = false,
		.options = ACT_O_MAX | ACT_O_FORMAT | ACT_O_QUALITY | ACT_O_OUTPUT | ACT_O_REGION,
		.synopsis = "[--max WxH] [--region X,Y,W,H] [--format png|jpeg] [--quality N] [--output "
		"FILE|-]",
		.summary = "The full-size screen (the thumbnail stays the small picture), fitted inside "
		"`--max` when given, or a region of it; PNG, or JPEG (quality 85). To FILE "
		"(atomically, mode from the umask), to stdout with `-` (refused when that is a terminal), "
		"else as a `data:` URL.",
		.exits = "same",
		.mcp_tool = "screenshot",
		.mcp_args = (const char *const[]){"max", "region", "from", "format", "quality", NULL},
		.mcp_json =
	"{\"name\":\"screenshot\",\"description\":\"A picture of the desktop's screen and its size. By default the largest of the screen's aspect within the model's image budget (long edge and 28-pixel tiles at most 1568 each), with the scale; the other tools' coordinates are in that picture unless they give from.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"max\":{\"type\":\"string\",\"pattern\":\"^[0-9]+x[0-9]+$\",\"description\":\"fit inside WIDTHxHEIGHT instead, e.g. 1280x800; coordinates read from it need from\"},\"region\":{\"type\":\"array\",\"items\":" COORD
		",\"minItems\":4,\"maxItems\":4,\"description\":\"[x, y, width, height] in the default picture's pixels, or in from's; the region at the screen's full resolution\"},\"from\":{\"type\":\"string\",\"pattern\":\"^[0-9]+x[0-9]+$\",\"description\":\"WIDTHxHEIGHT of the picture region is read in, or the screen's size for screen pixels\"},\"format\":{\"type\":\"string\",\"enum\":[\"jpeg\",\"png\"],\"description\":\"jpeg (the default) or png (lossless, slower)\"},\"quality\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100,\"description\":\"JPEG quality, default 85\"}},\"additionalProperties\":false}}",
		.result_json = result_picture,
	},
	[ACT_WAIT_IDLE] = {
		.name = "wait-idle",
		.positionals = pos_none,
		.pointer = false,
		.options = ACT_O_JSON | ACT_O_TIMEOUT | ACT_O_QUIET,
		.synopsis = "[--timeout S] [--quiet S] [--json]",
		.summary = "Returns once the screen has not changed for `--quiet` seconds (default 0.3); "
		"exit 1 if it kept changing for `--timeout` (default 10, at most 600).",
		.exits = "same",
		.mcp_tool = "wait",
		.mcp_args = (const char *const[]){"for", "timeout", "quiet", NULL},
		.mcp_json =
	"{\"name\":\"wait\",\"description\":\"Waits until the screen has changed since the last action (for=change), or has stopped changing (for=idle), instead of sleeping.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"for\":{\"type\":\"string\",\"enum\":[\"change\",\"idle\"]},\"timeout\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":600,\"description\":\"seconds, default 10\"},\"quiet\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":600,\"description\":\"seconds without a change that count as idle, default 0.3\"}},\"required\":[\"for\"],\"additionalProperties\":false}}",
		.result_json = result_wait,
	},
	[ACT_WAIT_CHANGE] = {
		.name = "wait-change",
		.positionals = pos_none,
		.pointer = false,
		.options = ACT_O_JSON | ACT_O_TIMEOUT,
		.synopsis = "[--timeout S] [--json]",
		.summary = "Returns when the screen changes after it started; exit 1 at the timeout. The "
		"MCP `wait` tool also counts a change since the last action.",
		.exits = "same",
		.mcp_tool = NULL,
		.mcp_args = NULL,
		.mcp_json = NULL,
		.result_json = result_wait,
	},
	/* The models' vocabulary (issue 25.5): a button held down and let go, a pause. */
	[ACT_MOUSE_DOWN] = {
		.name = "mouse-down",
		.positionals = pos_maybe_point,
		.pointer = true,
		.options = ACT_O_JSON | ACT_O_FROM | ACT_O_BUTTON | ACT_O_HOLD,
		.synopsis = "[X Y] [--button B] [--hold KEYS] [--from WxH] [--json]",
		.summary = "Presses the button at X Y (or where the pointer is) and keeps it down until "
		"`mouse-up`, or until a human's take lets it go.",
		.exits = "same",
		.result_json = result_point,
	},
	[ACT_MOUSE_UP] = {
		.name = "mouse-up",
		.positionals = pos_maybe_point,
		.pointer = true,
		.options = ACT_O_JSON | ACT_O_FROM | ACT_O_BUTTON | ACT_O_HOLD,
		.synopsis = "[X Y] [--button B] [--hold KEYS] [--from WxH] [--json]",
		.summary = "Lets the button go at X Y (or where the pointer is).",
		.exits = "same",
		.result_json = result_point,
	},
	[ACT_WAIT] = {
		.name = "wait",
		.positionals = pos_seconds,
		.pointer = false,
		.options = ACT_O_JSON,
		.synopsis = "SECONDS [--json]",
		.summary = "Pauses SECONDS (fractions allowed, at most 600), sending nothing: a script's "
		"or a model's own pause. `wait-idle` and `wait-change` wait for the screen instead.",
		.exits = "same; 130 interrupted",
		.result_json = result_paused,
	},
	/* The desktop's objects (issue 26): clipboard, windows. */
	[ACT_CLIPBOARD_GET] = {
		.name = "clipboard",
		.verb = "get",
		.positionals = pos_none,
		.pointer = false,
		.options = ACT_O_JSON | ACT_O_PRIMARY,
		.synopsis = "get [--primary] [--json]",
		.summary = "Prints the text on the desktop's clipboard (what any application copied), "
		"exactly, UTF-8, at most 1 MiB; `--primary`: the last text selected instead. Nothing "
		"when it is empty; `--json`: `{\"text\":…,\"owned\":…}`.",
		.exits = "same",
		.mcp_tool = "clipboard_get",
		.mcp_args = (const char *const[]){"primary", NULL},
		.mcp_json =
	"{\"name\":\"clipboard_get\",\"description\":\"The text on the desktop's clipboard (what an application copied), exactly.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"primary\":{\"type\":\"boolean\",\"description\":\"the PRIMARY selection (the last text selected) instead\"}},\"additionalProperties\":false}}",
		.result_json = result_none,
	},
	[ACT_CLIPBOARD_SET] = {
		.name = "clipboard",
		.verb = "set",
		.positionals = pos_clip_set,
		.pointer = false,
		.options = ACT_O_JSON | ACT_O_PRIMARY,
		.synopsis = "set [TEXT | < stdin] [--primary] [--json]",
		.summary = "Makes TEXT (any UTF-8, at most 1 MiB) the clipboard's content for any "
		"application to paste, until something else is copied; a small owner process of the "
		"desktop serves it (it ends then, or with the desktop).",
		.exits = "same",
		.mcp_tool = "clipboard_set",
		.mcp_args = (const char *const[]){"text", "primary", NULL},
		.mcp_json =
	"{\"name\":\"clipboard_set\",\"description\":\"Makes text the desktop's clipboard content, for any application to paste (ctrl+v; ctrl+shift+v in a terminal): faster and more exact than typing a long text.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},\"primary\":{\"type\":\"boolean\",\"description\":\"the PRIMARY selection (what a middle click pastes) instead\"}},\"required\":[\"text\"],\"additionalProperties\":false}}",
		.result_json = result_clip_set,
	},
	[ACT_WINDOWS] = {
		.name = "windows",
		.positionals = pos_none,
		.pointer = false,
		.options = ACT_O_JSON,
		.synopsis = "[--json]",
		.summary = "The desktop's top-level windows, a line each: id, x, y, width, height (screen "
		"pixels, the frame included), pid, class, title, `*` on the focused one; `--json`: "
		"`{\"windows\":[{\"id\",\"title\",\"class\",\"pid\",\"x\",\"y\",\"width\",\"height\","
		"\"focused\"}…],\"screen\"}`.",
		.exits = "same",
		.mcp_tool = "windows",
		.mcp_args = (const char *const[]){NULL},
		.mcp_json =
	"{\"name\":\"windows\",\"description\":\"The desktop's top-level windows: id, title, class, pid, x, y, width, height (screen pixels, the frame included) and which one has the focus. To click at these coordinates, give the click from = the result's screen.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}}",
		.result_json = result_none,
	},
	[ACT_WINDOW] = {
		.name = "window",
		.positionals = pos_window,
		.pointer = false,
		.options = ACT_O_JSON,
		.synopsis = "focus|close ID | move ID X Y | resize ID WIDTH HEIGHT [--json]",
		.summary = "Acts on a window of `windows` through the window manager: `focus` raises it "
		"and gives it the keyboard, `close` asks its application to close it (as the title "
		"bar's button does), `move` puts its frame's top left at X Y, `resize` makes its frame "
		"WIDTH x HEIGHT. Returns once the window manager did it (bounded).",
		.exits = "same",
		.mcp_tool = "window",
		.mcp_args = (const char *const[]){"action", "id", "x", "y", "width", "height", NULL},
		.mcp_json =
	"{\"name\":\"window\",\"description\":\"Acts on a window by its id from the windows tool: focus raises it and gives it the keyboard, close asks its application to close it, move puts its top left corner at x, y, resize makes it width x height (screen pixels, the frame included).\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"action\":{\"type\":\"string\",\"enum\":[\"focus\",\"close\",\"move\",\"resize\"]},\"id\":{\"type\":\"string\",\"pattern\":\"^(0x[0-9a-fA-F]+|[0-9]+)$\"},\"x\":{\"type\":\"integer\",\"minimum\":-65535,\"maximum\":65535},\"y\":{\"type\":\"integer\",\"minimum\":-65535,\"maximum\":65535},\"width\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":65535},\"height\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":65535}},\"required\":[\"action\",\"id\"],\"additionalProperties\":false}}",
		.result_json = result_window,
	},
	[ACT_OPEN] = {
		.name = "open",
		.positionals = pos_target,
		.pointer = false,
		.options = ACT_O_JSON,
		.synopsis = "TARGET [--json]",
		.summary = "Opens a URL or a file on the desktop: a web URL in the `browser` setting's "
		"program when set, else by the desktop's default handler (xdg-open). Returns once a new "
		"window appeared (at most 30 s) and prints its id.",
		.exits = "same",
		.mcp_tool = "open",
		.mcp_args = (const char *const[]){"target", NULL},
		.mcp_json =
	"{\"name\":\"open\",\"description\":\"Opens a URL or a file on the desktop in its browser or default application; returns the id of the new window once it appeared.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"target\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":4096}},\"required\":[\"target\"],\"additionalProperties\":false}}",
		.result_json = result_opened,
	},
	[ACT_LAUNCH] = {
		.name = "launch",
		.positionals = pos_target,
		.pointer = false,
		.options = ACT_O_JSON,
		.synopsis = "NAME [--json]",
		.summary = "Starts the application of the desktop file NAME (`xfce4-terminal`, "
		"`chromium`: its Exec line, from the desktop's XDG data directories). Returns once a new "
		"window appeared (at most 30 s) and prints its id.",
		.exits = "same; 2 no such application",
		.mcp_tool = "launch",
		.mcp_args = (const char *const[]){"name", NULL},
		.mcp_json =
	"{\"name\":\"launch\",\"description\":\"Starts an application by its desktop file's name (e.g. xfce4-terminal, chromium); returns the id of its new window once it appeared.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\",\"pattern\":\"^[A-Za-z0-9_][A-Za-z0-9._-]*$\"}},\"required\":[\"name\"],\"additionalProperties\":false}}",
		.result_json = result_opened,
	},
	/* The accessibility tree (issue 27): botdesk-act-a11y, act/a11y.h. */
	[ACT_TREE] = {
		.name = "tree",
		.positionals = pos_none,
		.pointer = false,
		.options = ACT_O_JSON | ACT_O_WINDOW | ACT_O_DEPTH | ACT_O_TIMEOUT | ACT_O_FROM,
		.synopsis = "[--window ID|TITLE] [--depth N] [--timeout S] [--from WxH] [--json]",
		.summary = "The accessibility tree (AT-SPI) of the desktop's applications, or of one "
		"window: each node's role, name, screen bounds, states and id, as an indented outline "
		"(or JSON). Nodes not showing are left out. `--depth` 1–64 levels; `--timeout` bounds "
		"the call (default 10 s), an application that does not answer is named and skipped. "
		"`--from`: bounds in that picture's pixels.",
		.exits = "same",
		.mcp_tool = "tree",
		.mcp_args = (const char *const[]){"window", "depth", NULL},
		.mcp_json =
	"{\"name\":\"tree\",\"description\":\"The accessibility tree of the desktop's windows (or one window): role, name, bounds and states of each visible element, one line each, indented by depth; bounds are in the default screenshot's pixels. Long trees are cut, with a note: then ask for one window or a smaller depth.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"window\":{\"type\":\"string\",\"description\":\"a window's id from an earlier tree, or its title (or part of it)\"},\"depth\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":64,\"description\":\"levels shown, from the applications (or from the window); default 12\"}},\"additionalProperties\":false}}",
		.result_json = result_none,
	},
	[ACT_FIND] = {
		.name = "find",
		.positionals = pos_none,
		.pointer = false,
		.options = ACT_O_JSON | ACT_O_WINDOW | ACT_O_ROLE | ACT_O_NAME | ACT_O_TIMEOUT | ACT_O_FROM,
		.synopsis = "[--role ROLE] [--name NAME] [--window ID|TITLE] [--timeout S] [--from WxH] "
		"[--json]",
		.summary = "The showing elements of that role (AT-SPI's names: `push button`, `entry`, "
		"`link`…; `button` matches `push button`) and name (exact when one is, else as a part, "
		"ignoring case), one a line with its id, bounds and window.",
		.exits = "same",
		.mcp_tool = "find",
		.mcp_args = (const char *const[]){"role", "name", "window", NULL},
		.mcp_json =
	"{\"name\":\"find\",\"description\":\"Finds visible elements by accessibility role (push button, entry, link, check box, ...; button matches push button) and name (exact, else a part of it, ignoring case), with their bounds in the default screenshot's pixels. click and type take element ROLE:NAME to act on one.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"role\":{\"type\":\"string\"},\"name\":{\"type\":\"string\"},\"window\":{\"type\":\"string\",\"description\":\"a window's id or title\"}},\"additionalProperties\":false}}",
		.result_json = result_none,
	},
};
/* clang-format on */

const struct act_action *act_action_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(act_actions); i++) {
		if (streq(name, act_actions[i].name)) {
			return &act_actions[i];
		}
	}
	return NULL;
}

const struct act_action *act_action_by_tool(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(act_actions); i++) {
		if (act_actions[i].mcp_tool && streq(name, act_actions[i].mcp_tool)) {
			return &act_actions[i];
		}
	}
	return NULL;
}

void act_print_help(FILE *f)
{
	for (size_t i = 0; i < ARRAY_SIZE(act_actions); i++) {
		(void)help_synopsis(f, act_actions[i].name, act_actions[i].synopsis);
		fputc('\n', f);
	}
}

/* A placeholder is a word with a capital in it (X, WxH, COMBO, X,Y,W,H); an option starts with
 * "--"; the rest (left, png, stdin, |, [, ]) stays as it is. */
static void print_scdoc(const char *s, FILE *f)
{
	while (*s) {
		size_t n;
		if (s[0] == '-' && s[1] == '-') {
			n = 2 + strspn(s + 2, "abcdefghijklmnopqrstuvwxyz-");
			fprintf(f, "*%.*s*", (int)n, s);
		} else if (isalnum((unsigned char)*s)) {
			n = strspn(
				s,
				"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789,");
			bool capital = false;
			for (size_t i = 0; i < n; i++) {
				capital = capital || isupper((unsigned char)s[i]);
			}
			if (capital) {
				fprintf(f, "_%.*s_", (int)n, s);
			} else {
				fprintf(f, "%.*s", (int)n, s);
			}
		} else {
			n = 1;
			fputc(*s, f);
		}
		s += n;
	}
}

void act_print_doc_rows(FILE *f, bool scdoc)
{
	for (size_t i = 0; i < ARRAY_SIZE(act_actions); i++) {
		const struct act_action *a = &act_actions[i];
		if (scdoc) {
			fprintf(f, "*%s* ", a->name);
			print_scdoc(a->synopsis, f);
			fputc('\n', f);
			continue;
		}
		fprintf(f, "| `%s ", a->name);
		for (const char *p = a->synopsis; *p; p++) {
			if (*p == '|') {
				fputc('\\', f);
			}
			fputc(*p, f);
		}
		fprintf(f, "` | %s | %s |\n", a->summary, a->exits);
	}
}
