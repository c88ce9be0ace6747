/* `botdesk run`: a desktop in the foreground, for a container's command or a systemd service. */
#pragma once

#include <stdint.h>

#include "error.h"
#include "profile.h"
#include "settings.h"

/* Starts the profile's desktop (or adopts the running one) and stays until it ends. TERM, INT or
 * HUP stop it cleanly and return 0; the desktop ending on its own returns -ECHILD with err naming
 * the reason. Reaps every child that ends meanwhile, so it can serve as a container's PID 1. */
int foreground_run(const struct settings *s, struct profile *p, uint64_t wait_ms,
		   struct error *err);
