/* The actions' one argument parser (act/actargs.c), the picture-to-screen scaling against the
 * thumbnail's own scaler, strict UTF-8, the action log's lines and rotation, and the pointer
 * commands' event sequence (act/ptrseq.c) that both X paths send. */
#include "unit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include "actargs.h"
#include "actlog.h"
#include "changes.h"
#include "keys.h"
#include "opener.h"
#include "ptrseq.h"
#include "thumbscale.h"
#include "utf8.h"

static int parse(struct act_req *rq, struct error *err, const char *first, ...)
{
	/* Writable copies (getopt may permute them) that live until the next parse, since rq
	 * points into them; kept reachable, so no leak is reported. */
	static char *argv[32];
	for (int i = 0; argv[i]; i++) {
		free(argv[i]);
		argv[i] = NULL;
	}
	int argc = 0;
	va_list ap;
	va_start(ap, first);
	for (const char *a = first; a; a = va_arg(ap, const char *)) {
		argv[argc++] = strdup(a);
	}
	va_end(ap);
	argv[argc] = NULL;
	*err = (struct error){{0}};
	return act_parse_argv(argc, argv, rq, err);
}

static void test_pointer(void **state)
{
	struct act_req rq;
	struct error err;
	assert_int_equal(parse(&rq, &err, "click", "10", "20", "--double", "--button", "right",
			       "--from", "960x600", "--json", NULL),
			 0);
	assert_int_equal(rq.cmd, ACT_CLICK);
	assert_int_equal(rq.x, 10);
	assert_int_equal(rq.y, 20);
	assert_true(rq.dbl);
	assert_int_equal(rq.button, 3);
	assert_int_equal(rq.from_w, 960);
	assert_true(rq.json);
	assert_int_equal(parse(&rq, &err, "scroll", "--up", "1", "2", "7", NULL), 0);
	assert_int_equal(rq.dir, ACT_SCROLL_UP);
	assert_int_equal(rq.amount, 7);
	assert_int_equal(parse(&rq, &err, "drag", "1", "2", "3", "4", NULL), 0);
	assert_int_equal(rq.x2, 3);
	assert_int_equal(rq.y2, 4);
	/* Every bad argument is named. */
	assert_int_equal(parse(&rq, &err, "click", "10", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "click takes X Y"));
	assert_int_equal(parse(&rq, &err, "click", "-5", "3", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "'-5' is off the screen"));
	assert_int_equal(parse(&rq, &err, "click", "1x", "3", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "X must be a pixel coordinate"));
	assert_int_equal(parse(&rq, &err, "move", "1", "99999999", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "Y must be"));
	assert_int_equal(parse(&rq, &err, "scroll", "1", "2", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "direction"));
	assert_int_equal(parse(&rq, &err, "scroll", "1", "2", "--up", "--down", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "scroll", "1", "2", "--up", "101", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "move", "1", "2", "--double", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "move takes no option '--double'"));
	assert_int_equal(parse(&rq, &err, "click", "1", "2", "--from", "0x600", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "click", "1", "2", "--button", "up", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "teleport", NULL), -EINVAL);
}

/* The events after the first motion, as text: "b1+" a press, "b1-" a release, "m5,6" a motion. */
static void rec_motion(void *ctx, unsigned x, unsigned y)
{
	char *buf = ctx;
	snprintf(buf + strlen(buf), 512 - strlen(buf), "m%u,%u ", x, y);
}

static void rec_button(void *ctx, unsigned b, bool down, unsigned delay_ms)
{
	char *buf = ctx;
	snprintf(buf + strlen(buf), 512 - strlen(buf), delay_ms ? "b%u%c@%u " : "b%u%c ", b,
		 down ? '+' : '-', delay_ms);
}

static const char *events(const struct act_req *rq, unsigned x, unsigned y, unsigned x2,
			  unsigned y2)
{
	static char buf[512];
	static const struct ptrseq_ops ops = {.motion = rec_motion, .button = rec_button};
	buf[0] = '\0';
	ptrseq_emit(rq, x, y, x2, y2, NULL, &ops, buf);
	return buf;
}

