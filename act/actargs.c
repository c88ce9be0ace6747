#include "actargs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "actopts.h"
#include "acttable.h"
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

bool act_print_options(const char *name, FILE *f)
{
	enum act_cmd cmd;
	if (act_cmd_from_name(name, &cmd) < 0) {
		return false;
	}
	/* A name with verbs (clipboard get, clipboard set): what any of its rows takes. */
	for (size_t i = 0; actopts_long[i].name; i++) {
		bool any = false;
		for (size_t c = cmd; c < ACT_CMD_COUNT && streq(act_actions[c].name, name); c++) {
			any = any || actopts_taken((enum act_cmd)c, actopts_long[i].val);
		}
		if (any) {
			fprintf(f, " --%s", actopts_long[i].name);
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

/* The positional arguments (at most POS_MAX) in order into pos. */
#define POS_MAX (8 + ACT_KEYS_MAX)
static int keep_positional(char **pos, int *n, char *arg, enum act_cmd cmd, struct error *err)
{
	if (*n == POS_MAX) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "too many arguments for %s",
				      act_cmd_name(cmd));
	}
	pos[(*n)++] = arg;
	return 0;
}

/* What getopt refused: a negative number is a point off the screen, anything else an option no
 * action takes (or one without its value). */
static int refused_option(const char *opt, enum act_cmd cmd, bool no_value, struct error *err)
{
	if (opt[0] == '-' && opt[1] >= '0' && opt[1] <= '9') {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"'%s' is off the screen: coordinates count from 0 at the top left", opt);
	}
	return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "%s takes no option '%s'%s",
			      act_cmd_name(cmd), opt, no_value ? " without a value" : "");
}

/* The options that are wrong together, or wrong missing. */
static int check_together(const struct act_req *rq, bool dir_set, struct error *err)
{
	if (rq->cmd == ACT_SCROLL && !dir_set) {
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
	return 0;
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
	char *pos[POS_MAX];
	int n = 0;
	/* Options may come anywhere; "-" first in the option string hands the other arguments
	 * over in order (no permuting), and a TEXT starting with '-' goes after --. optind 0
	 * starts getopt afresh on this argv. */
	optind = 0;
	opterr = 0;
	int ch, idx = -1;
	while ((ch = getopt_long(argc, argv, "-", actopts_long, &idx)) != -1) {
		if (ch == 1) {
			if (keep_positional(pos, &n, optarg, cmd, err) < 0) {
				return -EINVAL;
			}
			continue;
		}
		if (ch == '?' || ch == ':') {
			return refused_option(argv[optind - 1], cmd, ch == ':', err);
		}
		if (!actopts_taken(cmd, ch)) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "%s takes no option '--%s'", act_cmd_name(cmd),
					      actopts_long[idx].name);
		}
		if (actopts_parse(rq, ch, optarg, &dir_set, err) < 0) {
			return -EINVAL;
		}
	}
	for (int i = optind; i < argc; i++) {
		if (keep_positional(pos, &n, argv[i], cmd, err) < 0) {
			return -EINVAL;
		}
	}
	if (check_together(rq, dir_set, err) < 0) {
		return -EINVAL;
	}
	return act_actions[cmd].positionals(rq, n, pos, err);
}
