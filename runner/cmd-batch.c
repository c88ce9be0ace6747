/* botdesk batch: several actions from one JSON array on stdin, run in order by one process on one
 * X connection (botdesk-mcp --batch, mcp/batch.h), stopped by the first failure or a human's take
 * (cli.h). */
#include "cli.h"

#include <stdio.h>

#include "actions.h"

int cmd_batch(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "batch", 0, &o);
	if (r) {
		return r;
	}
	if (o.json) {
		return usage_error("%s", "batch takes no --json: it always prints JSON");
	}
	/* Refused here, from files, before the X libraries are loaded and before the input is
	 * read: a desktop that is down (3) or held by a human (4) runs no step. */
	struct desktop_probe probe;
	if ((r = setup(c, false)) || (r = need_running(c, &probe)) || (r = need_agent(c))) {
		return r;
	}
	fflush(stdout);
	return fail(c, actions_exec_batch(&c->settings, c->p.name, &c->err));
}
