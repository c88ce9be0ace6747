/* The runner's side of `botdesk web`: once main() has checked the profile (and that its desktop
 * runs), exec botdesk-web with its state directory; botdesk-web checks its own options. */
#pragma once

#include <sys/types.h>

#include "error.h"
#include "profile.h"
#include "settings.h"

/* Execs s->web with argv's options (argv[0] is "web"). Returns only on failure. */
int webexec_run(const struct settings *s, const struct profile *p, int argc, char **argv,
		struct error *err);

/* Starts s->web as a child with argv's options (argv[0] is "--web"), signals unblocked, for
 * `botdesk run --web`. */
int webexec_spawn(const struct settings *s, const struct profile *p, int argc, char **argv,
		  pid_t *ret_pid, struct error *err);
