/* botdesk: one headless desktop per profile. The only place that prints results, turns errors
 * into messages and picks exit codes: 0 success, 1 failure, 2 usage, 3 not running, 4 a human
 * holds the desktop. */
#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "actargs.h"
#include "actions.h"
#include "acttable.h"
#include "adminstop.h"
#include "base64.h"
#include "config.h"
#include "control.h"
#include "desktop.h"
#include "doctor.h"
#include "error.h"
#include "exitstatus.h"
#include "fileio.h"
#include "foreground.h"
#include "install.h"
#include "jsonout.h"
#include "launcher.h"
#include "list.h"
#include "log.h"
#include "parse.h"
#include "picture.h"
#include "profile.h"
#include "settings.h"
#include "status.h"
#include "thumbnailer.h"
#include "webexec.h"

/* start's default --wait: a desktop is up in about a second; a loaded host can take far longer. */
#define DEFAULT_WAIT_MS 30000
static_assert(LAUNCHER_WAIT_MAX_MS == 3600 * 1000, "--wait's message says up to 3600 seconds");

extern char **environ;

struct cli {
	const char *profile;
	struct settings settings;
	struct profile p;
	struct error err;
};

static const char usage_commands[] =
	"Usage: botdesk [--profile NAME] COMMAND [OPTIONS]\n"
	"\n"
	"Commands:\n"
	"  start [--wait SECONDS] [--json]   start the profile's desktop (idempotent)\n"
	"  stop [--json] [--user U]          stop it (exit 3 when nothing was running);\n"
	"                                    --user: root stops user U's desktop\n"
	"  status [--json]                   report it\n"
	"  list [--all] [--json]             your profiles; --all: every desktop (admin)\n"
	"  env [--shell]                     print DISPLAY, XAUTHORITY, ... (exit 3 when down)\n"
	"                                    --shell: for eval \"$(botdesk env --shell)\"\n"
	"  exec -- PROGRAM [ARG...]          run PROGRAM on the desktop (exit 3 when down)\n"
	"  run [--wait SECONDS] [--web [WEB OPTIONS]]  start (or adopt) it and stay in the\n"
	"                                    foreground; --web serves its page too (botdesk web)\n"
	"  install [--web] [--dry-run]       install the desktop's packages (--web: the web\n"
	"                                    viewer's, noVNC), or say who must\n"
	"  thumbnail [--max WxH] [--output FILE]  a PNG of the screen (default 960x600; - is stdout)\n"
	"  doctor                            what this host lacks, and the fix for each\n"
	"  take [--reason TEXT] [--json]     a human takes control of the desktop\n"
	"  release [--json]                  hand control back to the agent\n"
	"  lease [--json]                    who controls the desktop\n"
	"  web [--listen ADDR:PORT] [--open] [--ticket]  the desktop in a browser\n"
	"  mcp                               a Model Context Protocol server on stdin/stdout\n"
	"\n"
	"The agent's hands and eyes (X Y in screen pixels, or in a WxH picture with --from WxH):\n";
/* Then the actions' lines, from their table (act/acttable.c). */
static const char usage_tail[] =
	"\n"
	"The profile is --profile, else $BOTDESK_PROFILE, else 'default'.\n"
	"Exit status: 0 success, 1 failure, 2 usage error, 3 not running, 4 a human holds the\n"
	"desktop (env, exec, thumbnail and the actions above are the agent's).\n"
	"See botdesk(1), and " BOTDESK_DOCDIR "/CLI.md for every command, setting and file.\n";

static void usage(FILE *f)
{
	fputs(usage_commands, f);
	act_print_help(f);
	fputs(usage_tail, f);
}

static int usage_error(const char *fmt, ...) _printf_(1, 2);
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("botdesk: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\nTry 'botdesk --help'.\n", stderr);
	va_end(ap);
	return EXIT_USAGE;
}

static int fail(struct cli *c, int r)
{
	if (error_isset(&c->err)) {
		log_error("%s", c->err.msg);
	} else {
		log_error("%s", strerror(r < 0 ? -r : r));
	}
	return EXIT_FAILURE;
}

