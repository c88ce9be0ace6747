/* `botdesk stop --user U --profile P`: root ends another user's desktop, found from the X locks
 * and /proc (never from that user's private state), acting as that user while it signals. */
#pragma once

#include "error.h"
#include "settings.h"

/* Stops every desktop of user (a name or a uid) whose X server names profile; ret_stopped counts
 * them. -EPERM unless root. */
int adminstop_run(const struct settings *s, const char *user, const char *profile,
		  unsigned *ret_stopped, struct error *err);
