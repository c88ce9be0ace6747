/* The agent's commands: env, exec, thumbnail, the actions, mcp, web (cli.h). */
#include "cli.h"

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
#include "recordings.h"
#include "settings.h"
#include "status.h"
#include "thumbnailer.h"
#include "webexec.h"

extern char **environ;

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

int cmd_env(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "env", OPT_SHELL, &o);
	struct desktop_probe probe;
	if (r || (r = need_agent_desktop(c, &probe, false))) {
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

int cmd_exec(struct cli *c, int argc, char **argv)
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
	struct desktop_probe probe;
	int r = need_agent_desktop(c, &probe, true);
	if (r) {
		return r;
	}
	/* The program talks to this desktop only: never to a Wayland compositor it might find. */
	unsetenv("WAYLAND_DISPLAY");
	for (size_t i = 0; i < probe.env.n; i++) {
		if (setenv(probe.env.keys[i], probe.env.values[i], 1) < 0) {
			return fail(c, negative_errno());
		}
	}
	desktop_stamp_activity(&c->settings, &c->p);
	/* A start of a program is on a running recording's timeline. */
	recordings_note_exec(&c->p, argv[first]);
	desktop_join_cgroup(&c->settings, &probe);
	profile_close(&c->p);
	execvp(argv[first], argv + first);
	log_error("cannot run '%s': %s", argv[first], strerror(errno));
	return EXIT_FAILURE;
}

int cmd_thumbnail(struct cli *c, int argc, char **argv)
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
	/* Decided from files alone: no X connection is opened for a desktop that is not ours. */
	struct desktop_probe probe;
	int r = need_agent_desktop(c, &probe, true);
	if (r) {
		return r;
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
	if (output && (r = picture_write_output(output, png, len, &c->err)) < 0) {
		return fail(c, r);
	}
	if (output) {
		return 0;
	}
	base64_print_data_url(stdout, "image/png", png, len);
	return 0;
}

/* Every action: checked here (usage, running, the lease), then done by botdesk-act or, for the
 * pointer commands, botdesk-act-pointer. */
int cmd_act(struct cli *c, int argc, char **argv)
{
	struct act_req rq;
	if (act_parse_argv(argc, argv, &rq, &c->err) < 0) {
		return usage_error("%s", c->err.msg);
	}
	/* botdesk-act-pointer makes the server check itself, on the socket it then sends through
	 * (act/xptr.h): two connections fewer for the commands agents call most. */
	bool by_pointer = !act_is_a11y(&rq) && act_by_pointer_program(&rq);
	struct desktop_probe probe;
	int r = need_agent_desktop(c, &probe, !by_pointer);
	if (r) {
		return r;
	}
	fflush(stdout);
	return fail(c, actions_exec(&c->settings, &c->p, &probe, &rq, argc, argv, &c->err));
}

int cmd_mcp(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "mcp", 0, &o);
	if (r || (r = load_settings(c))) {
		return r;
	}
	return fail(c, actions_exec_mcp(&c->settings, c->profile, &c->err));
}

int cmd_web(struct cli *c, int argc, char **argv)
{
	bool ticket = false;
	/* Before anything else, as for every command: an unknown option is a usage error whether
	 * the desktop runs or not. */
	if (webexec_check_args(argc, argv, &ticket, &c->err) < 0) {
		return usage_error("%s", c->err.msg);
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
	return fail(c,
		    webexec_run(&c->settings, &c->p, ticket ? NULL : &probe, argc, argv, &c->err));
}
