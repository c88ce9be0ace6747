/* The gate's event loop: viewers accepted on its two doors, each joined to a connection of its
 * own to Xvnc's private socket. What the server sends goes to the viewer through a pipe with
 * splice(2), never through our memory; what the viewer sends goes through the RFB filter. */
#pragma once

#include "watch.h"

/* At most this many viewers at once; more are turned away. */
#define RELAY_MAX_CONNECTIONS 64

struct relay_config {
	int control_fd;       /* listening: rfb.sock, the controller's door */
	int view_fd;          /* listening: view.sock, the watchers' door */
	const char *upstream; /* Xvnc's private socket */
	struct watch *watch;
};

/* Runs until TERM or INT (read through a signalfd). 0, or -errno when the loop itself failed. */
int relay_run(const struct relay_config *cfg);
