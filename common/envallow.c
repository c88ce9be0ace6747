#include "envallow.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

/* Documented in docs/CLI.md ("The desktop's environment"): keep the two in step. */
static const char *const kept[] = {
	"HOME",     "USER", "LOGNAME", "SHELL",           "PATH",          "LANG",
	"LANGUAGE", "TZ",   "TMPDIR",  "XDG_RUNTIME_DIR", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS",
};

static bool name_char(char c, bool first)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (!first && c >= '0' && c <= '9');
}

/* Whether the name of len bytes at name is one of the comma-separated names in list. */
static bool in_list(const char *name, size_t len, const char *list)
{
	if (!list) {
		return false;
	}
	for (const char *p = list; *p;) {
		while (*p == ',' || *p == ' ' || *p == '\t') {
			p++;
		}
		size_t n = 0;
		while (p[n] && name_char(p[n], n == 0)) {
			n++;
		}
		if (n == len && n > 0 && strncmp(p, name, len) == 0) {
			return true;
		}
		p += n;
		/* Skip anything that is no name; envallow_check_list refuses such lists. */
		while (*p && *p != ',') {
			p++;
		}
	}
	return false;
}

/* Kept in step with envallow_is_desktop_own's comment in envallow.h. */
static const char *const desktop_own[] = {
	"DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "SESSION_MANAGER",
};

bool envallow_name_in(const char *entry, const char *const *names, size_t n)
{
	const char *eq = strchr(entry, '=');
	if (!eq) {
		return false;
	}
	size_t len = (size_t)(eq - entry);
	for (size_t i = 0; i < n; i++) {
		if (strlen(names[i]) == len && strncmp(entry, names[i], len) == 0) {
			return true;
		}
	}
	return false;
}

bool envallow_is_desktop_own(const char *entry)
{
	return envallow_name_in(entry, desktop_own, ARRAY_SIZE(desktop_own));
}

bool envallow_keep(const char *entry, const char *pass)
{
	const char *eq = strchr(entry, '=');
	if (!eq || eq == entry) {
		return false;
	}
	size_t len = (size_t)(eq - entry);
	/* Every locale category, LC_ALL included. */
	if (len > 3 && strncmp(entry, "LC_", 3) == 0) {
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(kept); i++) {
		if (strlen(kept[i]) == len && strncmp(entry, kept[i], len) == 0) {
			return true;
		}
	}
	return in_list(entry, len, pass);
}

int envallow_check_list(const char *pass, char *bad, size_t bad_size)
{
	if (strlen(pass) > ENVALLOW_PASS_LIST_MAX) {
		snprintf(bad, bad_size, "(a list of more than %d bytes)", ENVALLOW_PASS_LIST_MAX);
		return -EINVAL;
	}
	size_t names = 0;
	for (const char *p = pass; *p;) {
		while (*p == ',' || *p == ' ' || *p == '\t') {
			p++;
		}
		if (!*p) {
			break;
		}
		size_t n = strcspn(p, ", \t");
		for (size_t i = 0; i < n; i++) {
			if (!name_char(p[i], i == 0)) {
				snprintf(bad, bad_size, "%.*s", (int)n, p);
				return -EINVAL;
			}
		}
		if (++names > ENVALLOW_PASS_MAX) {
			snprintf(bad, bad_size, "(more than %d names)", ENVALLOW_PASS_MAX);
			return -EINVAL;
		}
		p += n;
	}
	return 0;
}
