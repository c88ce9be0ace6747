#include "actargs.h"

#include <assert.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "acttable.h"
#include "parse.h"
#include "picture.h"
#include "utf8.h"
#include "util.h"

const char *act_cmd_name(enum act_cmd cmd)
{
	return cmd < ACT_CMD_COUNT ? act_actions[cmd].name : "?";
}

bool act_is_pointer(enum act_cmd cmd)
{
	return cmd < ACT_CMD_COUNT && act_actions[cmd].pointer;
}

bool act_by_pointer_program(const struct act_req *rq)
{
	return act_is_pointer(rq->cmd) && !rq->hold && !rq->at_pointer && !rq->changes;
}

bool act_is_a11y(const struct act_req *rq)
{
	return rq->cmd == ACT_TREE || rq->cmd == ACT_FIND || rq->element;
}

static int act_cmd_from_name(const char *name, enum act_cmd *ret)
{
	const struct act_action *a = act_action_find(name);
	if (!a) {
		return -ENOENT;
	}
	*ret = (enum act_cmd)(a - act_actions);
	return 0;
}

const char *act_button_name(unsigned button)
{
	static const char *const names[] = {"left", "left", "middle", "right", "?",
					    "?",    "?",    "?",      "back",  "forward"};
	return button < ARRAY_SIZE(names) ? names[button] : "?";
}

const char *act_scroll_name(enum act_scroll dir)
{
	static const char *const names[] = {"up", "down", "left", "right"};
	return names[dir];
}

const char *act_win_op_name(enum act_win_op op)
{
	static const char *const names[] = {"focus", "close", "move", "resize"};
	return names[op];
}

void act_req_init(struct act_req *rq, enum act_cmd cmd)
{
	*rq = (struct act_req){
		.cmd = cmd,
		.button = 1,
		.clicks = 1,
		.amount = 1,
		.dir = ACT_SCROLL_DOWN,
		.quality = ACT_QUALITY_DEFAULT,
		.timeout_ms = ACT_WAIT_DEFAULT_MS,
		.quiet_ms = ACT_QUIET_DEFAULT_MS,
	};
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

int act_check_clip_text(const char *text, size_t len, const char *what, struct error *err)
{
	size_t chars, bad;
	if (len > ACT_CLIP_MAX) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"the text from %s is %zu bytes; the clipboard takes at most %d", what, len,
			ACT_CLIP_MAX);
	}
	if (utf8_validate(text, len, &chars, &bad) < 0) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"the text from %s is not UTF-8 (a bad byte at offset %zu): convert it to UTF-8 first",
			what, bad);
	}
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
	OPT_TRIPLE,
	OPT_HOLD,
	OPT_PATH,
	OPT_HOLD_FOR,
	OPT_PRIMARY,
	OPT_WINDOW,
	OPT_DEPTH,
	OPT_ROLE,
	OPT_NAME,
	OPT_ELEMENT,
	OPT_CHANGES,
};

/* Which options each command takes: its row's (acttable.c), in the order of the OPT_ values. */
static bool takes(enum act_cmd cmd, int opt)
{
	static_assert(OPT_QUIET - OPT_JSON == 18 && ACT_O_QUIET == 1u << 18 &&
			      OPT_CHANGES - OPT_JSON == 29 && ACT_O_CHANGES == 1u << 29,
		      "the OPT_ values and the table's option bits go in the same order");
	return opt >= OPT_JSON && opt <= OPT_CHANGES &&
	       (act_actions[cmd].options & (1u << (opt - OPT_JSON)));
}

/* --json and the pointer options: where, which button, which way. */
static int pointer_option(struct act_req *rq, int opt, const char *arg, bool *dir_set,
			  struct error *err)
{
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
	case OPT_TRIPLE:
		if (rq->clicks != 1) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "click takes --double or --triple, not both");
		}
		rq->dbl = opt == OPT_DOUBLE;
		rq->clicks = opt == OPT_DOUBLE ? 2 : 3;
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
	}
	return -EINVAL;
}

/* The keyboard options: where the text comes from, the pace, press or release. */
static int keyboard_option(struct act_req *rq, int opt, const char *arg, struct error *err)
{
	switch (opt) {
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
	}
	return -EINVAL;
}

