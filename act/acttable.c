#include "acttable.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "actlogkeys.h"
#include "actpos.h"
#include "actresult.h"
#include "helptext.h"
#include "util.h"

/* The tools as tools/list shows them. MCP_TOOL gives a row its tool: the name (once, for the
 * lookup and the schema alike), what the tool does, its arguments' schemas, the rules over them
 * ("required" or "anyOf", or ""), and the arguments mcp/mcp-proto.c reads, NULL-terminated. A
 * tool takes no argument its schema does not name. */
#define MCP_TOOL(tool, description, properties, rules, ...)                               \
	.mcp_tool = tool, .mcp_args = (const char *const[]){__VA_ARGS__},                 \
	.mcp_json = "{\"name\":\"" tool "\",\"description\":\"" description               \
		    "\",\"inputSchema\":{\"type\":\"object\",\"properties\":{" properties \
		    "}" rules ",\"additionalProperties\":false}}"

/* The arguments' schemas. Coordinates are in the default screenshot's pixels (sized for the
 * model, act/modelpic.h) unless "from" names the size of the picture they were read from (a
 * screenshot with max, a thumbnail, the screen itself): the server scales them exactly as that
 * picture was scaled. */
#define INTEGER(min, max) "{\"type\":\"integer\",\"minimum\":" #min ",\"maximum\":" #max "}"
#define COORD INTEGER(0, 65535)
#define XY "\"x\":" COORD ",\"y\":" COORD
#define SIZE_TEXT(description) \
	"{\"type\":\"string\",\"pattern\":\"^[0-9]+x[0-9]+$\",\"description\":\"" description "\"}"
#define FROM                                                                                      \
	"\"from\":" SIZE_TEXT("WIDTHxHEIGHT of the picture the coordinates were read from, e.g. " \
			      "960x600, or the screen's size for screen pixels; omit for the "    \
			      "default screenshot's pixels")
#define ELEMENT                                                                                    \
	"\"element\":{\"type\":\"string\",\"description\":\"ROLE:NAME of one visible element, as " \
	"find gives them (e.g. push button:Send, entry:Email), or a node id from tree or find\"}"
#define BUTTON "\"button\":{\"type\":\"string\",\"enum\":[\"left\",\"middle\",\"right\"]}"
#define CHANGES                                                                               \
	"\"changes\":{\"type\":\"boolean\",\"description\":\"also return the screen regions " \
	"drawn in the moment after (up to 0.6 s): whether it did anything, and where\"}"
#define DELAY_MS "\"delay_ms\":" INTEGER(0, 1000)
#define SECONDS(description)                                                                         \
	"{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":600,\"description\":\"" description \
	"\"}"

/* A pointer action: botdesk-act-pointer does it (act_by_pointer_program() says when), its result
 * is where the pointer went, its log line says where and how; it takes where from (in which
 * picture) and keys held meanwhile. */
#define POINTER_ACTION \
	.pointer = true, .result_json = actresult_point, .log_keys = actlogkeys_pointer
#define POINTER_OPTIONS (ACT_O_JSON | ACT_O_FROM | ACT_O_HOLD)