/* Loads the settings; 0, or the exit status of the failure it reported. */
static int load_settings(struct cli *c)
{
	int r = settings_load(&c->settings, &c->err);
	if (r == 0 && c->settings.policy.warning[0]) {
		log_warn("%s", c->settings.policy.warning);
	}
	if (r == 0 && c->settings.policy.ignored[0]) {
		log_warn("%s", c->settings.policy.ignored);
	}
	return r < 0 ? fail(c, r) : 0;
}

/* Loads settings and opens the profile's directory (created when create is set). */
static int setup(struct cli *c, bool create)
{
	int r = load_settings(c);
	if (r) {
		return r;
	}
	r = profile_open(&c->settings, c->profile, create, &c->p, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	return 0;
}

static void print_probe(struct cli *c, const struct desktop_probe *probe, bool json)
{
	struct status st;
	status_gather(&c->settings, &c->p, probe, &st);
	if (json) {
		status_print_json(&st, stdout);
	} else {
		status_print_text(&st, stdout);
	}
}

static void print_status(struct cli *c, bool json)
{
	struct desktop_probe probe;
	desktop_probe(&c->p, &probe);
	print_probe(c, &probe, json);
}

/* Parses the options a command takes: --json, and those of allow (--wait S, --dry-run, --shell).
 * Anything else is usage. */
struct opts {
	bool json, dry_run, shell, web;
	uint64_t wait_ms;
};

enum {
	OPT_WAIT = 1 << 0,
	OPT_DRY_RUN = 1 << 1,
	OPT_SHELL = 1 << 2,
	OPT_WEB = 1 << 3,
};

static int parse_opts(int argc, char **argv, const char *cmd, unsigned allow, struct opts *o)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},    {"wait", required_argument, NULL, 'w'},
		{"dry-run", no_argument, NULL, 'n'}, {"shell", no_argument, NULL, 's'},
		{"web", no_argument, NULL, 'W'},     {NULL, 0, NULL, 0},
	};
	*o = (struct opts){.wait_ms = DEFAULT_WAIT_MS};
	optind = 1;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (ch) {
		case 'j':
			o->json = true;
			break;
		case 'w':
			if (!(allow & OPT_WAIT)) {
				return usage_error("%s takes no --wait", cmd);
			}
			if (parse_seconds_ms(optarg, LAUNCHER_WAIT_MAX_MS, &o->wait_ms) < 0 ||
			    o->wait_ms == 0) {
				return usage_error(
					"--wait takes seconds (up to 3600, e.g. 30 or 0.5), not '%s'",
					optarg);
			}
			break;
		case 'n':
			if (!(allow & OPT_DRY_RUN)) {
				return usage_error("%s takes no --dry-run", cmd);
			}
			o->dry_run = true;
			break;
		case 's':
			if (!(allow & OPT_SHELL)) {
				return usage_error("%s takes no --shell", cmd);
			}
			o->shell = true;
			break;
		case 'W':
			if (!(allow & OPT_WEB)) {
				return usage_error("%s takes no --web", cmd);
			}
			o->web = true;
			break;
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		return usage_error("unexpected argument '%s'", argv[optind]);
	}
	return 0;
}

static int cmd_start(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "start", OPT_WAIT, &o);
	if (r || (r = setup(c, true))) {
		return r;
	}
	/* The status of the desktop this start saw running, even if a stop takes it down the
	 * moment the start lets go of the profile. */
	struct desktop_probe probe;
	r = desktop_start(&c->settings, &c->p, o.wait_ms, &probe, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	print_probe(c, &probe, o.json);
	return 0;
}

