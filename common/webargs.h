/* botdesk-web's command line: the contract between the runner, which builds it (`botdesk web`,
 * `botdesk run --web`, runner/webexec.c), and botdesk-web, which parses it (web/web-main.c). Both
 * take the option names from here. Every option is --NAME VALUE or --NAME; an unknown one makes
 * botdesk-web exit 2 with its usage.
 *
 * The runner's own, first: the profile, its state directory, the page's files, Debian's noVNC,
 * the watchers' door when view_dir puts it elsewhere, and what a take needs to release the keys
 * and buttons the agent holds (common/acthandoff.h): botdesk-act-pointer's path and the desktop's
 * DISPLAY and XAUTHORITY as the runner's probe read them. Then the user's options (WEBARGS_USER),
 * which the runner checks before it starts anything. */
#pragma once

#include <getopt.h>

#define WEBARG_PROFILE "profile"
#define WEBARG_STATE "state"
#define WEBARG_DATA "data"
#define WEBARG_NOVNC "novnc"
#define WEBARG_VIEW_SOCKET "view-socket"
#define WEBARG_ACT_POINTER "act-pointer"
#define WEBARG_DISPLAY "display"
#define WEBARG_XAUTHORITY "xauthority"

#define WEBARG_LISTEN "listen"
#define WEBARG_TLS_CERT "tls-cert"
#define WEBARG_TLS_KEY "tls-key"
#define WEBARG_OPEN "open"
#define WEBARG_TICKET "ticket"

/* One getopt_long entry. */
#define WEBARG_OPT(name, has_arg, val)   \
	{                                \
		name, has_arg, NULL, val \
	}

/* The options a user may give `botdesk web` (the getopt_long entries;
 * --novnc too, as the BOTDESK_NOVNC setting does). */
#define WEBARGS_USER                                                 \
	WEBARG_OPT(WEBARG_LISTEN, required_argument, 'l'),           \
		WEBARG_OPT(WEBARG_TLS_CERT, required_argument, 'c'), \
		WEBARG_OPT(WEBARG_TLS_KEY, required_argument, 'k'),  \
		WEBARG_OPT(WEBARG_OPEN, no_argument, 'o'),           \
		WEBARG_OPT(WEBARG_TICKET, no_argument, 't'),         \
		WEBARG_OPT(WEBARG_NOVNC, required_argument, 'n')

/* The runner's (see above). */
#define WEBARGS_RUNNER                                                  \
	WEBARG_OPT(WEBARG_PROFILE, required_argument, 'p'),             \
		WEBARG_OPT(WEBARG_STATE, required_argument, 's'),       \
		WEBARG_OPT(WEBARG_DATA, required_argument, 'd'),        \
		WEBARG_OPT(WEBARG_VIEW_SOCKET, required_argument, 'v'), \
		WEBARG_OPT(WEBARG_ACT_POINTER, required_argument, 'a'), \
		WEBARG_OPT(WEBARG_DISPLAY, required_argument, 'D'),     \
		WEBARG_OPT(WEBARG_XAUTHORITY, required_argument, 'X')
