/* PLACEHOLDER until the helper lands (issue 3): the runner-only decisions of the runner core.
 * The helper's author replaces this file. */
#include "install.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static bool manager_from(const struct settings *s, enum policy_manager *ret)
{
	const char *pm = s->package_manager;
	if (streq(pm, "none")) {
		return false;
	}
	if (streq(pm, "apt") || (streq(pm, "auto") && access("/usr/bin/apt-get", X_OK) == 0)) {
		*ret = POLICY_APT;
	} else if (streq(pm, "dnf") || (streq(pm, "auto") && access("/usr/bin/dnf", X_OK) == 0)) {
		*ret = POLICY_DNF;
	} else if (streq(pm, "pacman") ||
		   (streq(pm, "auto") && access("/usr/bin/pacman", X_OK) == 0)) {
		*ret = POLICY_PACMAN;
	} else {
		return false;
	}
	return true;
}

int install_decide(const struct settings *s, const char *const *missing,
		   struct install_decision *ret, struct error *err)
{
	struct install_decision d = {0};
	char names[512] = "";
	for (size_t i = 0; missing && missing[i]; i++) {
		size_t n = strlen(names);
		snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "", missing[i]);
	}
	if (!manager_from(s, &d.manager)) {
		d.verdict = INSTALL_NO_MANAGER;
		snprintf(d.message, sizeof(d.message),
			 "the desktop programs %s are missing and no supported package manager "
			 "(apt or dnf) was found: install them with your distribution's own tools",
			 names);
		*ret = d;
		return 0;
	}
	static const char *const prefix[] = {"apt-get install -y --no-install-recommends",
					     "dnf install -y", "pacman -S --needed --noconfirm"};
	size_t n = (size_t)snprintf(d.command, sizeof(d.command), "%s", prefix[d.manager]);
	for (const char *const *p = policy_packages[d.manager]; *p; p++) {
		n += (size_t)snprintf(d.command + n, sizeof(d.command) - n, " %s", *p);
	}
	if (geteuid() == 0) {
		d.verdict = INSTALL_CAN_RUN;
		snprintf(d.message, sizeof(d.message),
			 "the desktop programs %s are missing: install them with '%s' (or 'botdesk "
			 "install')",
			 names, d.command);
	} else {
		d.verdict = INSTALL_BAKE_IMAGE;
		snprintf(d.message, sizeof(d.message),
			 "the desktop programs %s are missing and this user cannot install them: "
			 "they must be baked into the image (RUN %s)",
			 names, d.command);
	}
	*ret = d;
	(void)err;
	return 0;
}

int install_run(const struct settings *s, bool dry_run, FILE *out, struct error *err)
{
	return error_set(err, -ENOTSUP, "install arrives with the helper");
}
