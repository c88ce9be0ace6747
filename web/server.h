/* botdesk-web's server: libwebsockets serving the page, noVNC's files, the lease and the RFB
 * proxy to the profile's doors, in one event loop. */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "tickets.h"

struct web_config {
	const char *profile;
	const char *state; /* the profile's state directory (its path, for messages) */
	int dirfd;         /* the same, opened by the caller: every file goes through it */
	const char *novnc; /* Debian's noVNC, /usr/share/novnc */
	const char *data;  /* our page and its script */
	/* Where to listen: unix_path (the profile's web socket), or host:port. */
	const char *unix_path;
	char host[64];
	unsigned port;
	const char *tls_cert, *tls_key;
	/* The watchers' door when the desktop put it elsewhere (view_dir); NULL: view.sock in
	 * dirfd. */
	const char *view_socket;
	/* What a take runs to release the keys and buttons the agent holds (common/acthandoff.h):
	 * botdesk-act-pointer and the desktop's X. All three NULL: a take only writes the lease. */
	const char *act_pointer, *display, *xauthority;
	/* Called once the server listens (prints how to reach it), with the first ticket's URL
	 * when on host:port; nonzero stops the server. */
	int (*ready)(const struct web_config *cfg, const char *url, void *userdata);
	void *userdata;
	/* Readable when the caller wants the loop to look at *stop (an eventfd its signal handler
	 * writes); -1: none. The server watches a duplicate: the caller's stays its own. */
	int wake_fd;
};

/* Serves until *stop is set (a signal handler sets it, then writes cfg->wake_fd). 0 or
 * -errno. */
int web_serve(const struct web_config *cfg, volatile sig_atomic_t *stop);
