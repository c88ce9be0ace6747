/* The gate's event loop: viewers accepted on its two doors, each joined to a connection of its
 * own to Xvnc's private socket. What the server sends goes to the viewer through a pipe with
 * splice(2), never through our memory; what the viewer sends goes through the RFB filter. */
#pragma once

#include "watch.h"

/* At most this many viewers at once; more are turned away. */
#define RELAY_MAX_CONNECTIONS 64
/* Of those, this many are the controller's door's alone: watchers (anyone in the view group)
 * can never fill the gate so that the owner cannot get in. */
#define RELAY_CONTROL_RESERVED 16
/* Per door, at most this many viewers still in the handshake (before ClientInit); more are
 * turned away at once. Xvnc's own failed-handshake blacklist is off (it sees every viewer as
 * the gate, one address), so this is the bound. */
#define RELAY_MAX_HANDSHAKES 8
/* A viewer that has not finished its handshake by then is closed. */
#define RELAY_HANDSHAKE_MS 10000

struct relay_config {
	int control_fd;       /* listening: rfb.sock, the controller's door */
	int view_fd;          /* listening: view.sock, the watchers' door */
	const char *upstream; /* Xvnc's private socket */
	struct watch *watch;
};

/* Runs until TERM or INT (read through a signalfd). 0, or -errno when the loop itself failed. */
int relay_run(const struct relay_config *cfg);
