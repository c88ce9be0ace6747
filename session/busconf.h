/* The desktop's session bus listens in the profile's own directory (0700), never in shared /tmp:
 * dbus-run-session's default configuration puts the socket there, connectable by every local
 * user, who could fill it with idle connections until the desktop's D-Bus clients hang. */
#pragma once

#include <stddef.h>

#include "error.h"

/* The bus's socket and configuration file, beside rfb.sock in the state directory. */
#define BUSCONF_SOCKET "bus"
#define BUSCONF_FILE "bus.conf"

/* Checks that state_dir is a directory of ours that nobody else may enter (the socket's only
 * gate), then writes (write-then-rename, 0600) a session bus configuration that listens only on
 * <state_dir>/BUSCONF_SOCKET; its path into ret_path. */
int busconf_write(const char *state_dir, char *ret_path, size_t size, struct error *err);

/* Removes what busconf_write made and the socket a killed bus left. */
void busconf_remove(const char *state_dir);

/* The D-Bus address form of a path: every byte outside [-0-9A-Za-z_/.\*] as %XX, which also
 * keeps it free of XML's special characters. -ENAMETOOLONG when it does not fit. */
int busconf_escape(const char *path, char *buf, size_t size);
