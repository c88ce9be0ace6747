/* The last step of a take, shared by `botdesk take` (runner/) and the browser's Take over
 * (botdesk-web): botdesk-act-pointer in its --release-held mode waits until no agent event is on
 * its way (lease_quiesce_at()), then lets go of every key and button the agent holds on the
 * desktop. Both callers start it the same way, here; each waits for it as its loop allows (the
 * runner blocks, the web server watches the pidfd in its event loop). The environment such a
 * program gets is made here too, for the MCP server's botdesk-act-a11y as well. */
#pragma once

#include <sys/types.h>

/* The word botdesk-act-pointer gets in its ACTION's place for this. No CLI parser accepts it. */
#define ACT_RELEASE_HELD "--release-held"
/* The release is one lock wait (at most LEASE_QUIESCE_WAIT_MS), one connection and two round
 * trips: a program still running after this long is killed. */
#define ACT_RELEASE_WAIT_MS 5000

struct act_handoff {
	const char *program; /* botdesk-act-pointer, by absolute path */
	const char *profile;
	const char *dir; /* the profile's state directory (for messages) */
	int dirfd;       /* the same, opened: the one descriptor the program gets (as fd 3) */
	const char *display;
	const char *xauthority;
};

/* The environment an action program gets when another program starts it (the release here,
 * botdesk-act-a11y from the MCP server): of environ, only the locale's and the sanitizers'
 * variables (pointers into environ), NULL-terminated. ACT_ENV_MAX: the most it holds, NULL
 * counted. */
#define ACT_ENV_MAX 7
void act_program_env(char *ret[ACT_ENV_MAX]);

/* Starts the program for h: no shell, its argv from h, an environment of only the sanitizer's
 * and the locale's variables, stdin/stdout/stderr inherited, no fd of ours but dirfd. Returns a
 * pidfd of the child (O_CLOEXEC, as every pidfd) and its pid in ret_pid, or -errno (the exec's
 * own, from spawn_program()). The caller reaps the child. */
int act_release_spawn(const struct act_handoff *h, pid_t *ret_pid);