static void test_ptrseq(void **state)
{
	struct act_req rq;
	struct error err;
	assert_int_equal(parse(&rq, &err, "click", "1", "2", NULL), 0);
	assert_true(act_is_pointer(rq.cmd));
	assert_string_equal(events(&rq, 1, 2, 0, 0), "b1+ b1- ");
	assert_int_equal(parse(&rq, &err, "click", "1", "2", "--double", "--button", "right", NULL),
			 0);
	assert_string_equal(events(&rq, 1, 2, 0, 0), "b3+ b3- b3+@10 b3- ");
	assert_int_equal(parse(&rq, &err, "move", "1", "2", NULL), 0);
	assert_true(act_is_pointer(rq.cmd));
	assert_string_equal(events(&rq, 1, 2, 0, 0), "");
	assert_int_equal(parse(&rq, &err, "scroll", "1", "2", "--left", "2", NULL), 0);
	assert_string_equal(events(&rq, 1, 2, 0, 0), "b6+ b6- b6+ b6- ");
	/* Ten steps from the start to the end, the last one on the end. */
	assert_int_equal(parse(&rq, &err, "drag", "0", "100", "100", "0", NULL), 0);
	assert_string_equal(events(&rq, 0, 100, 100, 0),
			    "b1+ m10,90 m20,80 m30,70 m40,60 m50,50 m60,40 m70,30 m80,20 m90,10 "
			    "m100,0 b1- ");
	assert_int_equal(parse(&rq, &err, "cursor", NULL), 0);
	assert_false(act_is_pointer(rq.cmd));
	assert_int_equal(parse(&rq, &err, "type", "x", NULL), 0);
	assert_false(act_is_pointer(rq.cmd));
}

/* The models' vocabulary (issue 25.5): triple click, held keys, a drag along a path, a button
 * held and let go, a key held for a time, a pause; who sends them. */
static void test_vocabulary(void **state)
{
	struct act_req rq;
	struct error err;
	assert_int_equal(
		parse(&rq, &err, "click", "1", "2", "--triple", "--hold", "shift+ctrl", NULL), 0);
	assert_int_equal(rq.clicks, 3);
	assert_string_equal(rq.hold, "shift+ctrl");
	assert_string_equal(events(&rq, 1, 2, 0, 0), "b1+ b1- b1+@10 b1- b1+@10 b1- ");
	/* Keys held need the keyboard map: botdesk-act sends them, not the XCB path. */
	assert_false(act_by_pointer_program(&rq));
	assert_int_equal(parse(&rq, &err, "click", "1", "2", "--double", "--triple", NULL),
			 -EINVAL);
	assert_int_equal(parse(&rq, &err, "click", "1", "2", "--hold", "", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "drag", "--path", "0,0", "10,0", "10,20", NULL), 0);
	assert_int_equal(rq.n_path, 3);
	assert_int_equal(rq.x2, 10);
	assert_int_equal(rq.y2, 20);
	assert_true(act_by_pointer_program(&rq));
	unsigned path[ACT_PATH_MAX][2];
	assert_int_equal(act_resolve_path(&rq, 1440, 900, path, &err), 0);
	static char buf[1024];
	static const struct ptrseq_ops ops = {.motion = rec_motion, .button = rec_button};
	buf[0] = '\0';
	ptrseq_emit(&rq, 0, 0, 10, 20, path, &ops, buf);
	assert_string_equal(buf,
			    "b1+ m1,0 m2,0 m3,0 m4,0 m5,0 m6,0 m7,0 m8,0 m9,0 m10,0 m10,2 "
			    "m10,4 m10,6 m10,8 m10,10 m10,12 m10,14 m10,16 m10,18 m10,20 b1- ");
	assert_int_equal(parse(&rq, &err, "drag", "--path", "0,0", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "drag", "--path", "0,0", "1;2", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "point 2 is '1;2'"));
	assert_int_equal(parse(&rq, &err, "drag", "--path", "0,0", "1440,2", NULL), 0);
	assert_int_equal(act_resolve_path(&rq, 1440, 900, path, &err), -EINVAL);
	assert_int_equal(parse(&rq, &err, "mouse-down", NULL), 0);
	assert_true(rq.at_pointer);
	assert_false(act_by_pointer_program(&rq));
	assert_string_equal(events(&rq, 0, 0, 0, 0), "b1+ ");
	assert_int_equal(parse(&rq, &err, "mouse-up", "5", "6", "--button", "right", NULL), 0);
	assert_false(rq.at_pointer);
	assert_true(act_by_pointer_program(&rq));
	assert_string_equal(events(&rq, 5, 6, 0, 0), "b3- ");
	assert_int_equal(parse(&rq, &err, "mouse-up", "5", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "key", "shift", "--hold-for", "1.5", NULL), 0);
	assert_int_equal(rq.hold_ms, 1500);
	assert_int_equal(parse(&rq, &err, "key", "a", "b", "--hold-for", "1", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "key", "a", "--hold-for", "1", "--press", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "key", "a", "--hold-for", "301", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "wait", "0.25", NULL), 0);
	assert_int_equal(rq.cmd, ACT_WAIT);
	assert_int_equal(rq.timeout_ms, 250);
	assert_false(act_is_pointer(rq.cmd));
	assert_int_equal(parse(&rq, &err, "wait", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "wait", "0", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "wait", "601", NULL), -EINVAL);
	/* Options of other actions stay refused. */
	assert_int_equal(parse(&rq, &err, "type", "x", "--hold", "shift", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "scroll", "1", "1", "--down", "--triple", NULL), -EINVAL);
}

