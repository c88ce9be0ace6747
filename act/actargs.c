#include "actargs.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "utf8.h"
#include "util.h"

static const char *const cmd_names[ACT_CMD_COUNT] = {
	[ACT_CLICK] = "click",
	[ACT_MOVE] = "move",
	[ACT_DRAG] = "drag",
	[ACT_SCROLL] = "scroll",
	[ACT_CURSOR] = "cursor",
	[ACT_TYPE] = "type",
	[ACT_KEY] = "key",
	[ACT_SCREENSHOT] = "screenshot",
	[ACT_WAIT_IDLE] = "wait-idle",
	[ACT_WAIT_CHANGE] = "wait-change",
};

const char *act_cmd_name(enum act_cmd cmd)
{
	return cmd < ACT_CMD_COUNT ? cmd_names[cmd] : "?";
}

bool act_is_pointer(enum act_cmd cmd)
{
	return cmd == ACT_CLICK || cmd == ACT_MOVE || cmd == ACT_DRAG || cmd == ACT_SCROLL;
}

static int act_cmd_from_name(const char *name, enum act_cmd *ret)
{
	for (int i = 0; i < ACT_CMD_COUNT; i++) {
		if (streq(name, cmd_names[i])) {
			*ret = (enum act_cmd)i;
			return 0;
		}
	}
	return -ENOENT;
}

const char *act_button_name(unsigned button)
{
	return button == 2 ? "middle" : button == 3 ? "right" : "left";
}

const char *act_scroll_name(enum act_scroll dir)
{
	static const char *const names[] = {"up", "down", "left", "right"};
	return names[dir];
}

void act_req_init(struct act_req *rq, enum act_cmd cmd)
{
	*rq = (struct act_req){
		.cmd = cmd,
		.button = 1,
		.amount = 1,
		.dir = ACT_SCROLL_DOWN,
		.quality = ACT_QUALITY_DEFAULT,
		.timeout_ms = ACT_WAIT_DEFAULT_MS,
		.quiet_ms = ACT_QUIET_DEFAULT_MS,
	};
}

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

int act_check_text(const char *text, size_t len, const char *what, size_t *ret_chars,
		   struct error *err)
{
	if (len > ACT_TEXT_MAX) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"the text from %s is %zu bytes; type takes at most %d bytes at a time: split it",
			what, len, ACT_TEXT_MAX);
	}
	size_t pos = 0, chars = 0;
	while (pos < len) {
		uint32_t c;
		size_t at = pos;
		if (utf8_next(text, len, &pos, &c) < 0) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"the text from %s is not UTF-8 (a bad byte at offset %zu): convert it to UTF-8 first",
				what, at);
		}
		if ((c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c < 0xa0)) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"the text from %s holds the control character U+%04X at offset %zu; type takes printable text, newlines and tabs (use 'botdesk key' for other keys)",
				what, (unsigned)c, at);
		}
		chars++;
	}
	*ret_chars = chars;
	return 0;
}

static int parse_region(const char *s, struct act_req *rq, struct error *err)
{
	unsigned v[4];
	const char *p = s;
	for (int i = 0; i < 4; i++) {
		const char *end = strchr(p, ',');
		size_t n = end && i < 3 ? (size_t)(end - p) : strlen(p);
		uint64_t x;
		if ((i < 3 && !end) || parse_u64_n(p, n, ACT_COORD_MAX, &x) < 0 ||
		    (i >= 2 && x == 0)) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"--region takes X,Y,WIDTH,HEIGHT in screen pixels (e.g. 0,0,800,600), not '%s'",
				s);
		}
		v[i] = (unsigned)x;
		p += n + 1;
	}
	rq->region = true;
	rq->rx = v[0];
	rq->ry = v[1];
	rq->rw = v[2];
	rq->rh = v[3];
	return 0;
}

enum {
	OPT_JSON = 1000,
	OPT_FROM,
	OPT_BUTTON,
	OPT_DOUBLE,
	OPT_UP,
	OPT_DOWN,
	OPT_LEFT,
	OPT_RIGHT,
	OPT_FILE,
	OPT_DELAY,
	OPT_PRESS,
	OPT_RELEASE,
	OPT_MAX,
	OPT_FORMAT,
	OPT_QUALITY,
	OPT_OUTPUT,
	OPT_REGION,
	OPT_TIMEOUT,
	OPT_QUIET,
};