/* stop --user U [--profile P]: root ends another user's desktop (runner/adminstop.c). */
static int cmd_stop_user(struct cli *c, const char *user, bool json)
{
	int r = load_settings(c);
	if (r) {
		return r;
	}
	unsigned stopped = 0;
	r = adminstop_run(&c->settings, user, c->profile, &stopped, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	if (json) {
		struct jsonout j;
		jsonout_begin(&j, stdout);
		jsonout_string(&j, "user", user);
		jsonout_string(&j, "profile", c->profile);
		jsonout_bool(&j, "stopped", stopped > 0);
		jsonout_end(&j);
	} else {
		printf(stopped ? "stopped the desktop of profile '%s' of user %s\n"
			       : "no desktop of profile '%s' of user %s was running\n",
		       c->profile, user);
	}
	return stopped ? 0 : EXIT_NOT_RUNNING;
}

static int cmd_stop(struct cli *c, int argc, char **argv)
{
	/* --user and --profile (after the command too, as an administrator writes it) first; the
	 * rest is the common options. */
	const char *user = NULL;
	int k = 1;
	for (int i = 1; i < argc; i++) {
		if ((streq(argv[i], "--user") || streq(argv[i], "--profile")) && i + 1 < argc) {
			if (argv[i][2] == 'u') {
				user = argv[i + 1];
			} else if (profile_name_valid(argv[i + 1])) {
				c->profile = argv[i + 1];
			} else {
				return usage_error("'%s' is not a valid profile name", argv[i + 1]);
			}
			i++;
		} else {
			argv[k++] = argv[i];
		}
	}
	argc = k;
	argv[argc] = NULL;
	struct opts o;
	int r = parse_opts(argc, argv, "stop", 0, &o);
	if (r) {
		return r;
	}
	if (user) {
		return cmd_stop_user(c, user, o.json);
	}
	if ((r = setup(c, false))) {
		return r;
	}
	bool stopped;
	r = desktop_stop(&c->settings, &c->p, &stopped, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	/* Nothing is left to hold: the next desktop starts in the agent's hands. Only after a
	 * successful stop, so a failed one never takes control from a human. */
	struct lease l;
	bool changed;
	if (c->p.dirfd >= 0 &&
	    (r = lease_set_at(c->p.dirfd, LEASE_AGENT, NULL, time(NULL), &l, &changed)) < 0) {
		log_warn("cannot hand the lease of profile '%s' back to the agent: %s", c->p.name,
			 strerror(-r));
	}
	/* The confirmation of a gate that is gone confirms nothing for the next desktop. */
	if (c->p.dirfd >= 0) {
		(void)unlink_at_if_exists(c->p.dirfd, LEASE_APPLIED_FILE);
	}
	if (o.json) {
		struct jsonout j;
		jsonout_begin(&j, stdout);
		jsonout_string(&j, "profile", c->p.name);
		jsonout_bool(&j, "stopped", stopped);
		jsonout_end(&j);
	} else {
		printf(stopped ? "stopped the desktop of profile '%s'\n"
			       : "profile '%s' had no desktop running\n",
		       c->p.name);
	}
	return stopped ? 0 : EXIT_NOT_RUNNING;
}

static int cmd_list(struct cli *c, int argc, char **argv)
{
	bool all = false;
	int k = 1;
	for (int i = 1; i < argc; i++) {
		if (streq(argv[i], "--all")) {
			all = true;
		} else {
			argv[k++] = argv[i];
		}
	}
	argc = k;
	argv[argc] = NULL;
	struct opts o;
	int r = parse_opts(argc, argv, "list", 0, &o);
	if (r || (r = load_settings(c))) {
		return r;
	}
	struct list l;
	r = all ? list_gather_all(&c->settings, &l, &c->err)
		: list_gather(&c->settings, &l, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	if (o.json) {
		list_print_json(&l, stdout);
	} else {
		list_print_text(&l, stdout);
	}
	list_free(&l);
	return 0;
}

static int cmd_status(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "status", 0, &o);
	if (r || (r = setup(c, false))) {
		return r;
	}
	print_status(c, o.json);
	return 0;
}

/* The verified running desktop's probe, or exit 3 with a word on what to do. */
static int need_running(struct cli *c, struct desktop_probe *probe)
{
	desktop_probe(&c->p, probe);
	if (!probe->running) {
		log_error(
			"no desktop is running for profile '%s'; start one with 'botdesk%s%s start'",
			c->p.name, streq(c->p.name, "default") ? "" : " --profile ",
			streq(c->p.name, "default") ? "" : c->p.name);
		return EXIT_NOT_RUNNING;
	}
	return 0;
}

/* 0 when the agent may act on the desktop, else exit 4 with the reason. */
static int need_agent(struct cli *c)
{
	struct lease l;
	if (control_need_agent(&c->p, &l, &c->err) < 0) {
		log_error("%s", c->err.msg);
		return EXIT_HUMAN;
	}
	return 0;
}

/* value in single quotes, each ' as '\'' : the one quoting every POSIX shell reads back
 * verbatim, whatever the value holds ($, `, \, spaces, newlines). */
static void print_shell_quoted(const char *value)
{
	fputc('\'', stdout);
	for (const char *p = value; *p; p++) {
		if (*p == '\'') {
			fputs("'\\''", stdout);
		} else {
			fputc(*p, stdout);
		}
	}
	fputc('\'', stdout);
}

/* `env --shell`: only what a program needs to appear on the desktop. Not the desktop's XDG
 * homes: a shell that took them would move every tool run from it (botdesk included) into the
 * desktop's configuration. */
static void print_shell_exports(const struct envfile *env)
{
	static const char *const keys[] = {"DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS"};
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = envfile_get(env, keys[i]);
		if (v) {
			printf("export %s=", keys[i]);
			print_shell_quoted(v);
			fputc('\n', stdout);
		}
	}
}

static int cmd_env(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "env", OPT_SHELL, &o);
	if (r || (r = setup(c, false))) {
		return r;
	}
	struct desktop_probe probe;
	if ((r = need_running(c, &probe)) || (r = need_agent(c))) {
		return r;
	}
	if (o.shell) {
		print_shell_exports(&probe.env);
		return 0;
	}
	for (size_t i = 0; i < probe.env.n; i++) {
		printf("%s=%s\n", probe.env.keys[i], probe.env.values[i]);
	}
	return 0;
}

