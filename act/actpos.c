#include "actpos.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "parse.h"
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

/* X Y (and scroll's count). */
int actpos_point(struct act_req *rq, int n, char **args, struct error *err)
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

int actpos_drag(struct act_req *rq, int n, char **args, struct error *err)
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
int actpos_maybe_point(struct act_req *rq, int n, char **args, struct error *err)
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
	return actpos_point(rq, n, args, err);
}

int actpos_seconds(struct act_req *rq, int n, char **args, struct error *err)
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

int actpos_text(struct act_req *rq, int n, char **args, struct error *err)
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

int actpos_combos(struct act_req *rq, int n, char **args, struct error *err)
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

int actpos_none(struct act_req *rq, int n, char **args, struct error *err)
{
	if (n > 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "unexpected argument '%s'",
				      args[0]);
	}
	return 0;
}

/* clipboard set: TEXT, or standard input (read by botdesk-act) when none. */
int actpos_clip_set(struct act_req *rq, int n, char **args, struct error *err)
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
int actpos_window(struct act_req *rq, int n, char **args, struct error *err)
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
int actpos_target(struct act_req *rq, int n, char **args, struct error *err)
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
