/* What botdesk's command handlers share: the invocation (struct cli), the one option parser of
 * the simple commands, the checks an agent's command makes first, and the failure and usage exits.
 * Only these handlers and main() print and pick exit codes (docs/ARCHITECTURE.md). The handlers
 * are grouped by what they act on: cmd-desktop.c (start, stop, status, list, run, install,
 * doctor), cmd-agent.c (env, exec, thumbnail, the actions, mcp, web), main.c (take, release,
 * lease, and the dispatch). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "desktop.h"
#include "error.h"
#include "profile.h"
#include "settings.h"
#include "util.h"

struct cli {
	const char *profile;
	struct settings settings;
	struct profile p;
	struct error err;
};

/* The options of the runner's own commands (the actions' are act/'s): --json for every command,
 * the others where the command's allow bits take them. Anything else is usage (exit 2). */
struct opts {
	bool json, dry_run, shell, web, fonts, all;
	uint64_t wait_ms;
	/* NULL when not given. The profile, for the commands that take --profile after their
	 * name as an administrator writes it, is checked as a profile name. */
	const char *reason, *user, *profile;
};

enum {
	OPT_WAIT = 1 << 0,
	OPT_DRY_RUN = 1 << 1,
	OPT_SHELL = 1 << 2,
	OPT_WEB = 1 << 3,
	OPT_FONTS = 1 << 4,
	OPT_ALL = 1 << 5,
	OPT_REASON = 1 << 6,
	OPT_USER = 1 << 7,
	OPT_PROFILE = 1 << 8,
};

/* "botdesk: MESSAGE" and the hint to --help: exit 2. */
int usage_error(const char *fmt, ...) _printf_(1, 2);
/* The message of c->err (else of r) on stderr: exit 1. */
int fail(struct cli *c, int r);
/* Loads the settings; 0, or the exit status of the failure it reported. */
int load_settings(struct cli *c);
/* Loads settings and opens the profile's directory (created when create is set); 0, or the exit
 * status of the failure it reported. */
int setup(struct cli *c, bool create);
int parse_opts(int argc, char **argv, const char *cmd, unsigned allow, struct opts *o);
void print_probe(struct cli *c, const struct desktop_probe *probe, bool json);
void print_status(struct cli *c, bool json);
/* 0 when the desktop runs (probe filled), else exit 3 with the reason. */
int need_running(struct cli *c, struct desktop_probe *probe);
/* 0 when the agent may act on the desktop, else exit 4 with the reason. */
int need_agent(struct cli *c);
/* setup(), need_running() and need_agent(), and with verify the check that the X server is the
 * one the desktop published (desktop_verify_server()): 0, or the exit status with the reason. */
int need_agent_desktop(struct cli *c, struct desktop_probe *probe, bool verify);
/* The --profile words of the commands botdesk prints, empty for the default profile. */
const char *profile_flag(const struct cli *c);
const char *profile_arg(const struct cli *c);

/* The handlers: argv[0] is the command's name; each returns the exit status. */
int cmd_start(struct cli *c, int argc, char **argv);
int cmd_stop(struct cli *c, int argc, char **argv);
int cmd_status(struct cli *c, int argc, char **argv);
int cmd_list(struct cli *c, int argc, char **argv);
int cmd_run(struct cli *c, int argc, char **argv);
int cmd_install(struct cli *c, int argc, char **argv);
int cmd_doctor(struct cli *c, int argc, char **argv);
int cmd_env(struct cli *c, int argc, char **argv);
int cmd_exec(struct cli *c, int argc, char **argv);
int cmd_thumbnail(struct cli *c, int argc, char **argv);
int cmd_act(struct cli *c, int argc, char **argv);
int cmd_mcp(struct cli *c, int argc, char **argv);
int cmd_batch(struct cli *c, int argc, char **argv);
int cmd_web(struct cli *c, int argc, char **argv);
/* cmd-record.c: the flight recorder (issue 28). */
int cmd_record(struct cli *c, int argc, char **argv);
