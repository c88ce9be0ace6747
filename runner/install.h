/* What it takes to get the desktop's packages onto this host, and doing it through the helper.
 * The runner's side of the privilege boundary: it never installs anything itself. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "policy.h"
#include "settings.h"

enum install_verdict {
	INSTALL_NO_MANAGER, /* no apt-get/dnf: the distro's own tools, no word of sudo or privilege
			     */
	INSTALL_CAN_RUN, /* root, or the setuid helper will act for us: `botdesk install` works */
	INSTALL_BAKE_IMAGE, /* no route to root (no_new_privs, nosuid mount, container) */
	INSTALL_ASK_ADMIN, /* not allowed to use the helper (not in group botdesk, or not setuid) */
};

struct install_decision {
	enum install_verdict verdict;
	enum policy_manager manager; /* meaningful unless INSTALL_NO_MANAGER */
	/* The exact root command that installs the packages, e.g.
	 * "apt-get install -y --no-install-recommends tigervnc-standalone-server ..."; empty for
	 * INSTALL_NO_MANAGER. */
	char command[1024];
	/* One paragraph for the user: the truth about who must do what, naming the command, the
	 * packages, the Dockerfile line or the group, as the verdict requires. No trailing newline.
	 */
	char message[2048];
};

/* Decides without installing anything. missing lists the required programs that are absent
 * (NULL-terminated, may be empty), so the message can name them. */
int install_decide(const struct settings *s, const char *const *missing,
		   struct install_decision *ret, struct error *err);

/* `botdesk install [--dry-run]`: decides, then (unless dry_run) runs the install through the
 * helper, relaying its output to out. Returns 0 when the packages are installed (or, for a dry
 * run, when an install could run), else -errno with err saying why and what to do next. */
int install_run(const struct settings *s, bool dry_run, FILE *out, struct error *err);
