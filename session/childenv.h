/* The environment of the desktop's programs, and the env file that publishes it to agents. */
#pragma once

#include <stddef.h>

#include "strv.h"

struct desktop_vars {
	const char *display; /* ":21" */
	const char *xauthority;
	const char *dbus;        /* the session bus address; NULL before the bus exists */
	const char *config_home; /* XDG_CONFIG_HOME and its siblings */
	const char *cache_home;
	const char *data_home;
	const char
		*pass; /* BOTDESK_PASS_ENV: names passed on beyond the fixed allowlist, or NULL */
};

/* From base (the session's own environment) only the allowlist (common/envallow.h) and the
 * names in v->pass, never what belongs to another desktop, another bus or the launcher contract;
 * plus the desktop's variables and the settings an Xfce session without a
 * session manager needs: X11 backends, no accessibility bus, a UTF-8 locale when none is set. */
int childenv_build(char *const *base, const struct desktop_vars *v, struct strv *ret);

/* The env file's text: KEY=VALUE lines for DISPLAY, XAUTHORITY, DBUS_SESSION_BUS_ADDRESS and
 * the XDG homes. -EINVAL when a value would not fit on one line. */
int childenv_format_file(const struct desktop_vars *v, char **ret, size_t *ret_len);

/* Publishes text at path atomically, mode 0600. */
int childenv_publish(const char *path, const char *text, size_t len);
