#include "actopts.h"

#include <assert.h>
#include <string.h>

#include "acttable.h"
#include "parse.h"
#include "picture.h"
#include "util.h"

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

/* The OPT_ values go in the order of the rows' option bits (acttable.h). */
bool actopts_taken(enum act_cmd cmd, int opt)
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

int actopts_parse(struct act_req *rq, int opt, const char *arg, bool *dir_set, struct error *err)
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

const struct option actopts_long[] = {
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