/* The screenshot's options: size, format, quality, where it goes, which region. */
static int picture_option(struct act_req *rq, int opt, const char *arg, struct error *err)
{
	switch (opt) {
	case OPT_MAX:
		if (picture_parse_max(arg, &rq->max_w, &rq->max_h) < 0) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "--max takes " PICTURE_MAX_RULE ", not '%s'", arg);
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
	}
	return -EINVAL;
}

/* The waits' options: how long at most, how long quiet. */
static int wait_option(struct act_req *rq, int opt, const char *arg, struct error *err)
{
	uint64_t ms;
	switch (opt) {
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

/* The models' vocabulary (issue 25.5): keys held around a pointer action, a drag along a path,
 * a key held for a time. */
static int vocab_option(struct act_req *rq, int opt, const char *arg, bool *dir_set,
			struct error *err)
{
	switch (opt) {
	case OPT_TRIPLE:
		return pointer_option(rq, opt, arg, dir_set, err);
	case OPT_HOLD:
		if (!*arg || strlen(arg) > ACT_COMBO_MAX) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"--hold takes the keys to hold joined by +, e.g. shift or ctrl+shift, not '%s'",
				arg);
		}
		rq->hold = arg;
		return 0;
	case OPT_PATH:
		/* The positionals are then points (pos_drag): one marks the mode until then. */
		rq->n_path = 1;
		return 0;
	case OPT_HOLD_FOR:
		if (parse_seconds_ms(arg, ACT_HOLD_MAX_MS, &rq->hold_ms) < 0 || rq->hold_ms == 0) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"--hold-for takes seconds above 0, up to %d (e.g. 1 or 0.5), not '%s'",
				ACT_HOLD_MAX_MS / 1000, arg);
		}
		return 0;
	}
	return -EINVAL;
}

/* The accessibility tree's options (act/a11y.h): what to match, how deep. */
static int a11y_option(struct act_req *rq, int opt, const char *arg, struct error *err)
{
	static const char *const names[] = {"--window", "--depth", "--role", "--name", "--element"};
	const char *what = names[opt - OPT_WINDOW];
	if (opt == OPT_DEPTH) {
		if (parse_uint_range(arg, 1, ACT_DEPTH_MAX, &rq->depth) < 0) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "--depth takes levels, 1 to %d, not '%s'",
					      ACT_DEPTH_MAX, arg);
		}
		return 0;
	}
	size_t chars;
	if (!*arg || strlen(arg) > ACT_MATCH_MAX ||
	    act_check_text(arg, strlen(arg), what, &chars, err) < 0 || strpbrk(arg, "\n\t")) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "%s takes one line of UTF-8 text, 1 to %d bytes", what,
				      ACT_MATCH_MAX);
	}
	const char **where[] = {&rq->window, NULL, &rq->role, &rq->name, &rq->element};
	*where[opt - OPT_WINDOW] = arg;
	return 0;
}

static int parse_option(struct act_req *rq, int opt, const char *arg, bool *dir_set,
			struct error *err)
{
	if (opt == OPT_CHANGES) {
		rq->changes = true;
		return 0;
	}
	if (opt >= OPT_WINDOW) {
		return a11y_option(rq, opt, arg, err);
	}
	if (opt == OPT_PRIMARY) {
		rq->primary = true;
		return 0;
	}
	if (opt >= OPT_TRIPLE) {
		return vocab_option(rq, opt, arg, dir_set, err);
	}
	if (opt <= OPT_RIGHT) {
		return pointer_option(rq, opt, arg, dir_set, err);
	}
	if (opt <= OPT_RELEASE) {
		return keyboard_option(rq, opt, arg, err);
	}
	if (opt <= OPT_REGION) {
		return picture_option(rq, opt, arg, err);
	}
	return wait_option(rq, opt, arg, err);
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
	{"triple", no_argument, NULL, OPT_TRIPLE},
	{"hold", required_argument, NULL, OPT_HOLD},
	{"path", no_argument, NULL, OPT_PATH},
	{"hold-for", required_argument, NULL, OPT_HOLD_FOR},
	{"primary", no_argument, NULL, OPT_PRIMARY},
	{"window", required_argument, NULL, OPT_WINDOW},
	{"depth", required_argument, NULL, OPT_DEPTH},
	{"role", required_argument, NULL, OPT_ROLE},
	{"name", required_argument, NULL, OPT_NAME},
	{"element", required_argument, NULL, OPT_ELEMENT},
	{"changes", no_argument, NULL, OPT_CHANGES},
	{NULL, 0, NULL, 0},
};

