/* The runner's side of `botdesk web`: once main() has checked the profile, the user's options
 * (webexec_check_args()) and that its desktop runs, exec botdesk-web with the command line of
 * common/webargs.h. */
#pragma once

#include <sys/types.h>

#include "desktop.h"
#include "error.h"
#include "profile.h"
#include "settings.h"

/* Checks the user's options to botdesk web (argv[0] is "web" or "--web") against
 * common/webargs.h's WEBARGS_USER: 0, or -EINVAL with the message (a usage error, exit 2).
 * ret_ticket says whether --ticket is among them. */
int webexec_check_args(int argc, char **argv, bool *ret_ticket, struct error *err);

/* Execs s->web with argv's options (argv[0] is "web"). probe is the running desktop's, whose
 * DISPLAY and XAUTHORITY a take needs; NULL for --ticket. Returns only on failure. */
int webexec_run(const struct settings *s, const struct profile *p,
		const struct desktop_probe *probe, int argc, char **argv, struct error *err);

/* Starts s->web as a child with argv's options (argv[0] is "--web"), signals unblocked, for
 * `botdesk run --web`. */
int webexec_spawn(const struct settings *s, const struct profile *p,
		  const struct desktop_probe *probe, int argc, char **argv, pid_t *ret_pid,
		  struct error *err);
