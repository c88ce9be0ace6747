/* The runner's side of the agent's actions and of the MCP server: once main() has checked the
 * arguments, that the desktop runs and that the agent holds it, hand over to the program that
 * loads the X libraries (botdesk-act or botdesk-act-pointer, botdesk-mcp) by exec: one short
 * process per command. */
#pragma once

#include "actargs.h"
#include "desktop.h"
#include "error.h"
#include "profile.h"
#include "settings.h"

/* Execs the program for the action rq in argv (argv[0] its name) on the probed desktop:
 * s->act_a11y for tree, find and --element, s->act_pointer when act_by_pointer_program(), s->act
 * for the rest. The profile's directory goes along as an open descriptor. Returns only on
 * failure. */
int actions_exec(const struct settings *s, struct profile *p, const struct desktop_probe *probe,
		 const struct act_req *rq, int argc, char **argv, struct error *err);

/* Execs s->mcp for profile. Returns only on failure. */
int actions_exec_mcp(const struct settings *s, const char *profile, struct error *err);

/* Execs s->mcp --batch for profile (`botdesk batch`: one batch from stdin, in one process with
 * one X connection). Returns only on failure. */
int actions_exec_batch(const struct settings *s, const char *profile, struct error *err);

/* `botdesk take`'s hand-over, once the lease is the human's: runs s->act_pointer's release
 * (common/acthandoff.h: it waits until no agent event is on its way, then lets go of every key and
 * button the agent holds on the probed desktop) and waits for it (bounded). A desktop that is not
 * running holds nothing; the wait for the agent is then made here. 0, or -errno with the message.
 */
int actions_release_held(const struct settings *s, struct profile *p,
			 const struct desktop_probe *probe, struct error *err);