/* Which options each command takes. */
static bool takes(enum act_cmd cmd, int opt)
{
	bool pointer = cmd == ACT_CLICK || cmd == ACT_MOVE || cmd == ACT_DRAG ||
		       cmd == ACT_SCROLL || cmd == ACT_CURSOR;
	switch (opt) {
	case OPT_JSON:
		return cmd != ACT_SCREENSHOT;
	case OPT_FROM:
		return pointer;
	case OPT_BUTTON:
		return cmd == ACT_CLICK || cmd == ACT_DRAG;
	case OPT_DOUBLE:
		return cmd == ACT_CLICK;
	case OPT_UP:
	case OPT_DOWN:
	case OPT_LEFT:
	case OPT_RIGHT:
		return cmd == ACT_SCROLL;
	case OPT_FILE:
		return cmd == ACT_TYPE;
	case OPT_DELAY:
		return cmd == ACT_TYPE || cmd == ACT_KEY;
	case OPT_PRESS:
	case OPT_RELEASE:
		return cmd == ACT_KEY;
	case OPT_MAX:
	case OPT_FORMAT:
	case OPT_QUALITY:
	case OPT_OUTPUT:
	case OPT_REGION:
		return cmd == ACT_SCREENSHOT;
	case OPT_TIMEOUT:
		return cmd == ACT_WAIT_IDLE || cmd == ACT_WAIT_CHANGE;
	case OPT_QUIET:
		return cmd == ACT_WAIT_IDLE;
	}
	return false;
}

static int parse_option(struct act_req *rq, int opt, const char *arg, bool *dir_set,
			struct error *err)
{
	uint64_t ms;
	switch (opt) {
	case OPT_JSON:
		rq->json = true;
		return 0;
	case OPT_FROM:
		if (parse_geometry(arg, 1, ACT_COORD_MAX, &rq->from_w, &rq->from_h) < 0) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"--from takes the picture's WIDTHxHEIGHT (e.g. 960x600), not '%s'",
				arg);
		}
		return 0;
	case OPT_BUTTON:
		if (streq(arg, "left")) {
			rq->button = 1;
		} else if (streq(arg, "middle")) {
			rq->button = 2;
		} else if (streq(arg, "right")) {
			rq->button = 3;
		} else {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "--button takes left, middle or right, not '%s'",
					      arg);
		}
		return 0;
	case OPT_DOUBLE:
		rq->dbl = true;
		return 0;
	case OPT_UP:
	case OPT_DOWN:
	case OPT_LEFT:
	case OPT_RIGHT:
		if (*dir_set) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"scroll takes one direction: --up, --down, --left or --right");
		}
		*dir_set = true;
		rq->dir = (enum act_scroll)(opt - OPT_UP);
		return 0;
	case OPT_FILE:
		rq->file = arg;
		return 0;
	case OPT_DELAY:
		if (parse_uint_range(arg, 0, ACT_DELAY_MAX_MS, &rq->delay_ms) < 0) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"--delay takes milliseconds between keys (0 to %d), not '%s'",
				ACT_DELAY_MAX_MS, arg);
		}
		return 0;
	case OPT_PRESS:
	case OPT_RELEASE:
		if (rq->key_mode != ACT_KEY_TAP) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "key takes --press or --release, not both");
		}
		rq->key_mode = opt == OPT_PRESS ? ACT_KEY_PRESS : ACT_KEY_RELEASE;
		return 0;
	case OPT_MAX:
		if (parse_geometry(arg, 16, 8192, &rq->max_w, &rq->max_h) < 0) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"--max takes WIDTHxHEIGHT (16 to 8192 each), not '%s'", arg);
		}
		return 0;
	case OPT_FORMAT:
		if (streq(arg, "png")) {
			rq->format = ACT_FORMAT_PNG;
		} else if (streq(arg, "jpeg") || streq(arg, "jpg")) {
			rq->format = ACT_FORMAT_JPEG;
		} else {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "--format takes png or jpeg, not '%s'", arg);
		}
		return 0;
	case OPT_QUALITY: {
		unsigned q;
		if (parse_uint_range(arg, 1, 100, &q) < 0) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"--quality takes a JPEG quality from 1 to 100, not '%s'", arg);
		}
		rq->quality = (int)q;
		return 0;
	}
	case OPT_OUTPUT:
		if (!*arg) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"--output takes a file name, or - for standard output");
		}
		rq->output = arg;
		return 0;
	case OPT_REGION:
		return parse_region(arg, rq, err);
	case OPT_TIMEOUT:
	case OPT_QUIET:
		if (parse_seconds_ms(arg, ACT_WAIT_MAX_MS, &ms) < 0 || ms == 0) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"%s takes seconds (up to %d, e.g. 10 or 0.5), not '%s'",
				opt == OPT_TIMEOUT ? "--timeout" : "--quiet",
				ACT_WAIT_MAX_MS / 1000, arg);
		}
		*(opt == OPT_TIMEOUT ? &rq->timeout_ms : &rq->quiet_ms) = ms;
		return 0;
	}
	return -EINVAL;
}

