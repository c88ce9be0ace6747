/* Starting a profile's launcher and waiting, on events, until it has published its desktop, has
 * died, or has missed the deadline. */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "identity.h"
#include "launcher.h"
#include "profile.h"
#include "settings.h"

/* How many numbers one start tries when other users' servers keep taking them under it (two
 * users' storms of starts race for the same free numbers), within its deadline. */
#define LAUNCH_MAX_ATTEMPTS 8

/* Picks a display under the allocation lock, spawns the launcher, and returns once it has
 * published (ret: its identity). On failure nothing of the launch is left running or recorded.
 * The caller holds the profile's start lock. */
int launch_desktop(const struct settings *s, struct profile *p, uint64_t wait_ms,
		   struct identity *ret, struct error *err);

/* Builds the launcher's environment from envp: the runner's minus display, bus and session
 * variables and credentials, plus the BOTDESK_* contract (wait_ms, the time left of the start's
 * deadline, is left out when 0). NULL-terminated, malloc'ed strings. */
char **launch_environment(const char *const *envp, const struct settings *s,
			  const struct profile *p, unsigned display, uint64_t wait_ms);
void launch_environment_free(char **env);

/* "BOTDESK_DESKTOP=<uid>:<profile>:<state root>": the entry of the launcher's environment that
 * finds a desktop of ours again when its state directory was lost (desk/reap.c). */
int launch_marker(const struct settings *s, const char *profile, char *buf, size_t size);