static void test_keyboard_and_screen(void **state)
{
	struct act_req rq;
	struct error err;
	assert_int_equal(parse(&rq, &err, "type", "--delay", "5", "--", "-héllo", NULL), 0);
	assert_string_equal(rq.text, "-héllo");
	assert_int_equal(rq.delay_ms, 5);
	assert_int_equal(parse(&rq, &err, "type", "--file", "/x", NULL), 0);
	assert_string_equal(rq.file, "/x");
	assert_int_equal(parse(&rq, &err, "type", "--file", "/x", "text", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "type", "--delay", "1001", "x", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "type", "caf\xe9", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not UTF-8 (a bad byte at offset 3)"));
	assert_int_equal(parse(&rq, &err, "key", "ctrl+l", "Return", "--press", NULL), 0);
	assert_int_equal(rq.n_keys, 2);
	assert_int_equal(rq.key_mode, ACT_KEY_PRESS);
	assert_int_equal(parse(&rq, &err, "key", "--press", "--release", "a", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "key", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "screenshot", "--max", "960x600", "--region", "1,2,3,4",
			       "--format", "jpeg", "--quality", "50", "--output", "-", NULL),
			 0);
	assert_true(rq.region);
	assert_int_equal(rq.rw, 3);
	assert_int_equal(rq.rh, 4);
	assert_int_equal(rq.format, ACT_FORMAT_JPEG);
	assert_int_equal(rq.quality, 50);
	assert_int_equal(parse(&rq, &err, "screenshot", "--region", "1,2,0,4", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "screenshot", "--region", "1,2,3,4,5", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "screenshot", "--quality", "50", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "wait-idle", "--timeout", "2.5", "--quiet", "0.1", NULL),
			 0);
	assert_int_equal(rq.timeout_ms, 2500);
	assert_int_equal(rq.quiet_ms, 100);
	assert_int_equal(parse(&rq, &err, "wait-change", "--quiet", "1", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "wait-change", "--timeout", "601", NULL), -EINVAL);

	rq.region = true;
	rq.rx = 1000;
	rq.ry = 800;
	rq.rw = 440;
	rq.rh = 100;
	assert_int_equal(act_check_region(&rq, 1440, 900, &err), 0);
	rq.rw = 441;
	err = (struct error){{0}};
	assert_int_equal(act_check_region(&rq, 1440, 900, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "--region 1000,800,441,100 reaches outside"));
}

/* A picture pixel maps to the middle of the screen area the thumbnail's scaler averaged it
 * from, and the screen point maps back to that pixel. */
/* The keys that act on the X server itself are refused by name; the combos around them are not. */
static void test_server_keys(void **state)
{
	struct combo c;
	struct error err = {{0}};
	assert_int_equal(keys_parse_combo("Terminate_Server", &c, &err), -EINVAL);
	assert_non_null(
		strstr(err.msg, "the key 'Terminate_Server' in 'Terminate_Server' is refused"));
	err = (struct error){{0}};
	assert_int_equal(keys_parse_combo("ctrl+alt+XF86Switch_VT_1", &c, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "'XF86Switch_VT_1'"));
	assert_int_equal(keys_parse_combo("XF86Ungrab", &c, &err), -EINVAL);
	assert_int_equal(keys_parse_combo("XF86ClearGrab", &c, &err), -EINVAL);
	assert_int_equal(keys_parse_combo("XF86LogGrabInfo", &c, &err), -EINVAL);
	assert_int_equal(keys_parse_combo("ctrl+alt+BackSpace", &c, &err), 0);
	assert_int_equal(keys_parse_combo("XF86AudioMute", &c, &err), 0);
}

static void test_scaling(void **state)
{
	static const unsigned sizes[][4] = {
		{1440, 900, 960, 600},  {1920, 1080, 960, 540}, {1000, 3000, 200, 600},
		{1440, 900, 1440, 900}, {8192, 64, 16, 1},      {1366, 768, 960, 540},
	};
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned sw = sizes[s][0], pw = sizes[s][2];
		struct thumbscale_axis ax;
		assert_int_equal(thumbscale_axis_make(sw, pw, &ax), 0);
		for (unsigned p = 0; p < pw; p++) {
			unsigned x = act_from_picture(p, pw, sw);
			/* Inside the source pixels the scaler used for p, weighted more than
			 * nothing. */
			assert_true(x >= ax.first[p] && x < ax.first[p] + ax.n[p]);
			assert_true(x < sw);
			assert_int_equal(act_to_picture(x, sw, pw), p);
		}
		thumbscale_axis_free(&ax);
	}
	struct act_req rq;
	struct error err = {{0}};
	act_req_init(&rq, ACT_CLICK);
	rq.from_w = 960;
	rq.from_h = 600;
	rq.x = 480;
	rq.y = 300;
	unsigned x, y, x2, y2;
	assert_int_equal(act_resolve_points(&rq, 1440, 900, &x, &y, &x2, &y2, &err), 0);
	assert_int_equal(x, 720);
	assert_int_equal(y, 450);
	rq.x = 960;
	assert_int_equal(act_resolve_points(&rq, 1440, 900, &x, &y, &x2, &y2, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "off the 960x600 picture"));
	rq.from_w = 0;
	rq.x = 1439;
	rq.y = 900;
	err = (struct error){{0}};
	assert_int_equal(act_resolve_points(&rq, 1440, 900, &x, &y, &x2, &y2, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "X,Y = 1439,900 is off the 1440x900 screen"));
}

static void test_utf8(void **state)
{
	size_t n, bad;
	assert_int_equal(utf8_validate("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 10, &n, &bad), 0);
	assert_int_equal(n, 4);
	/* Overlong, surrogate, above U+10FFFF, truncated, a lone continuation byte. */
	static const char *const bad_ones[] = {"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
					       "\xe2\x82", "\x80"};
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(utf8_validate(bad_ones[i], strlen(bad_ones[i]), &n, &bad),
				 -EILSEQ);
		assert_int_equal(bad, 0);
	}
	struct error err = {{0}};
	assert_int_equal(act_check_text("a\tb\nc", 5, "TEXT", &n, &err), 0);
	assert_int_equal(n, 5);
	assert_int_equal(act_check_text("a\rb", 3, "TEXT", &n, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "control character U+000D at offset 1"));
}

/* The desktop's objects: verbs pick the row, ids in hex or decimal, every bad word named. */
static void test_objects(void **state)
{
	struct act_req rq;
	struct error err;
	assert_int_equal(parse(&rq, &err, "clipboard", "get", "--primary", "--json", NULL), 0);
	assert_int_equal(rq.cmd, ACT_CLIPBOARD_GET);
	assert_true(rq.primary && rq.json);
	assert_int_equal(parse(&rq, &err, "clipboard", "set", "é \"x\"\n😀", NULL), 0);
	assert_int_equal(rq.cmd, ACT_CLIPBOARD_SET);
	assert_string_equal(rq.text, "é \"x\"\n😀");
	assert_false(rq.primary);
	/* No TEXT: standard input, read by botdesk-act. */
	assert_int_equal(parse(&rq, &err, "clipboard", "set", NULL), 0);
	assert_null(rq.text);
	assert_int_equal(parse(&rq, &err, "clipboard", "set", "\xff", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "not UTF-8"));
	assert_int_equal(parse(&rq, &err, "clipboard", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "clipboard takes get or set first"));
	assert_int_equal(parse(&rq, &err, "clipboard", "--primary", "get", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "clipboard", "get", "extra", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "clipboard", "get", "--delay", "3", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "clipboard takes no option '--delay'"));

	assert_int_equal(parse(&rq, &err, "windows", "--json", NULL), 0);
	assert_int_equal(rq.cmd, ACT_WINDOWS);
	assert_int_equal(parse(&rq, &err, "window", "focus", "0x1A00007", NULL), 0);
	assert_int_equal(rq.cmd, ACT_WINDOW);
	assert_int_equal(rq.win_op, ACT_WIN_FOCUS);
	assert_int_equal(rq.win_id, 0x1a00007);
	assert_int_equal(parse(&rq, &err, "window", "close", "27262983", NULL), 0);
	assert_int_equal(rq.win_op, ACT_WIN_CLOSE);
	assert_int_equal(rq.win_id, 27262983);
	assert_int_equal(parse(&rq, &err, "window", "move", "0x10", "--", "-5", "20", NULL), 0);
	assert_int_equal(rq.win_x, -5);
	assert_int_equal(rq.win_y, 20);
	assert_int_equal(parse(&rq, &err, "window", "resize", "0x10", "800", "600", NULL), 0);
	assert_int_equal(rq.win_w, 800);
	assert_int_equal(rq.win_h, 600);
	assert_int_equal(parse(&rq, &err, "window", "resize", "0x10", "0", "600", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "window", "move", "0x10", "1", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "window", "focus", "0x", NULL), -EINVAL);
	assert_non_null(strstr(err.msg, "is no window id"));
	assert_int_equal(parse(&rq, &err, "window", "focus", "0x1g", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "window", "focus", "0x100000000", NULL), -EINVAL);
	assert_int_equal(parse(&rq, &err, "window", "raise", "0x10", NULL), -EINVAL);

	/* The log names the verb, never the clipboard's text unless asked. */
	act_req_init(&rq, ACT_CLIPBOARD_SET);
	rq.text = "secret";
	rq.text_len = 6;
	struct act_out out = {0};
	char *line = actlog_line("cli", &rq, &out, 0, false);
	assert_non_null(strstr(line, "\"command\":\"clipboard\",\"verb\":\"set\""));
	assert_null(strstr(line, "secret"));
	free(line);
	line = actlog_line("cli", &rq, &out, 0, true);
	assert_non_null(strstr(line, "\"text\":\"secret\""));
	free(line);
}

/* A desktop file's Exec line: the [Desktop Entry] group's only, field codes dropped, quoting and
 * escapes undone. */
static void test_desktop_exec(void **state)
{
	char **argv;
	const char *f = "[Desktop Entry]\nName=T\nExec=xfce4-terminal\n"
			"[Desktop Action prefs]\nExec=xfce4-terminal --preferences\n";
	assert_int_equal(opener_exec_argv(f, strlen(f), &argv), 0);
	assert_string_equal(argv[0], "xfce4-terminal");
	assert_null(argv[1]);
	opener_free_argv(argv);
	f = "[Desktop Action x]\nExec=wrong\n[Desktop Entry]\nExec = /usr/bin/chromium %U "
	    "--x=\"a b\\\\\\\\c\" 100%% --name=%c\n";
	assert_int_equal(opener_exec_argv(f, strlen(f), &argv), 0);
	assert_string_equal(argv[0], "/usr/bin/chromium");
	assert_string_equal(argv[1], "--x=a b\\c");
	assert_string_equal(argv[2], "100%");
	assert_string_equal(argv[3], "--name=");
	assert_null(argv[4]);
	opener_free_argv(argv);
	f = "[Desktop Entry]\nName=none\n";
	assert_int_equal(opener_exec_argv(f, strlen(f), &argv), -ENOENT);
	f = "[Desktop Entry]\nExec=\"unterminated\n";
	assert_int_equal(opener_exec_argv(f, strlen(f), &argv), -EINVAL);
	f = "[Desktop Entry]\nExec=%U\n";
	assert_int_equal(opener_exec_argv(f, strlen(f), &argv), -EINVAL);
}

static void test_actlog(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	struct act_req rq;
	act_req_init(&rq, ACT_TYPE);
	rq.text = "hunter2 \"quoted\"";
	rq.text_len = strlen(rq.text);
	struct act_out out = {.chars = 16};
	/* The clock the log reads: time() is the coarse one, a tick behind it at a second's edge.
	 */
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	time_t before = ts.tv_sec;
	char *line = actlog_line("cli", &rq, &out, 0, false);
	clock_gettime(CLOCK_REALTIME, &ts);
	time_t after = ts.tv_sec;
	assert_non_null(strstr(line, "\"command\":\"type\",\"text_length\":16"));
	/* The UTC time, computed without the time zone file. */
	char want[2][32];
	struct tm tm;
	strftime(want[0], sizeof(want[0]), "{\"time\":\"%Y-%m-%dT%H:%M:%S.",
		 gmtime_r(&before, &tm));
	strftime(want[1], sizeof(want[1]), "{\"time\":\"%Y-%m-%dT%H:%M:%S.", gmtime_r(&after, &tm));
	assert_true(strncmp(line, want[0], strlen(want[0])) == 0 ||
		    strncmp(line, want[1], strlen(want[1])) == 0);
	assert_memory_equal(line + strlen(want[0]) + 3, "Z\"", 2);
	assert_null(strstr(line, "hunter2"));
	free(line);
	line = actlog_line("mcp", &rq, &out, 0, true);
	assert_non_null(strstr(line, "\"text\":\"hunter2 \\\"quoted\\\"\""));
	free(line);
	/* Cut short by a take: where it stopped. */
	out = (struct act_out){.chars = 3000, .stopped = true, .sent = 167};
	line = actlog_line("cli", &rq, &out, -EACCES, false);
	assert_non_null(strstr(
		line,
		"\"result\":\"stopped: a human took the desktop after 167 of 3000 characters\",\"sent\":167}"));
	free(line);
	/* Bounded: past the limit the log becomes actions.jsonl.1 and starts again. */
	act_req_init(&rq, ACT_CLICK);
	out = (struct act_out){.x = 1, .y = 2};
	line = actlog_line("cli", &rq, &out, 0, false);
	size_t len = strlen(line), lines = ACTLOG_MAX / len + 10;
	for (size_t i = 0; i < lines; i++) {
		assert_int_equal(actlog_append(dfd, line), 0);
	}
	struct stat cur, old;
	assert_int_equal(fstatat(dfd, ACTLOG_FILE, &cur, 0), 0);
	assert_int_equal(fstatat(dfd, ACTLOG_OLD, &old, 0), 0);
	assert_true(old.st_size <= ACTLOG_MAX && old.st_size > ACTLOG_MAX - (off_t)len);
	assert_int_equal((size_t)(cur.st_size + old.st_size), lines * len);
	assert_int_equal(cur.st_mode & 0777, 0600);
	/* Never through a symbolic link. */
	assert_int_equal(unlinkat(dfd, ACTLOG_FILE, 0), 0);
	assert_int_equal(symlinkat("/etc/passwd", dfd, ACTLOG_FILE), 0);
	assert_int_equal(actlog_append(dfd, line), -ELOOP);
	free(line);
	close(dfd);
	unit_rm_rf(dir);
}

/* --changes: rectangles within 8 pixels are one box, far ones stay apart, a chain of merges
 * closes up, and past the limit a rectangle joins the box it grows least. */
static void test_changes_boxes(void **state)
{
	struct act_rect b[ACT_CHANGED_MAX];
	size_t n = 0;
	changes_add(b, &n, (struct act_rect){10, 10, 20, 20});
	changes_add(b, &n, (struct act_rect){35, 10, 5, 5}); /* 5 px away: the same change */
	assert_int_equal(n, 1);
	assert_int_equal(b[0].x, 10);
	assert_int_equal(b[0].w, 30);
	changes_add(b, &n, (struct act_rect){100, 100, 10, 10});
	assert_int_equal(n, 2);
	changes_add(b, &n, (struct act_rect){0, 0, 0, 5}); /* empty: nothing */
	assert_int_equal(n, 2);
	/* One that touches both joins them into one. */
	changes_add(b, &n, (struct act_rect){30, 30, 80, 80});
	assert_int_equal(n, 1);
	assert_int_equal(b[0].x, 10);
	assert_int_equal(b[0].y, 10);
	assert_int_equal(b[0].w, 100);
	assert_int_equal(b[0].h, 100);
	n = 0;
	for (unsigned i = 0; i < ACT_CHANGED_MAX; i++) {
		changes_add(b, &n, (struct act_rect){i * 100, 0, 10, 10});
	}
	assert_int_equal(n, ACT_CHANGED_MAX);
	changes_add(b, &n, (struct act_rect){715, 0, 10, 10}); /* nearest the box at 700 */
	assert_int_equal(n, ACT_CHANGED_MAX);
	bool grown = false;
	for (size_t i = 0; i < n; i++) {
		grown |= b[i].x == 700 && b[i].w == 25;
	}
	assert_true(grown);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pointer),       cmocka_unit_test(test_keyboard_and_screen),
		cmocka_unit_test(test_scaling),       cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_actlog),        cmocka_unit_test(test_ptrseq),
		cmocka_unit_test(test_server_keys),   cmocka_unit_test(test_vocabulary),
		cmocka_unit_test(test_objects),       cmocka_unit_test(test_desktop_exec),
		cmocka_unit_test(test_changes_boxes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
