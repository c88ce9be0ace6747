/* The desktop's session bus listens in the profile's own directory (0700), never in shared /tmp:
 * dbus-run-session's default configuration puts the socket there, connectable by every local
 * user, who could fill it with idle connections until the desktop's D-Bus clients hang. */
#pragma once

#include <stddef.h>

#include "error.h"

/* The bus's socket and configuration file, beside rfb.sock in the state directory. */
#define BUSCONF_SOCKET "bus"
#define BUSCONF_FILE "bus.conf"
/* The session bus's own service directory, first in its list: org.a11y.Bus, the accessibility
 * bus's launcher, started on the first use with its socket in <state_dir>/at-spi/ (0700 like the
 * state directory), so that only the desktop's owner reaches the tree of what it shows. */
#define BUSCONF_A11Y_DIR "a11y-services"

/* Checks that state_dir is a directory of ours that nobody else may enter (the socket's only
 * gate), then writes (write-then-rename, 0600) a session bus configuration that listens only on
 * <state_dir>/BUSCONF_SOCKET; its path into ret_path. */
int busconf_write(const char *state_dir, char *ret_path, size_t size, struct error *err);

/* The installed at-spi-bus-launcher, or NULL. */
const char *busconf_a11y_launcher(void);

/* Removes what busconf_write made and the socket a killed bus left. */
void busconf_remove(const char *state_dir);

/* The D-Bus address form of a path: every byte outside [-0-9A-Za-z_/.\*] as %XX, which also
 * keeps it free of XML's special characters. -ENAMETOOLONG when it does not fit. */
int busconf_escape(const char *path, char *buf, size_t size);
