/* The invocation and the checks every command handler shares (cli.h). */
#include "cli.h"

#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
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
#include "lease.h"
#include "list.h"
#include "log.h"
#include "parse.h"
#include "picture.h"
#include "profile.h"
#include "profilename.h"
#include "settings.h"
#include "status.h"
#include "thumbnailer.h"
#include "webexec.h"

/* start's default --wait: a desktop is up in about a second; a loaded host can take far longer. */
#define DEFAULT_WAIT_MS 30000
static_assert(LAUNCHER_WAIT_MAX_MS == 3600 * 1000, "--wait's message says up to 3600 seconds");

int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("botdesk: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs("\nTry 'botdesk --help'.\n", stderr);
	va_end(ap);
	return EXIT_USAGE;
}

int fail(struct cli *c, int r)
{
	if (error_isset(&c->err)) {
		log_error("%s", c->err.msg);
	} else {
		log_error("%s", strerror(r < 0 ? -r : r));
	}
	return EXIT_FAILURE;
}

/* Loads the settings; 0, or the exit status of the failure it reported. */
/* The library's warnings (desk_warn()) go where the CLI's own do. */
static void warn_to_log(void *data, const char *msg)
{
	(void)data;
	log_warn("%s", msg);
}

int load_settings(struct cli *c)
{
	int r = settings_load(&c->settings, &c->err);
	c->settings.warn = warn_to_log;
	if (r == 0 && c->settings.policy.warning[0]) {
		log_warn("%s", c->settings.policy.warning);
	}
	if (r == 0 && c->settings.policy.ignored[0]) {
		log_warn("%s", c->settings.policy.ignored);
	}
	return r < 0 ? fail(c, r) : 0;
}

/* Loads settings and opens the profile's directory (created when create is set). */
int setup(struct cli *c, bool create)
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

void print_probe(struct cli *c, const struct desktop_probe *probe, bool json)
{
	struct status st;
	status_gather(&c->settings, &c->p, probe, &st);
	if (json) {
		status_print_json(&st, stdout);
	} else {
		status_print_text(&st, stdout);
	}
}

void print_status(struct cli *c, bool json)
{
	struct desktop_probe probe;
	desktop_probe(&c->p, &probe);
	print_probe(c, &probe, json);
}

/* The runner's options, one row each: the allow bit a command gives to take it (0: every
 * command), and the bool a switch sets or the value option's parser. */
struct runner_opt {
	const char *name;
	unsigned allow;
	size_t field; /* a switch's bool in struct opts */
	int (*value)(const char *arg, struct opts *o);
};

static int value_wait(const char *arg, struct opts *o)
{
	if (parse_seconds_ms(arg, LAUNCHER_WAIT_MAX_MS, &o->wait_ms) < 0 || o->wait_ms == 0) {
		return usage_error("--wait takes seconds (up to 3600, e.g. 30 or 0.5), not '%s'",
				   arg);
	}
	return 0;
}

static int value_reason(const char *arg, struct opts *o)
{
	if (!lease_reason_valid(arg)) {
		return usage_error("--reason takes at most %d characters of one line",
				   LEASE_REASON_MAX);
	}
	o->reason = arg;
	return 0;
}

static int value_user(const char *arg, struct opts *o)
{
	o->user = arg;
	return 0;
}

static int value_profile(const char *arg, struct opts *o)
{
	if (!profile_name_valid(arg)) {
		return usage_error("'%s' is not a valid profile name", arg);
	}
	o->profile = arg;
	return 0;
}

static const struct runner_opt runner_opts[] = {
	{"json", 0, offsetof(struct opts, json), NULL},
	{"dry-run", OPT_DRY_RUN, offsetof(struct opts, dry_run), NULL},
	{"shell", OPT_SHELL, offsetof(struct opts, shell), NULL},
	{"web", OPT_WEB, offsetof(struct opts, web), NULL},
	{"fonts", OPT_FONTS, offsetof(struct opts, fonts), NULL},
	{"all", OPT_ALL, offsetof(struct opts, all), NULL},
	{"wait", OPT_WAIT, 0, value_wait},
	{"reason", OPT_REASON, 0, value_reason},
	{"user", OPT_USER, 0, value_user},
	{"profile", OPT_PROFILE, 0, value_profile},
};
/* getopt's value for runner_opts[i] is OPT_VAL + i: clear of every character getopt returns. */
#define OPT_VAL 256

int parse_opts(int argc, char **argv, const char *cmd, unsigned allow, struct opts *o)
{
	struct option longopts[ARRAY_SIZE(runner_opts) + 1] = {{0}};
	for (size_t i = 0; i < ARRAY_SIZE(runner_opts); i++) {
		longopts[i] = (struct option){
			runner_opts[i].name, runner_opts[i].value ? required_argument : no_argument,
			NULL, OPT_VAL + (int)i};
	}
	*o = (struct opts){.wait_ms = DEFAULT_WAIT_MS};
	optind = 1;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		if (ch < OPT_VAL || ch >= OPT_VAL + (int)ARRAY_SIZE(runner_opts)) {
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
		const struct runner_opt *ro = &runner_opts[ch - OPT_VAL];
		if (ro->allow && !(allow & ro->allow)) {
			return usage_error("%s takes no --%s", cmd, ro->name);
		}
		if (!ro->value) {
			*(bool *)((char *)o + ro->field) = true;
			continue;
		}
		int r = ro->value(optarg, o);
		if (r) {
			return r;
		}
	}
	if (optind < argc) {
		return usage_error("unexpected argument '%s'", argv[optind]);
	}
	return 0;
}

/* The verified running desktop's probe, or exit 3 with a word on what to do. */
int need_running(struct cli *c, struct desktop_probe *probe)
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
int need_agent(struct cli *c)
{
	struct lease l;
	if (control_need_agent(&c->p, &l, &c->err) < 0) {
		log_error("%s", c->err.msg);
		return EXIT_HUMAN;
	}
	return 0;
}

int need_agent_desktop(struct cli *c, struct desktop_probe *probe, bool verify)
{
	int r = setup(c, false);
	if (r || (r = need_running(c, probe)) || (r = need_agent(c))) {
		return r;
	}
	if (verify && (r = desktop_verify_server(&c->settings, &c->p, probe, &c->err)) < 0) {
		return fail(c, r);
	}
	return 0;
}

/* "botdesk thumbnail" or "botdesk --profile NAME thumbnail": the command as the user would type
 * it for this profile. */
const char *profile_flag(const struct cli *c)
{
	return streq(c->p.name, "default") ? "" : " --profile ";
}

const char *profile_arg(const struct cli *c)
{
	return streq(c->p.name, "default") ? "" : c->p.name;
}
