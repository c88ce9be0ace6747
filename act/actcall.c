#include "actcall.h"

#include <stdio.h>

#include "actlog.h"
#include "actprint.h"
#include "control.h"
#include "exitstatus.h"
#include "log.h"
#include "util.h"

int act_call_take(int argc, char **argv, const char *prog, struct act_call *c)
{
	*c = (struct act_call){.p = PROFILE_INIT};
	int r = actprint_take_handoff(argc, argv, prog, &c->p);
	if (r < 0) {
		return r;
	}
	c->display = argv[4];
	c->xauthority = argv[5];
	c->log_text = streq(argv[6], "1");
	return 0;
}

int act_call_parse(int argc, char **argv, struct act_call *c)
{
	if (act_parse_argv(argc - 7, argv + 7, &c->rq, &c->err) < 0) {
		act_call_usage(c->err.msg);
		return -EINVAL;
	}
	return 0;
}

int act_call_usage(const char *msg)
{
	log_error("%s", msg);
	fputs("Try 'botdesk --help'.\n", stderr);
	return EXIT_USAGE;
}

int act_call_lease_check(void *ctx, struct error *err)
{
	struct lease l;
	return control_need_agent(ctx, &l, err);
}

void act_call_log(struct act_call *c, const struct act_out *out, int r)
{
	if (c->err.kind == ERROR_HUMAN_HOLDS && !out->stopped) {
		return;
	}
	actlog_stamp_activity(&c->p);
	_cleanup_free_ char *line = actlog_line("cli", &c->rq, out, r, c->log_text);
	if (line && actlog_append(c->p.dirfd, line) < 0) {
		log_warn("cannot append to %s/%s", c->p.dir, ACTLOG_FILE);
	}
}
