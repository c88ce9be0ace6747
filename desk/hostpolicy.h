/* The host's policy, /etc/botdesk/policy.conf: what an administrator lets each user's own
 * settings reach on a shared host. Root's file, checked the way the helper checks what it
 * trusts; a file anyone else could have written is ignored with a warning. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

#define HOSTPOLICY_PATH "/etc/botdesk/policy.conf"
/* Desktops one user may run at once when the policy does not say. */
#define HOSTPOLICY_DEFAULT_MAX_DESKTOPS 8
#define HOSTPOLICY_GROUP_MAX 64

struct hostpolicy {
	const char *path;  /* the file read (HOSTPOLICY_PATH) */
	bool loaded;       /* a trusted file was read (absent: defaults, not loaded) */
	char warning[768]; /* why the file was ignored, else "" */
	bool has_band;
	unsigned band_lo, band_hi;      /* display_band: the numbers users may be given */
	unsigned max_desktops;          /* max_desktops_per_user, default 8 */
	uint64_t min_free_mb;           /* min_free_mb: the lowest floor a user may set (0: none) */
	uint64_t max_idle_stop_minutes; /* max_idle_stop_minutes: the longest idle stop (0: none) */
	unsigned max_width, max_height; /* max_geometry (0: none) */
	char admin_group[HOSTPOLICY_GROUP_MAX + 1]; /* admin_group: may list every desktop ("") */
	/* honour_test_settings: the settings only tests need (a fake launcher, memory figures,
	 * lock places) are honoured for users under this policy too. Off: they are ignored. */
	bool honour_test_settings;
	char ignored[512]; /* which of them were ignored, with the warning's words, else "" */
};

/* The policy's text; path names the file in messages. -EINVAL with file:line in err. */
int hostpolicy_parse(const char *text, const char *path, struct hostpolicy *ret, struct error *err);

/* Reads path if it is trustworthy: a regular file owned by root, writable by nobody else, in
 * directories owned by root and writable by nobody else, opened without following a symbolic
 * link. An absent file gives the defaults. An untrustworthy one gives the defaults too, with
 * ret->warning saying why and what to do. A trusted file that does not parse is an error: the
 * administrator meant something, and guessing could lift a limit. */
int hostpolicy_load(const char *path, struct hostpolicy *ret, struct error *err);

struct settings;
/* Bounds the user's settings by the policy: a band set by the user is narrowed to the host's
 * (refused when none of it is inside), the default band becomes the host's; the floor is raised
 * to the host's; a geometry set by the user beyond the largest is refused, the default one is
 * shrunk to fit. */
int hostpolicy_apply(const struct hostpolicy *hp, struct settings *s, struct error *err);

/* Whether the caller may see every user's desktops: root, or a member of admin_group. */
bool hostpolicy_is_admin(const struct hostpolicy *hp);
