/* The running server's side door in the profile's state directory: web.lock (one server per
 * profile) and web-ctl.sock (0600), where `botdesk web --ticket` asks it for a fresh ticket. */
#pragma once

#include <stddef.h>

#define WEB_LOCK "web.lock"
#define WEB_CTL_SOCK "web-ctl.sock"
#define WEB_SOCK "web.sock"
/* What --open hands xdg-open (0600): a page that sends the browser on to the ticket URL. */
#define WEB_OPEN_PAGE "web-open.html"

/* Takes the profile's server lock; the held fd, or -EBUSY when another server holds it. */
int webctl_lock(int dirfd);
/* Binds and listens on web-ctl.sock (0600), replacing a stale one; the fd. */
int webctl_listen(int dirfd);
/* Asks the running server for a ticket URL (one line, without its newline). -ECONNREFUSED or
 * -ENOENT when no server listens. */
int webctl_ticket(int dirfd, char *out, size_t size);