/* clang-format off */
const struct act_action act_actions[ACT_CMD_COUNT] = {
	[ACT_CLICK] = {
		.name = "click",
		.positionals = actpos_point,
		POINTER_ACTION,
		.options = POINTER_OPTIONS | ACT_O_BUTTON | ACT_O_DOUBLE | ACT_O_TRIPLE | ACT_O_ELEMENT | ACT_O_CHANGES,
		.synopsis = "X Y | --element ROLE:NAME|ID [--button left|middle|right] [--double|--triple] [--hold KEYS] [--from WxH] [--changes] [--json]",
		.summary = "Moves the pointer to X Y and clicks; with `--element`, to the middle of the "
		"one showing element `find` gives for that role and name (or node id), refused when "
		"none or several match. `--triple` is one click of count 3 (a line selected). "
		"`--hold shift+ctrl` holds those keys during it (also on `move`, `drag`, `scroll`, "
		"`mouse-down`, `mouse-up`).",
		.exits = "0; 2 bad input; 3; 4 a human holds the desktop; 1",
		MCP_TOOL("click", "Clicks at x, y, or in the middle of the element named by element.",
			CHANGES "," XY "," BUTTON ",\"double\":{\"type\":\"boolean\"}," FROM "," ELEMENT,
			",\"anyOf\":[{\"required\":[\"x\",\"y\"]},{\"required\":[\"element\"]}]",
			"x", "y", "button", "double", "from", "element", "changes", NULL),
	},
	[ACT_MOVE] = {
		.name = "move",
		.positionals = actpos_point,
		POINTER_ACTION,
		.options = POINTER_OPTIONS | ACT_O_CHANGES,
		.synopsis = "X Y [--hold KEYS] [--from WxH] [--changes] [--json]",
		.summary = "Moves the pointer.",
		.exits = "same",
		MCP_TOOL("move", "Moves the pointer to x, y.",
			CHANGES "," XY "," FROM, ",\"required\":[\"x\",\"y\"]",
			"x", "y", "from", "changes", NULL),
	},
	[ACT_DRAG] = {
		.name = "drag",
		.positionals = actpos_drag,
		POINTER_ACTION,
		.options = POINTER_OPTIONS | ACT_O_BUTTON | ACT_O_PATH | ACT_O_CHANGES,
		.synopsis = "X1 Y1 X2 Y2 | --path X,Y X,Y... [--button B] [--hold KEYS] [--from WxH] [--changes] [--json]",
		.summary = "Presses at X1 Y1, moves there in 10 steps, releases at X2 Y2. With `--path`, "
		"presses at the first of 2–64 points and passes through each in turn, 10 steps a leg.",
		.exits = "same",
		MCP_TOOL("drag", "Presses at x1, y1, moves to x2, y2 and releases.",
			CHANGES ",\"x1\":" COORD ",\"y1\":" COORD ",\"x2\":" COORD ",\"y2\":" COORD
			"," BUTTON "," FROM,
			",\"required\":[\"x1\",\"y1\",\"x2\",\"y2\"]",
			"x1", "y1", "x2", "y2", "button", "from", "changes", NULL),
	},
	[ACT_SCROLL] = {
		.name = "scroll",
		.positionals = actpos_point,
		POINTER_ACTION,
		.options = POINTER_OPTIONS | ACT_O_UP | ACT_O_DOWN | ACT_O_LEFT | ACT_O_RIGHT | ACT_O_CHANGES,
		.synopsis = "X Y (--up|--down|--left|--right) [N] [--hold KEYS] [--from WxH] [--changes] [--json]",
		.summary = "N wheel steps (1–100, default 1) at X Y (buttons 4–7).",
		.exits = "same",
		MCP_TOOL("scroll", "Scrolls the wheel at x, y.",
			CHANGES "," XY
			",\"direction\":{\"type\":\"string\",\"enum\":[\"up\",\"down\",\"left\",\"right\"]}"
			",\"amount\":" INTEGER(1, 100) "," FROM,
			",\"required\":[\"x\",\"y\",\"direction\"]",
			"x", "y", "direction", "amount", "from", "changes", NULL),
	},
	[ACT_CURSOR] = {
		.name = "cursor",
		.positionals = actpos_none,
		.options = ACT_O_JSON | ACT_O_FROM,
		.synopsis = "[--from WxH] [--json]",
		.summary = "Prints the pointer's position (`X Y`), in the picture's pixels with `--from`.",
		.exits = "same",
		MCP_TOOL("cursor", "Where the pointer is.", FROM, "", "from", NULL),
		.result_json = actresult_cursor,
	},
	[ACT_TYPE] = {
		.name = "type",
		.positionals = actpos_text,
		.options = ACT_O_JSON | ACT_O_FILE | ACT_O_DELAY | ACT_O_ELEMENT,
		.synopsis = "TEXT | --file FILE | < stdin [--delay MS] [--element ROLE:NAME|ID] [--json]",
		.summary = "Types the text exactly, whatever the keyboard layout (below). At most 65536 "
		"bytes; `--delay` 0–1000 ms between keys (default 0). `--element` clicks the element "
		"first (as `click --element`) unless it has the focus.",
		.exits = "same; 130 interrupted",
		MCP_TOOL("type", "Types text exactly, whatever the keyboard layout (any Unicode; newline "
			"is Return); into the element named by element, focused first.",
			"\"text\":{\"type\":\"string\"}," DELAY_MS "," ELEMENT, ",\"required\":[\"text\"]",
			"text", "delay_ms", "element", NULL),
		.result_json = actresult_type,
		.log_keys = actlogkeys_type,
	},
	[ACT_KEY] = {
		.name = "key",
		.positionals = actpos_combos,
		.options = ACT_O_JSON | ACT_O_DELAY | ACT_O_PRESS | ACT_O_RELEASE | ACT_O_HOLD_FOR,
		.synopsis = "COMBO... [--press|--release|--hold-for S] [--delay MS] [--json]",
		.summary = "Key combos in turn: `ctrl+l`, `alt+F4`, `Return`, `super`, `ctrl+shift+t`, "
		"`ctrl++`. Names are X keysym names (case matters: `a`, `A`, `Page_Up`, `F4`), "
		"the modifiers `ctrl` `alt` `shift` `super` `altgr` `meta` `hyper`, the aliases "
		"`enter` `esc` `tab` `space` `backspace` `del` `ins` `home` `end` `pgup` `pgdn` "
		"`up` `down` `left` `right` `f1`…, or one character. `--press` holds, "
		"`--release` lets go, `--hold-for S` holds one combo S seconds (at most 300) and lets go.",
		.exits = "same",
		MCP_TOOL("key", "Presses key combos in turn, e.g. [\\\"ctrl+l\\\", \\\"Return\\\"]; X "
			"keysym names, ctrl, alt, shift, super.",
			"\"keys\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1,\"maxItems\":64}"
			",\"mode\":{\"type\":\"string\",\"enum\":[\"tap\",\"press\",\"release\"]}," DELAY_MS,
			",\"required\":[\"keys\"]",
			"keys", "mode", "delay_ms", NULL),
		.result_json = actresult_key,
		.log_keys = actlogkeys_key,
	},
	[ACT_SCREENSHOT] = {
		.name = "screenshot",
		.positionals = actpos_none,
		.options = ACT_O_MAX | ACT_O_FORMAT | ACT_O_QUALITY | ACT_O_OUTPUT | ACT_O_REGION,
		.synopsis = "[--max WxH] [--region X,Y,W,H] [--format png|jpeg] [--quality N] [--output "
		"FILE|-]",
		.summary = "The full-size screen (the thumbnail stays the small picture), fitted inside "
		"`--max` when given, or a region of it; PNG, or JPEG (quality 85). To FILE "
		"(atomically, mode from the umask), to stdout with `-` (refused when that is a terminal), "
		"else as a `data:` URL.",
		.exits = "same",
		MCP_TOOL("screenshot", "A picture of the desktop's screen and its size. By default the "
			"largest of the screen's aspect within the model's image budget (long edge and "
			"28-pixel tiles at most 1568 each), with the scale; the other tools' coordinates "
			"are in that picture unless they give from.",
			"\"max\":" SIZE_TEXT("fit inside WIDTHxHEIGHT instead, e.g. 1280x800; coordinates "
				"read from it need from")
			",\"region\":{\"type\":\"array\",\"items\":" COORD ",\"minItems\":4,\"maxItems\":4,"
			"\"description\":\"[x, y, width, height] in the default picture's pixels, or in "
			"from's; the region at the screen's full resolution\"}"
			",\"from\":" SIZE_TEXT("WIDTHxHEIGHT of the picture region is read in, or the "
				"screen's size for screen pixels")
			",\"format\":{\"type\":\"string\",\"enum\":[\"jpeg\",\"png\"],\"description\":\"jpeg "
			"(the default) or png (lossless, slower)\"}"
			",\"quality\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":100,\"description\":"
			"\"JPEG quality, default 85\"}",
			"",
			"max", "region", "from", "format", "quality", NULL),
		.result_json = actresult_picture,
		.log_keys = actlogkeys_screenshot,
	},
	[ACT_WAIT_IDLE] = {
		.name = "wait-idle",
		.positionals = actpos_none,
		.options = ACT_O_JSON | ACT_O_TIMEOUT | ACT_O_QUIET,
		.synopsis = "[--timeout S] [--quiet S] [--json]",
		.summary = "Returns once the screen has not changed for `--quiet` seconds (default 0.3); "
		"exit 1 if it kept changing for `--timeout` (default 10, at most 600).",
		.exits = "same",
		MCP_TOOL("wait", "Waits until the screen has changed since the last action (for=change), "
			"or has stopped changing (for=idle), instead of sleeping.",
			"\"for\":{\"type\":\"string\",\"enum\":[\"change\",\"idle\"]}"
			",\"timeout\":" SECONDS("seconds, default 10")
			",\"quiet\":" SECONDS("seconds without a change that count as idle, default 0.3"),
			",\"required\":[\"for\"]",
			"for", "timeout", "quiet", NULL),
		.result_json = actresult_wait,
	},
	/* The MCP `wait` tool's for=change: no tool of its own. */
	[ACT_WAIT_CHANGE] = {
		.name = "wait-change",
		.positionals = actpos_none,
		.options = ACT_O_JSON | ACT_O_TIMEOUT,
		.synopsis = "[--timeout S] [--json]",
		.summary = "Returns when the screen changes after it started; exit 1 at the timeout. The "
		"MCP `wait` tool also counts a change since the last action.",
		.exits = "same",
		.result_json = actresult_wait,
	},
	/* The models' vocabulary (issue 25.5): a button held down and let go, a pause. */
	[ACT_MOUSE_DOWN] = {
		.name = "mouse-down",
		.positionals = actpos_maybe_point,
		POINTER_ACTION,
		.options = POINTER_OPTIONS | ACT_O_BUTTON,
		.synopsis = "[X Y] [--button B] [--hold KEYS] [--from WxH] [--json]",
		.summary = "Presses the button at X Y (or where the pointer is) and keeps it down until "
		"`mouse-up`, or until a human's take lets it go.",
		.exits = "same",
	},
	[ACT_MOUSE_UP] = {
		.name = "mouse-up",
		.positionals = actpos_maybe_point,
		POINTER_ACTION,
		.options = POINTER_OPTIONS | ACT_O_BUTTON,
		.synopsis = "[X Y] [--button B] [--hold KEYS] [--from WxH] [--json]",
		.summary = "Lets the button go at X Y (or where the pointer is).",
		.exits = "same",
	},
	[ACT_WAIT] = {
		.name = "wait",
		.positionals = actpos_seconds,
		.options = ACT_O_JSON,
		.synopsis = "SECONDS [--json]",
		.summary = "Pauses SECONDS (fractions allowed, at most 600), sending nothing: a script's "
		"or a model's own pause. `wait-idle` and `wait-change` wait for the screen instead.",
		.exits = "same; 130 interrupted",
		.result_json = actresult_paused,
		.log_keys = actlogkeys_pause,
	},
	/* The desktop's objects (issue 26): clipboard, windows. */
	[ACT_CLIPBOARD_GET] = {
		.name = "clipboard",
		.verb = "get",
		.positionals = actpos_none,
		.options = ACT_O_JSON | ACT_O_PRIMARY,
		.synopsis = "get [--primary] [--json]",
		.summary = "Prints the text on the desktop's clipboard (what any application copied), "
		"exactly, UTF-8, at most 1 MiB; `--primary`: the last text selected instead. Nothing "
		"when it is empty; `--json`: `{\"text\":…,\"owned\":…}`.",
		.exits = "same",
		MCP_TOOL("clipboard_get", "The text on the desktop's clipboard (what an application "
			"copied), exactly.",
			"\"primary\":{\"type\":\"boolean\",\"description\":\"the PRIMARY selection (the "
			"last text selected) instead\"}",
			"",
			"primary", NULL),
		.result_json = actresult_none,
		.log_keys = actlogkeys_clipboard,
	},
	[ACT_CLIPBOARD_SET] = {
		.name = "clipboard",
		.verb = "set",
		.positionals = actpos_clip_set,
		.options = ACT_O_JSON | ACT_O_PRIMARY,
		.synopsis = "set [TEXT | < stdin] [--primary] [--json]",
		.summary = "Makes TEXT (any UTF-8, at most 1 MiB) the clipboard's content for any "
		"application to paste, until something else is copied; a small owner process of the "
		"desktop serves it (it ends then, or with the desktop).",
		.exits = "same",
		MCP_TOOL("clipboard_set", "Makes text the desktop's clipboard content, for any "
			"application to paste (ctrl+v; ctrl+shift+v in a terminal): faster and more exact "
			"than typing a long text.",
			"\"text\":{\"type\":\"string\"},\"primary\":{\"type\":\"boolean\",\"description\":"
			"\"the PRIMARY selection (what a middle click pastes) instead\"}",
			",\"required\":[\"text\"]",
			"text", "primary", NULL),
		.result_json = actresult_clip_set,
		.log_keys = actlogkeys_clipboard,
	},
	[ACT_WINDOWS] = {
		.name = "windows",
		.positionals = actpos_none,
		.options = ACT_O_JSON,
		.synopsis = "[--json]",
		.summary = "The desktop's top-level windows, a line each: id, x, y, width, height (screen "
		"pixels, the frame included), pid, class, title, `*` on the focused one; `--json`: "
		"`{\"windows\":[{\"id\",\"title\",\"class\",\"pid\",\"x\",\"y\",\"width\",\"height\","
		"\"focused\"}…],\"screen\"}`.",
		.exits = "same",
		MCP_TOOL("windows", "The desktop's top-level windows: id, title, class, pid, x, y, width, "
			"height (screen pixels, the frame included) and which one has the focus. To click "
			"at these coordinates, give the click from = the result's screen.",
			"", "", NULL),
		.result_json = actresult_none,
	},
	[ACT_WINDOW] = {
		.name = "window",
		.positionals = actpos_window,
		.options = ACT_O_JSON,
		.synopsis = "focus|close ID | move ID X Y | resize ID WIDTH HEIGHT [--json]",
		.summary = "Acts on a window of `windows` through the window manager: `focus` raises it "
		"and gives it the keyboard, `close` asks its application to close it (as the title "
		"bar's button does), `move` puts its frame's top left at X Y, `resize` makes its frame "
		"WIDTH x HEIGHT. Returns once the window manager did it (bounded).",
		.exits = "same",
		MCP_TOOL("window", "Acts on a window by its id from the windows tool: focus raises it and "
			"gives it the keyboard, close asks its application to close it, move puts its top "
			"left corner at x, y, resize makes it width x height (screen pixels, the frame "
			"included).",
			"\"action\":{\"type\":\"string\",\"enum\":[\"focus\",\"close\",\"move\",\"resize\"]}"
			",\"id\":{\"type\":\"string\",\"pattern\":\"^(0x[0-9a-fA-F]+|[0-9]+)$\"}"
			",\"x\":" INTEGER(-65535, 65535) ",\"y\":" INTEGER(-65535, 65535)
			",\"width\":" INTEGER(1, 65535) ",\"height\":" INTEGER(1, 65535),
			",\"required\":[\"action\",\"id\"]",
			"action", "id", "x", "y", "width", "height", NULL),
		.result_json = actresult_window,
		.log_keys = actlogkeys_window,
	},
	[ACT_OPEN] = {
		.name = "open",
		.positionals = actpos_target,
		.options = ACT_O_JSON,
		.synopsis = "TARGET [--json]",
		.summary = "Opens a URL or a file on the desktop: a web URL in the `browser` setting's "
		"program when set, else by the desktop's default handler (xdg-open). Returns once a new "
		"window appeared (at most 30 s) and prints its id.",
		.exits = "same",
		MCP_TOOL("open", "Opens a URL or a file on the desktop in its browser or default "
			"application; returns the id of the new window once it appeared.",
			"\"target\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":4096}",
			",\"required\":[\"target\"]",
			"target", NULL),
		.result_json = actresult_opened,
		.log_keys = actlogkeys_opened,
	},
	[ACT_LAUNCH] = {
		.name = "launch",
		.positionals = actpos_target,
		.options = ACT_O_JSON,
		.synopsis = "NAME [--json]",
		.summary = "Starts the application of the desktop file NAME (`xfce4-terminal`, "
		"`chromium`: its Exec line, from the desktop's XDG data directories). Returns once a new "
		"window appeared (at most 30 s) and prints its id.",
		.exits = "same; 2 no such application",
		MCP_TOOL("launch", "Starts an application by its desktop file's name (e.g. "
			"xfce4-terminal, chromium); returns the id of its new window once it appeared.",
			"\"name\":{\"type\":\"string\",\"pattern\":\"^[A-Za-z0-9_][A-Za-z0-9._-]*$\"}",
			",\"required\":[\"name\"]",
			"name", NULL),
		.result_json = actresult_opened,
		.log_keys = actlogkeys_opened,
	},
	/* The accessibility tree (issue 27): botdesk-act-a11y, act/a11y.h. */
	[ACT_TREE] = {
		.name = "tree",
		.positionals = actpos_none,
		.options = ACT_O_JSON | ACT_O_WINDOW | ACT_O_DEPTH | ACT_O_TIMEOUT | ACT_O_FROM,
		.synopsis = "[--window ID|TITLE] [--depth N] [--timeout S] [--from WxH] [--json]",
		.summary = "The accessibility tree (AT-SPI) of the desktop's applications, or of one "
		"window: each node's role, name, screen bounds, states and id, as an indented outline "
		"(or JSON). Nodes not showing are left out. `--depth` 1–64 levels; `--timeout` bounds "
		"the call (default 10 s), an application that does not answer is named and skipped. "
		"`--from`: bounds in that picture's pixels.",
		.exits = "same",
		MCP_TOOL("tree", "The accessibility tree of the desktop's windows (or one window): role, "
			"name, bounds and states of each visible element, one line each, indented by "
			"depth; bounds are in the default screenshot's pixels. Long trees are cut, with a "
			"note: then ask for one window or a smaller depth.",
			"\"window\":{\"type\":\"string\",\"description\":\"a window's id from an earlier "
			"tree, or its title (or part of it)\"}"
			",\"depth\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":64,\"description\":"
			"\"levels shown, from the applications (or from the window); default 12\"}",
			"",
			"window", "depth", NULL),
		.result_json = actresult_none,
	},
	[ACT_FIND] = {
		.name = "find",
		.positionals = actpos_none,
		.options = ACT_O_JSON | ACT_O_WINDOW | ACT_O_ROLE | ACT_O_NAME | ACT_O_TIMEOUT | ACT_O_FROM,
		.synopsis = "[--role ROLE] [--name NAME] [--window ID|TITLE] [--timeout S] [--from WxH] "
		"[--json]",
		.summary = "The showing elements of that role (AT-SPI's names: `push button`, `entry`, "
		"`link`…; `button` matches `push button`) and name (exact when one is, else as a part, "
		"ignoring case), one a line with its id, bounds and window.",
		.exits = "same",
		MCP_TOOL("find", "Finds visible elements by accessibility role (push button, entry, link, "
			"check box, ...; button matches push button) and name (exact, else a part of it, "
			"ignoring case), with their bounds in the default screenshot's pixels. click and "
			"type take element ROLE:NAME to act on one.",
			"\"role\":{\"type\":\"string\"},\"name\":{\"type\":\"string\"},\"window\":{\"type\":"
			"\"string\",\"description\":\"a window's id or title\"}",
			"",
			"role", "name", "window", NULL),
		.result_json = actresult_none,
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