bool act_print_options(const char *name, FILE *f)
{
	enum act_cmd cmd;
	if (act_cmd_from_name(name, &cmd) < 0) {
		return false;
	}
	/* A name with verbs (clipboard get, clipboard set): what any of its rows takes. */
	for (size_t i = 0; longopts[i].name; i++) {
		bool any = false;
		for (size_t c = cmd; c < ACT_CMD_COUNT && streq(act_actions[c].name, name); c++) {
			any = any || takes((enum act_cmd)c, longopts[i].val);
		}
		if (any) {
			fprintf(f, " --%s", longopts[i].name);
		}
	}
	return true;
}

/* The row among those named argv[0] whose verb is argv[1]: the verb is the word right after the
 * name (`clipboard set --primary`), so the options are checked against the right row. */
static int pick_verb(int *argc, char ***argv, enum act_cmd *cmd, struct error *err)
{
	const char *name = (*argv)[0];
	for (size_t c = *cmd; c < ACT_CMD_COUNT && streq(act_actions[c].name, name); c++) {
		if (*argc >= 2 && streq((*argv)[1], act_actions[c].verb)) {
			*cmd = (enum act_cmd)c;
			(*argc)--;
			(*argv)++;
			return 0;
		}
	}
	char verbs[128] = "";
	for (size_t c = *cmd; c < ACT_CMD_COUNT && streq(act_actions[c].name, name); c++) {
		size_t at = strlen(verbs);
		snprintf(verbs + at, sizeof(verbs) - at, "%s%s", at ? " or " : "",
			 act_actions[c].verb);
	}
	return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "%s takes %s first, not '%s'", name,
			      verbs, *argc >= 2 ? (*argv)[1] : "");
}

int act_parse_argv(int argc, char **argv, struct act_req *rq, struct error *err)
{
	enum act_cmd cmd;
	if (argc < 1 || act_cmd_from_name(argv[0], &cmd) < 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "unknown action '%s'",
				      argc < 1 ? "" : argv[0]);
	}
	if (act_actions[cmd].verb && pick_verb(&argc, &argv, &cmd, err) < 0) {
		return -EINVAL;
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
						      "too many arguments for %s",
						      act_cmd_name(cmd));
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
					      "%s takes no option '%s'%s", act_cmd_name(cmd), opt,
					      ch == ':' ? " without a value" : "");
		}
		if (!takes(cmd, ch)) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "%s takes no option '--%s'", act_cmd_name(cmd),
					      longopts[idx].name);
		}
		if (parse_option(rq, ch, optarg, &dir_set, err) < 0) {
			return -EINVAL;
		}
	}
	for (int i = optind; i < argc; i++) {
		if (n == (int)ARRAY_SIZE(pos)) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "too many arguments for %s", act_cmd_name(cmd));
		}
		pos[n++] = argv[i];
	}
	if (cmd == ACT_SCROLL && !dir_set) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "scroll takes a direction: --up, --down, --left or --right");
	}
	if (rq->hold_ms && rq->key_mode != ACT_KEY_TAP) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"--hold-for presses and lets go itself: no --press or --release");
	}
	if (rq->format != ACT_FORMAT_JPEG && rq->quality != ACT_QUALITY_DEFAULT) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "--quality is for --format jpeg");
	}
	if (rq->element && rq->changes) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "--changes is not taken with --element (give X Y)");
	}
	if (rq->element && rq->from_w) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "--element finds the point itself: it takes no --from");
	}
	return act_actions[cmd].positionals(rq, n, pos, err);
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
	const char *xn = two ? "X1" : "X", *yn = two ? "Y1" : "Y";
	int r = 0;
	/* at_pointer: the first point is where the pointer is, which the caller asks the server. */
	if (!rq->at_pointer) {
		r = point(rq, xn, yn, rq->x, rq->y, sw, sh, x, y, err);
	}
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

int act_resolve_path(const struct act_req *rq, unsigned sw, unsigned sh, unsigned (*ret)[2],
		     struct error *err)
{
	for (size_t i = 0; i < rq->n_path; i++) {
		char xn[32], yn[32];
		snprintf(xn, sizeof(xn), "point %zu's X", i + 1);
		snprintf(yn, sizeof(yn), "Y");
		int r = point(rq, xn, yn, rq->path[i][0], rq->path[i][1], sw, sh, &ret[i][0],
			      &ret[i][1], err);
		if (r < 0) {
			return r;
		}
	}
	return 0;
}