static int positionals(struct act_req *rq, int n, char **args, struct error *err)
{
	const char *cmd = act_cmd_name(rq->cmd);
	switch (rq->cmd) {
	case ACT_CLICK:
	case ACT_MOVE:
	case ACT_SCROLL:
		if (n < 2 || n > (rq->cmd == ACT_SCROLL ? 3 : 2)) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "%s takes X Y%s", cmd,
					      rq->cmd == ACT_SCROLL ? " and an optional count"
								    : "");
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
	case ACT_DRAG:
		if (n != 4) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "drag takes X1 Y1 X2 Y2");
		}
		if (coordinate("X1", args[0], &rq->x, err) < 0 ||
		    coordinate("Y1", args[1], &rq->y, err) < 0 ||
		    coordinate("X2", args[2], &rq->x2, err) < 0 ||
		    coordinate("Y2", args[3], &rq->y2, err) < 0) {
			return -EINVAL;
		}
		return 0;
	case ACT_TYPE:
		if (n > 1 || (n == 1 && rq->file)) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"type takes one TEXT argument, or --file FILE, or the text on standard input");
		}
		if (n == 1) {
			size_t chars;
			rq->text = args[0];
			rq->text_len = strlen(args[0]);
			return act_check_text(rq->text, rq->text_len, "TEXT", &chars, err);
		}
		return 0;
	case ACT_KEY:
		if (n == 0) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"key takes one or more combos, e.g. ctrl+l, alt+F4, Return");
		}
		if (n > ACT_KEYS_MAX) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "key takes at most %d combos at a time",
					      ACT_KEYS_MAX);
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
	default:
		if (n > 0) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "unexpected argument '%s'", args[0]);
		}
		return 0;
	}
}

/* Every option of the actions; takes() says which action takes which. */
static const struct option longopts[] = {
	{"json", no_argument, NULL, OPT_JSON},
	{"from", required_argument, NULL, OPT_FROM},
	{"button", required_argument, NULL, OPT_BUTTON},
	{"double", no_argument, NULL, OPT_DOUBLE},
	{"up", no_argument, NULL, OPT_UP},
	{"down", no_argument, NULL, OPT_DOWN},
	{"left", no_argument, NULL, OPT_LEFT},
	{"right", no_argument, NULL, OPT_RIGHT},
	{"file", required_argument, NULL, OPT_FILE},
	{"delay", required_argument, NULL, OPT_DELAY},
	{"press", no_argument, NULL, OPT_PRESS},
	{"release", no_argument, NULL, OPT_RELEASE},
	{"max", required_argument, NULL, OPT_MAX},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"quality", required_argument, NULL, OPT_QUALITY},
	{"output", required_argument, NULL, OPT_OUTPUT},
	{"region", required_argument, NULL, OPT_REGION},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"quiet", required_argument, NULL, OPT_QUIET},
	{NULL, 0, NULL, 0},
};

bool act_print_options(const char *name, FILE *f)
{
	enum act_cmd cmd;
	if (act_cmd_from_name(name, &cmd) < 0) {
		return false;
	}
	for (size_t i = 0; longopts[i].name; i++) {
		if (takes(cmd, longopts[i].val)) {
			fprintf(f, " --%s", longopts[i].name);
		}
	}
	return true;
}