static int cmd_exec(struct cli *c, int argc, char **argv)
{
	int first = 1;
	if (first < argc && streq(argv[first], "--")) {
		first++;
	} else if (first < argc && argv[first][0] == '-') {
		return usage_error("exec takes no option '%s'; put the program after --",
				   argv[first]);
	}
	if (first >= argc) {
		return usage_error("%s", "exec needs a program: botdesk exec -- PROGRAM [ARG...]");
	}
	int r = setup(c, false);
	if (r) {
		return r;
	}
	struct desktop_probe probe;
	if ((r = need_running(c, &probe)) || (r = need_agent(c))) {
		return r;
	}
	if ((r = desktop_verify_server(&c->settings, &c->p, &probe, &c->err)) < 0) {
		return fail(c, r);
	}
	/* The program talks to this desktop only: never to a Wayland compositor it might find. */
	unsetenv("WAYLAND_DISPLAY");
	for (size_t i = 0; i < probe.env.n; i++) {
		if (setenv(probe.env.keys[i], probe.env.values[i], 1) < 0) {
			return fail(c, negative_errno());
		}
	}
	desktop_stamp_activity(&c->settings, &c->p);
	desktop_join_cgroup(&c->settings, &probe);
	profile_close(&c->p);
	execvp(argv[first], argv + first);
	log_error("cannot run '%s': %s", argv[first], strerror(errno));
	return EXIT_FAILURE;
}

static int cmd_thumbnail(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"max", required_argument, NULL, 'm'},
		{"output", required_argument, NULL, 'o'},
		{NULL, 0, NULL, 0},
	};
	unsigned max_w = 960, max_h = 600;
	const char *output = NULL;
	optind = 1;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (ch) {
		case 'm':
			if (picture_parse_max(optarg, &max_w, &max_h) < 0) {
				return usage_error("--max takes " PICTURE_MAX_RULE ", not '%s'",
						   optarg);
			}
			break;
		case 'o':
			output = optarg;
			break;
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		return usage_error("unexpected argument '%s'", argv[optind]);
	}
	int r = setup(c, false);
	if (r) {
		return r;
	}
	/* Decided from files alone: no X connection is opened for a desktop that is not ours. */
	struct desktop_probe probe;
	if ((r = need_running(c, &probe)) || (r = need_agent(c))) {
		return r;
	}
	if ((r = desktop_verify_server(&c->settings, &c->p, &probe, &c->err)) < 0) {
		return fail(c, r);
	}
	const char *display = envfile_get(&probe.env, "DISPLAY");
	const char *xauth = envfile_get(&probe.env, "XAUTHORITY");
	_cleanup_free_ char *fallback = xauth ? NULL : profile_path(&c->p, STATE_XAUTHORITY);
	_cleanup_free_ unsigned char *png = NULL;
	size_t len = 0;
	r = thumbnailer_run(&c->settings, display, xauth ? xauth : fallback, max_w, max_h, &png,
			    &len, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	if (output) {
		return fail(c, picture_write_output(output, png, len, &c->err));
	}
	base64_print_data_url(stdout, "image/png", png, len);
	return 0;
}

