/* botdesk-gate: the RFB gate between a desktop's viewers and its Xvnc, started and supervised by
 * botdesk-session as common/gateargs.h says; Xvnc's own socket is private to the gate. See
 * docs/ARCHITECTURE.md and docs/SECURITY.md. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "config.h"
#include "gateargs.h"
#include "log.h"
#include "parse.h"
#include "relay.h"
#include "watch.h"

static int usage(void)
{
	fputs("Usage: botdesk-gate --state DIR --upstream SOCKET --geometry WxH\n"
	      "Started by botdesk-session with the listening rfb.sock on fd 3 and view.sock on fd 4.\n",
	      stderr);
	return 2;
}

static bool listening(int fd)
{
	int v = 0;
	socklen_t len = sizeof(v);
	return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &v, &len) == 0 && v;
}

int main(int argc, char **argv)
{
	log_set_program("botdesk-gate");
	log_set_debug(getenv("BOTDESK_DEBUG") != NULL);
	static const struct option longopts[] = {
		{GATEARG_STATE, required_argument, NULL, 's'},
		{GATEARG_UPSTREAM, required_argument, NULL, 'u'},
		{GATEARG_GEOMETRY, required_argument, NULL, 'g'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *state = NULL, *upstream = NULL;
	unsigned w = 0, h = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			state = optarg;
			break;
		case 'u':
			upstream = optarg;
			break;
		case 'g':
			if (parse_geometry(optarg, 64, 8192, &w, &h) < 0) {
				log_error("--geometry takes WIDTHxHEIGHT, not '%s'", optarg);
				return 2;
			}
			break;
		case 'V':
			printf("botdesk-gate %s\n", BOTDESK_VERSION);
			return 0;
		default:
			return usage();
		}
	}
	if (!state || !upstream || w == 0 || optind != argc) {
		return usage();
	}
	if (!listening(GATE_CONTROL_FD) || !listening(GATE_VIEW_FD)) {
		log_error(
			"fds 3 and 4 must be listening sockets: botdesk-gate is started by botdesk-session, not by hand");
		return 2;
	}
	struct watch watch;
	int r = watch_open(&watch, state, w, h);
	if (r < 0) {
		log_error("cannot watch the lease in %s: %s", state, strerror(-r));
		watch_close(&watch);
		return 1;
	}
	struct relay_config cfg = {
		.control_fd = GATE_CONTROL_FD,
		.view_fd = GATE_VIEW_FD,
		.upstream = upstream,
		.watch = &watch,
	};
	r = relay_run(&cfg);
	watch_close(&watch);
	if (r < 0) {
		log_error("the gate's event loop failed: %s", strerror(-r));
		return 1;
	}
	return 0;
}
