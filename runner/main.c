/* botdesk: one headless desktop per profile. main(): the command table, --help and dispatch, and
 * the lease's commands; the other handlers are cmd-*.c's (cli.h). The handlers and main() are the
 * only places that print results, turn errors into messages and pick exit codes: 0 success,
 * 1 failure, 2 usage, 3 not running, 4 a human holds the desktop. */
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
#include "cli.h"
#include "config.h"
#include "control.h"
#include "desktop.h"
#include "doctor.h"
#include "error.h"
#include "exitstatus.h"
#include "fileio.h"
#include "foreground.h"
#include "helptext.h"
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

/* The commands: each row its name, handler, synopsis (the options after the name) and --help
 * line (a line break continues it under the first). --help, --list-commands (so the bash
 * completion's options) and the dispatch below are read from here; the actions are the rows of
 * act/acttable.c. */
struct command {
	const char *name;
	int (*run)(struct cli *c, int argc, char **argv);
	const char *synopsis;
	const char *help;
};

static int cmd_take(struct cli *c, int argc, char **argv);
static int cmd_release(struct cli *c, int argc, char **argv);
static int cmd_lease(struct cli *c, int argc, char **argv);
static int cmd_ask(struct cli *c, int argc, char **argv);

static const struct command commands[] = {
	{"start", cmd_start, "[--wait SECONDS] [--json]",
	 "start the profile's desktop (idempotent)"},
	{"stop", cmd_stop, "[--json] [--user U]",
	 "stop it (exit 3 when nothing was running);\n--user: root stops user U's desktop"},
	{"status", cmd_status, "[--json]", "report it"},
	{"list", cmd_list, "[--all] [--json]", "your profiles; --all: every desktop (admin)"},
	{"env", cmd_env, "[--shell]",
	 "print DISPLAY, XAUTHORITY, ... (3: down);\n--shell: for eval \"$(botdesk env --shell)\""},
	{"exec", cmd_exec, "-- PROGRAM [ARG...]", "run PROGRAM on the desktop (exit 3: down)"},
	{"run", cmd_run, "[--wait SECONDS] [--web [WEB OPTIONS]]",
	 "start or adopt it, stay in the foreground;\n--web serves its page too (botdesk web)"},
	{"install", cmd_install, "[--web|--fonts] [--dry-run]",
	 "install the desktop's packages, or say\nwho must; --web: noVNC; --fonts: CJK, emoji"},
	{"thumbnail", cmd_thumbnail, "[--max WxH] [--output FILE]",
	 "a PNG of the screen (default 960x600)"},
	{"doctor", cmd_doctor, "", "what this host lacks, and the fix for each"},
	{"take", cmd_take, "[--reason TEXT] [--json]", "a human takes control of the desktop"},
	{"release", cmd_release, "[--json]", "hand control back to the agent"},
	{"lease", cmd_lease, "[--json]", "who controls the desktop"},
	{"ask", cmd_ask, "[--reason TEXT] [--json]", "the agent asks for a human; take answers"},
	{"web", cmd_web,
	 "[--listen ADDR:PORT] [--tls-cert FILE --tls-key FILE] [--open] [--ticket]",
	 "the desktop in a browser"},
	{"mcp", cmd_mcp, "", "an MCP server on stdin and stdout"},
	{"batch", cmd_batch, "",
	 "the JSON array of steps on stdin, in order\n({\"tool\": ..., \"arguments\": {...}}, as the\nMCP tools); stops at a failure (exit 1) or\na human's take (4)"},
	{"record", cmd_record,
	 "start|stop | list|show [ID] [--json] | export ID --output FILE.webm|.mp4 [--max WxH] [--captions]",
	 "the flight recorder: screen and timeline"},
};

static const char usage_head[] = "Usage: botdesk [--profile NAME] COMMAND [OPTIONS]\n"
				 "\n"
				 "Commands:\n";
static const char usage_actions[] =
	"\n"
	"Actions (X Y in screen pixels, or in a WxH picture with --from WxH):\n";
/* Then the actions' lines, from their table (act/acttable.c). */
static const char usage_tail[] =
	"\n"
	"The profile is --profile, else $BOTDESK_PROFILE, else 'default'.\n"
	"Exit status: 0 success, 1 failure, 2 usage error, 3 not running, 4 a human\n"
	"holds the desktop (env, exec, thumbnail, batch and the actions\n"
	"are the agent's).\n"
	"See botdesk(1), and for every command, setting and file:\n"
	"  " BOTDESK_DOCDIR "/CLI.md\n";

/* A command's --help line: its synopsis, then its help at column 36 (on a line of its own when
 * the synopsis is longer), each continuation line at column 36 too. */
static void print_command_help(const struct command *cmd, FILE *f)
{
	enum { COLUMN = 36 };
	int col = help_synopsis(f, cmd->name, cmd->synopsis);
	if (col >= COLUMN) {
		fputc('\n', f);
		col = 0;
	}
	for (const char *h = cmd->help; *h;) {
		size_t n = strcspn(h, "\n");
		fprintf(f, "%*s%.*s\n", COLUMN - col, "", (int)n, h);
		col = 0;
		h += n + (h[n] == '\n');
	}
}

