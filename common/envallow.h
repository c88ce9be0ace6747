/* Which of the caller's environment variables reach a desktop. An allowlist: a fixed set of
 * benign variables (locale, time zone, the user's identity and shell, PATH, the XDG search
 * paths) plus the names the user passes on purpose (BOTDESK_PASS_ENV / pass_env). Everything
 * else, such as tokens, passwords, database URLs and agent sockets, never reaches Xvnc, the bus
 * or any desktop program: a denylist cannot know every name a secret goes by. Shared by the
 * runner (the launcher's environment) and the session (its children's). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The most names a pass list may hold, and the longest list. */
#define ENVALLOW_PASS_MAX 64
#define ENVALLOW_PASS_LIST_MAX 2048

/* Whether "NAME=value" may reach the desktop: NAME is on the fixed list, or named in pass (a
 * comma-separated list of names, may be NULL). */
bool envallow_keep(const char *entry, const char *pass);

/* Whether the name of "NAME=value" is one of names[]. */
bool envallow_name_in(const char *entry, const char *const *names, size_t n);

/* Whether "NAME=value" is one the desktop sets itself (DISPLAY, XAUTHORITY, WAYLAND_DISPLAY,
 * DBUS_SESSION_BUS_ADDRESS, SESSION_MANAGER): dropped by the runner and the session alike, even
 * when the user names it, since a caller's value would point the desktop's programs at somebody
 * else's display, bus or session. */
bool envallow_is_desktop_own(const char *entry);

/* Checks a pass list: names of [A-Za-z_][A-Za-z0-9_]* separated by commas (blanks around them
 * allowed), at most ENVALLOW_PASS_MAX. 0, or -EINVAL with the offending name in bad[]. */
int envallow_check_list(const char *pass, char *bad, size_t bad_size);
