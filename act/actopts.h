/* The actions' long options (--json, --from, --button...): getopt_long's table of them all, which
 * action takes which (its row's ACT_O_ bits, acttable.h), and each option's value into the
 * request. act_parse_argv() (actargs.c) walks argv with them. Pure. */
#pragma once

#include <getopt.h>
#include <stdbool.h>

#include "actargs.h"
#include "error.h"

/* Every option of the actions, ending in a zeroed entry; each one's val is its id. */
extern const struct option actopts_long[];

/* Whether the action cmd takes the option whose id is opt. */
bool actopts_taken(enum act_cmd cmd, int opt);

/* The option opt's value arg (NULL for a flag) into rq; dir_set says whether a scroll direction
 * was given already (one is allowed). -EINVAL with a message naming the option and its value. */
int actopts_parse(struct act_req *rq, int opt, const char *arg, bool *dir_set, struct error *err);