static void usage(FILE *f)
{
	fputs(usage_head, f);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		print_command_help(&commands[i], f);
	}
	fputs(usage_actions, f);
	act_print_help(f);
	fputs(usage_tail, f);
}

static void print_lease(struct cli *c, const struct lease *l, bool json)
{
	struct lease_request rq;
	bool asked = c->p.dirfd >= 0 && lease_request_read_at(c->p.dirfd, &rq) == 0;
	if (json) {
		control_print_json(c->p.name, l, asked ? &rq : NULL, stdout);
	} else {
		control_print_text(c->p.name, l, asked ? &rq : NULL, stdout);
	}
}

/* The agent asks for a human: a request beside the lease (lease.h) that `lease` and the
 * browser's bar show and a take answers. Never refused while a human holds the desktop: it is
 * what an agent that cannot go on does. */
static int cmd_ask(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "ask", OPT_REASON, &o);
	if (r || (r = setup(c, true))) {
		return r;
	}
	struct lease_request rq;
	r = lease_request_set_at(c->p.dirfd, o.reason, time(NULL), &rq);
	if (r < 0) {
		return fail(c, error_set(&c->err, r, "cannot record the request in %s/%s: %s",
					 c->p.dir, LEASE_REQUEST_FILE, strerror(-r)));
	}
	struct lease l = {.holder = LEASE_AGENT};
	(void)lease_read_at(c->p.dirfd, &l);
	print_lease(c, &l, o.json);
	return 0;
}

/* After a take: returns once nothing of the agent's is on its way and nothing it pressed is
 * still down, so the human's first key is not typed into the middle of the agent's sentence,
 * nor with the agent's Shift held. */
static void after_take(struct cli *c, const struct desktop_probe *probe)
{
	if (actions_release_held(&c->settings, &c->p, probe, &c->err) < 0) {
		log_warn("%s", c->err.msg);
		c->err = (struct error){{0}};
	}
}

/* After a release: returns once the desktop has applied the hand-back, so the agent's next
 * action finds the viewers' input gated and the screen at its configured size. */
static void after_release(struct cli *c, const struct desktop_probe *probe, const struct lease *l,
			  bool changed)
{
	if (changed && probe->running &&
	    control_wait_applied(&c->p, l->epoch, CONTROL_APPLIED_WAIT_MS) < 0) {
		log_warn(
			"the desktop of profile '%s' has not confirmed the hand-back within %d s: its screen may not be back at its configured size yet; see %s/%s",
			c->p.name, CONTROL_APPLIED_WAIT_MS / 1000, c->p.dir, STATE_LOG);
	}
}

/* take and release: the lease to holder, what that holder's arrival needs, the lease printed. */
static int change_lease(struct cli *c, int argc, char **argv, enum lease_holder holder)
{
	bool take = holder == LEASE_HUMAN;
	struct opts o;
	int r = parse_opts(argc, argv, take ? "take" : "release", take ? OPT_REASON : 0, &o);
	if (r || (r = setup(c, true))) {
		return r;
	}
	struct lease l;
	bool changed;
	r = control_set(&c->settings, &c->p, holder, o.reason, &l, &changed, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	struct desktop_probe probe;
	desktop_probe(&c->p, &probe);
	if (take) {
		after_take(c, &probe);
	} else {
		after_release(c, &probe, &l, changed);
	}
	print_lease(c, &l, o.json);
	return 0;
}

static int cmd_take(struct cli *c, int argc, char **argv)
{
	return change_lease(c, argc, argv, LEASE_HUMAN);
}

static int cmd_release(struct cli *c, int argc, char **argv)
{
	return change_lease(c, argc, argv, LEASE_AGENT);
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

/* The options a synopsis names ("--wait", "--web", "--fonts" ...), each once, after a space. */
static void print_synopsis_options(const char *syn, FILE *f)
{
	for (const char *o = strstr(syn, "--"); o; o = strstr(o, "--")) {
		size_t n = 2 + strspn(o + 2, "abcdefghijklmnopqrstuvwxyz-");
		if (n > 2) {
			fprintf(f, " %.*s", (int)n, o);
		}
		o += n;
	}
}

/* --list-commands: every command of the tables above, one a line, followed by the options it
 * takes. The bash completion reads it, so it offers what this binary accepts. */
static int list_commands(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		fputs(commands[i].name, stdout);
		print_synopsis_options(commands[i].synopsis, stdout);
		putchar('\n');
	}
	for (size_t i = 0; i < ARRAY_SIZE(act_actions); i++) {
		/* A name with verbs (clipboard get, clipboard set) once. */
		if (i > 0 && streq(act_actions[i].name, act_actions[i - 1].name)) {
			continue;
		}
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