/* "botdesk thumbnail" or "botdesk --profile NAME thumbnail": the command as the user would type
 * it for this profile. */
static const char *profile_flag(const struct cli *c)
{
	return streq(c->p.name, "default") ? "" : " --profile ";
}

static const char *profile_arg(const struct cli *c)
{
	return streq(c->p.name, "default") ? "" : c->p.name;
}

/* run's first line, for `docker logs` and the journal: the desktop is usable, where, and how to
 * look at it. */
static void print_run_up(const struct cli *c, const struct desktop_probe *probe)
{
	_cleanup_free_ char *sock = profile_path(&c->p, STATE_SOCKET);
	printf("desktop of profile '%s' running on display %s (launcher pid %d); view it with 'vncviewer %s', or take a picture with 'botdesk%s%s thumbnail --output desktop.png'\n",
	       c->p.name, envfile_get(&probe->env, "DISPLAY"), (int)probe->launcher.pid,
	       sock ? sock : STATE_SOCKET, profile_flag(c), profile_arg(c));
	fflush(stdout);
}

/* run's last line when the desktop ended because somebody asked: who. */
static void print_run_end(const struct cli *c, const struct foreground_result *res)
{
	if (res->end == FOREGROUND_STOPPED) {
		struct passwd *pw = getpwuid(res->by.by_uid);
		char uid[16];
		snprintf(uid, sizeof(uid), "%u", (unsigned)res->by.by_uid);
		printf("desktop of profile '%s' stopped by 'botdesk stop' (pid %d, user %s)\n",
		       c->p.name, (int)res->by.by_pid, pw ? pw->pw_name : uid);
	} else {
		const char *name = sigabbrev_np(res->signo);
		printf("desktop of profile '%s' stopped on SIG%s\n", c->p.name,
		       name ? name : "(unknown)");
	}
	fflush(stdout);
}

/* Every action: checked here (usage, running, the lease), then done by botdesk-act or, for the
 * pointer commands, botdesk-act-pointer. */
static int cmd_act(struct cli *c, int argc, char **argv)
{
	struct act_req rq;
	if (act_parse_argv(argc, argv, &rq, &c->err) < 0) {
		return usage_error("%s", c->err.msg);
	}
	int r = setup(c, false);
	struct desktop_probe probe;
	if (r || (r = need_running(c, &probe)) || (r = need_agent(c))) {
		return r;
	}
	/* botdesk-act-pointer makes the same check itself, on the socket it then sends through
	 * (act/xptr.h): two connections fewer for the commands agents call most. */
	if (!act_is_pointer(rq.cmd) &&
	    (r = desktop_verify_server(&c->settings, &c->p, &probe, &c->err)) < 0) {
		return fail(c, r);
	}
	fflush(stdout);
	return fail(c, actions_exec(&c->settings, &c->p, &probe, rq.cmd, argc, argv, &c->err));
}

static int cmd_mcp(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "mcp", 0, &o);
	if (r || (r = load_settings(c))) {
		return r;
	}
	return fail(c, actions_exec_mcp(&c->settings, c->profile, &c->err));
}

static int cmd_web(struct cli *c, int argc, char **argv)
{
	bool ticket = false;
	for (int i = 1; i < argc; i++) {
		ticket |= streq(argv[i], "--ticket");
	}
	int r = setup(c, false);
	struct desktop_probe probe;
	/* A fresh ticket needs only the server; serving needs the desktop. */
	if (r || (!ticket && (r = need_running(c, &probe)))) {
		return r;
	}
	if (ticket && c->p.dirfd < 0) {
		/* No state directory, so no server: "not running" (3) as botdesk-web says when
		 * the directory is there, not a failure to open it. */
		log_error(
			"no botdesk web --listen is running for profile '%s'; start one (a server on the default unix socket needs no ticket)",
			c->p.name);
		return EXIT_NOT_RUNNING;
	}
	fflush(stdout);
	return fail(c, webexec_run(&c->settings, &c->p, argc, argv, &c->err));
}