int act_parse_argv(int argc, char **argv, struct act_req *rq, struct error *err)
{
	enum act_cmd cmd;
	if (argc < 1 || act_cmd_from_name(argv[0], &cmd) < 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "unknown action '%s'",
				      argc < 1 ? "" : argv[0]);
	}
	act_req_init(rq, cmd);
	bool dir_set = false;
	char *pos[8 + ACT_KEYS_MAX];
	int n = 0;
	/* Options may come anywhere; "-" first in the option string hands the other arguments
	 * over in order (no permuting), and a TEXT starting with '-' goes after --. optind 0
	 * starts getopt afresh on this argv. */
	optind = 0;
	opterr = 0;
	int ch, idx = -1;
	while ((ch = getopt_long(argc, argv, "-", longopts, &idx)) != -1) {
		if (ch == 1) {
			if (n == (int)ARRAY_SIZE(pos)) {
				return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
						      "too many arguments for %s", argv[0]);
			}
			pos[n++] = optarg;
			continue;
		}
		if (ch == '?' || ch == ':') {
			const char *opt = argv[optind - 1];
			if (opt[0] == '-' && opt[1] >= '0' && opt[1] <= '9') {
				return error_set_kind(
					err, ERROR_BAD_INPUT, -EINVAL,
					"'%s' is off the screen: coordinates count from 0 at the top left",
					opt);
			}
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "%s takes no option '%s'%s", argv[0], opt,
					      ch == ':' ? " without a value" : "");
		}
		if (!takes(cmd, ch)) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "%s takes no option '--%s'", argv[0],
					      longopts[idx].name);
		}
		if (parse_option(rq, ch, optarg, &dir_set, err) < 0) {
			return -EINVAL;
		}
	}
	for (int i = optind; i < argc; i++) {
		if (n == (int)ARRAY_SIZE(pos)) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "too many arguments for %s", argv[0]);
		}
		pos[n++] = argv[i];
	}
	if (cmd == ACT_SCROLL && !dir_set) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "scroll takes a direction: --up, --down, --left or --right");
	}
	if (rq->format != ACT_FORMAT_JPEG && rq->quality != ACT_QUALITY_DEFAULT) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "--quality is for --format jpeg");
	}
	return positionals(rq, n, pos, err);
}

unsigned act_from_picture(unsigned p, unsigned pic, unsigned screen)
{
	return (unsigned)(((2 * (uint64_t)p + 1) * screen) / (2 * (uint64_t)pic));
}

unsigned act_to_picture(unsigned s, unsigned screen, unsigned pic)
{
	return (unsigned)(((2 * (uint64_t)s + 1) * pic) / (2 * (uint64_t)screen));
}

static int point(const struct act_req *rq, const char *xn, const char *yn, unsigned x, unsigned y,
		 unsigned sw, unsigned sh, unsigned *rx, unsigned *ry, struct error *err)
{
	if (rq->from_w) {
		if (x >= rq->from_w || y >= rq->from_h) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"%s,%s = %u,%u is off the %ux%u picture named by --from (0 to %u, 0 to %u)",
				xn, yn, x, y, rq->from_w, rq->from_h, rq->from_w - 1,
				rq->from_h - 1);
		}
		*rx = act_from_picture(x, rq->from_w, sw);
		*ry = act_from_picture(y, rq->from_h, sh);
		return 0;
	}
	if (x >= sw || y >= sh) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"%s,%s = %u,%u is off the %ux%u screen (0 to %u, 0 to %u); a point in a smaller picture needs --from WIDTHxHEIGHT (MCP: from)",
			xn, yn, x, y, sw, sh, sw - 1, sh - 1);
	}
	*rx = x;
	*ry = y;
	return 0;
}

int act_resolve_points(const struct act_req *rq, unsigned sw, unsigned sh, unsigned *x, unsigned *y,
		       unsigned *x2, unsigned *y2, struct error *err)
{
	bool two = rq->cmd == ACT_DRAG;
	int r = point(rq, two ? "X1" : "X", two ? "Y1" : "Y", rq->x, rq->y, sw, sh, x, y, err);
	if (r == 0 && two) {
		r = point(rq, "X2", "Y2", rq->x2, rq->y2, sw, sh, x2, y2, err);
	}
	return r;
}

int act_check_region(const struct act_req *rq, unsigned sw, unsigned sh, struct error *err)
{
	if (rq->region && ((uint64_t)rq->rx + rq->rw > sw || (uint64_t)rq->ry + rq->rh > sh)) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "--region %u,%u,%u,%u reaches outside the %ux%u screen",
				      rq->rx, rq->ry, rq->rw, rq->rh, sw, sh);
	}
	return 0;
}