/* Ends the web server `run --web` started, and waits for it (bounded by its own clean stop). */
static void stop_web(pid_t pid)
{
	if (pid > 0 && kill(pid, SIGTERM) == 0) {
		(void)waitpid(pid, NULL, 0);
	}
}

static int cmd_run(struct cli *c, int argc, char **argv)
{
	/* Everything from --web on is botdesk web's. */
	int web = 0;
	for (int i = 1; i < argc && !web; i++) {
		web = streq(argv[i], "--web") ? i : 0;
	}
	struct opts o;
	int r = parse_opts(web ? web : argc, argv, "run", OPT_WAIT, &o);
	if (r || (r = setup(c, true))) {
		return r;
	}
	struct foreground fg = FOREGROUND_INIT;
	r = foreground_start(&c->settings, &c->p, o.wait_ms, &fg, &c->err);
	if (r == -EINTR) {
		/* Told to stop while starting (a container stopped early): a clean stop. */
		foreground_close(&fg);
		printf("desktop of profile '%s' stopped on a signal while it was starting; nothing of it is left running\n",
		       c->p.name);
		return 0;
	}
	if (r < 0) {
		foreground_close(&fg);
		return fail(c, r);
	}
	print_run_up(c, &fg.probe);
	pid_t web_pid = 0;
	if (web) {
		fflush(stdout);
		if ((r = webexec_spawn(&c->settings, &c->p, argc - web, argv + web, &web_pid,
				       &c->err)) < 0) {
			log_warn("%s; the desktop runs without its web page", c->err.msg);
			c->err = (struct error){{0}};
		}
	}
	struct foreground_result res;
	r = foreground_wait(&c->settings, &c->p, &fg, &res, &c->err);
	stop_web(web_pid);
	foreground_close(&fg);
	if (r < 0) {
		return fail(c, r);
	}
	print_run_end(c, &res);
	return 0;
}

static int cmd_doctor(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "doctor", 0, &o);
	if (r || (r = load_settings(c))) {
		return r;
	}
	return doctor_run(&c->settings, stdout) == 0 ? 0 : EXIT_FAILURE;
}

static int cmd_install(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "install", OPT_DRY_RUN | OPT_WEB, &o);
	if (r || (r = load_settings(c))) {
		return r;
	}
	r = install_run(&c->settings, o.web ? POLICY_SET_WEB : POLICY_SET_DESKTOP, o.dry_run,
			stdout, &c->err);
	return r < 0 ? fail(c, r) : 0;
}

static void print_lease(struct cli *c, const struct lease *l, bool json)
{
	if (json) {
		control_print_json(c->p.name, l, stdout);
	} else {
		control_print_text(c->p.name, l, stdout);
	}
}

static int cmd_take(struct cli *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"reason", required_argument, NULL, 'r'},
		{"json", no_argument, NULL, 'j'},
		{NULL, 0, NULL, 0},
	};
	const char *reason = NULL;
	bool json = false;
	optind = 1;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		if (ch == 'r' && lease_reason_valid(optarg)) {
			reason = optarg;
		} else if (ch == 'r') {
			return usage_error("--reason takes at most %d characters of one line",
					   LEASE_REASON_MAX);
		} else if (ch == 'j') {
			json = true;
		} else {
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		return usage_error("unexpected argument '%s'", argv[optind]);
	}
	int r = setup(c, true);
	struct lease l;
	bool changed;
	if (r || (r = control_set(&c->settings, &c->p, LEASE_HUMAN, reason, &l, &changed,
				  &c->err)) < 0) {
		return r < 0 ? fail(c, r) : r;
	}
	/* Returns once nothing of the agent's is on its way and nothing it pressed is still down:
	 * the human's first key is not typed into the middle of the agent's sentence, nor with
	 * the agent's Shift held. */
	struct desktop_probe probe;
	desktop_probe(&c->p, &probe);
	if (actions_release_held(&c->settings, &c->p, &probe, &c->err) < 0) {
		log_warn("%s", c->err.msg);
		c->err = (struct error){{0}};
	}
	print_lease(c, &l, json);
	return 0;
}

static int cmd_release(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "release", 0, &o);
	if (r || (r = setup(c, true))) {
		return r;
	}
	struct lease l;
	bool changed;
	r = control_set(&c->settings, &c->p, LEASE_AGENT, NULL, &l, &changed, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	/* Returns once the desktop has applied the hand-back, so the agent's next action finds
	 * the viewers' input gated and the screen at its configured size. */
	struct desktop_probe probe;
	desktop_probe(&c->p, &probe);
	if (changed && probe.running &&
	    control_wait_applied(&c->p, l.epoch, CONTROL_APPLIED_WAIT_MS) < 0) {
		log_warn(
			"the desktop of profile '%s' has not confirmed the hand-back within %d s: its screen may not be back at its configured size yet; see %s/%s",
			c->p.name, CONTROL_APPLIED_WAIT_MS / 1000, c->p.dir, STATE_LOG);
	}
	print_lease(c, &l, o.json);
	return 0;
}

static int cmd_lease(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "lease", 0, &o);
	if (r || (r = setup(c, false))) {
		return r;
	}
	struct lease l = {.holder = LEASE_AGENT};
	if (c->p.dirfd >= 0) {
		(void)lease_read_at(c->p.dirfd, &l);
	}
	print_lease(c, &l, o.json);
	return 0;
}

struct command {
	const char *name;
	int (*run)(struct cli *c, int argc, char **argv);
};

static const struct command commands[] = {
	{"start", cmd_start}, {"stop", cmd_stop},       {"status", cmd_status},
	{"env", cmd_env},     {"exec", cmd_exec},       {"install", cmd_install},
	{"run", cmd_run},     {"doctor", cmd_doctor},   {"thumbnail", cmd_thumbnail},
	{"take", cmd_take},   {"release", cmd_release}, {"lease", cmd_lease},
	{"list", cmd_list},   {"web", cmd_web},         {"mcp", cmd_mcp},
};

/* The agent's hands and eyes are the rows of act/acttable.c, and every one goes the same way:
 * {NAME, cmd_act}. */
static const struct command action_command = {NULL, cmd_act};

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		if (streq(commands[i].name, name)) {
			return &commands[i];
		}
	}
	return act_action_find(name) ? &action_command : NULL;
}

/* --list-commands: every command of the tables above, one a line, an action followed by the
 * options it takes. The bash completion reads it, so it offers what this binary accepts. */
static int list_commands(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		puts(commands[i].name);
	}
	for (size_t i = 0; i < ARRAY_SIZE(act_actions); i++) {
		fputs(act_actions[i].name, stdout);
		(void)act_print_options(act_actions[i].name, stdout);
		putchar('\n');
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	log_set_program("botdesk");
	log_set_debug(getenv("BOTDESK_DEBUG") != NULL);
	static const struct option longopts[] = {
		{"profile", required_argument, NULL, 'p'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{"list-commands", no_argument, NULL, 'L'},
		{NULL, 0, NULL, 0},
	};
	/* Set but empty is a malformed name, not "unset": it is a usage error below. */
	struct cli c = {.profile = getenv("BOTDESK_PROFILE"), .p = PROFILE_INIT};
	bool from_env = c.profile != NULL;
	if (!c.profile) {
		c.profile = "default";
	}
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			c.profile = optarg;
			from_env = false;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("botdesk %s\n", BOTDESK_VERSION);
			return 0;
		case 'L':
			return list_commands();
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (!profile_name_valid(c.profile)) {
		/* Name where the bad name came from: a variable set long ago is easy to forget. */
		return usage_error("%s='%s' is not a valid profile name: use " PROFILE_NAME_RULE,
				   from_env ? "BOTDESK_PROFILE" : "--profile", c.profile);
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[optind];
	const struct command *cmd = find_command(name);
	if (cmd) {
		int r = cmd->run(&c, argc - optind, argv + optind);
		fflush(stdout);
		profile_close(&c.p);
		settings_free(&c.settings);
		return r;
	}
	return usage_error("unknown command '%s'", name);
}
