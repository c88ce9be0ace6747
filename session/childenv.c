#include "childenv.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envallow.h"
#include "fileio.h"
#include "memout.h"
#include "util.h"

/* Beyond what the desktop sets itself (common/envallow.h), names that point at somebody else's
 * desktop, session or socket activation: dropped even when the user names them in
 * BOTDESK_PASS_ENV. */
static const char *const dropped[] = {
	"LISTEN_FDS",
	"LISTEN_PID",
	"LISTEN_FDNAMES",
	"NOTIFY_SOCKET",
	"XDG_CONFIG_HOME",
	"XDG_CACHE_HOME",
	"XDG_DATA_HOME",
	"XDG_SESSION_TYPE",
	"XDG_SESSION_ID",
	"XDG_SESSION_DESKTOP",
	"XDG_CURRENT_DESKTOP",
	"XDG_SEAT",
	"XDG_VTNR",
	"DESKTOP_SESSION",
	"GDK_BACKEND",
	"QT_QPA_PLATFORM",
	"NO_AT_BRIDGE",
	"GTK_A11Y",
	"GDK_GL",
};

static bool is_dropped(const char *entry, const char *pass)
{
	return startswith(entry, "BOTDESK_") || !envallow_keep(entry, pass) ||
	       envallow_is_desktop_own(entry) ||
	       envallow_name_in(entry, dropped, ARRAY_SIZE(dropped));
}

struct var {
	const char *key, *value;
};

/* The variables the env file publishes; the desktop's own programs get them too. */
#define PUBLISHED_COUNT 9
static void published(const struct desktop_vars *v, struct var out[PUBLISHED_COUNT])
{
	out[0] = (struct var){"DISPLAY", v->display};
	out[1] = (struct var){"XAUTHORITY", v->xauthority};
	out[2] = (struct var){"DBUS_SESSION_BUS_ADDRESS", v->dbus};
	out[3] = (struct var){"XDG_CONFIG_HOME", v->config_home};
	out[4] = (struct var){"XDG_CACHE_HOME", v->cache_home};
	out[5] = (struct var){"XDG_DATA_HOME", v->data_home};
	/* Accessibility on (docs/session.md): Chromium (with its flag, data/chromium.d) and Qt
	 * publish their tree over AT-SPI only when told an assistive technology is there, Firefox
	 * by the second name (Firefox and Qt are not tested here). GTK does by
	 * default, once NO_AT_BRIDGE (dropped above) is not set. */
	out[6] = (struct var){"ACCESSIBILITY_ENABLED", "1"};
	out[7] = (struct var){"GNOME_ACCESSIBILITY", "1"};
	out[8] = (struct var){"QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1"};
}

int childenv_build(char *const *base, const struct desktop_vars *v, struct strv *ret)
{
	struct strv e = {0};
	int r = 0;
	bool has_locale = false;
	for (size_t i = 0; base && base[i] && r == 0; i++) {
		if (!strchr(base[i], '=') || is_dropped(base[i], v->pass)) {
			continue;
		}
		has_locale = has_locale || startswith(base[i], "LANG=") ||
			     startswith(base[i], "LC_ALL=");
		r = strv_push(&e, base[i]);
	}
	struct var pub[PUBLISHED_COUNT];
	published(v, pub);
	for (size_t i = 0; i < PUBLISHED_COUNT && r == 0; i++) {
		if (pub[i].value) {
			r = strv_pushf(&e, "%s=%s", pub[i].key, pub[i].value);
		}
	}
	const struct var set[] = {
		{"XDG_SESSION_TYPE", "x11"},
		{"XDG_CURRENT_DESKTOP", "XFCE"},
		{"GDK_BACKEND", "x11"},
		{"QT_QPA_PLATFORM", "xcb"},
		/* GTK would set up OpenGL at start-up just to pick a visual, loading Mesa and LLVM
		 * into every Xfce process: about 25 MiB of each one's memory and time off the
		 * start. Programs that want OpenGL still get GLX from Xvnc. */
		{"GDK_GL", "disable"},
		{"LANG", has_locale ? NULL : "C.UTF-8"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(set) && r == 0; i++) {
		if (set[i].value) {
			r = strv_pushf(&e, "%s=%s", set[i].key, set[i].value);
		}
	}
	if (r < 0) {
		strv_free(&e);
		return r;
	}
	*ret = e;
	return 0;
}

static bool one_line(const char *s)
{
	return s && !strpbrk(s, "\n\r");
}

/* The env file's lines; ctx is the PUBLISHED_COUNT variables. */
static int print_vars(FILE *f, void *ctx)
{
	const struct var *vars = ctx;
	for (size_t i = 0; i < PUBLISHED_COUNT; i++) {
		fprintf(f, "%s=%s\n", vars[i].key, vars[i].value);
	}
	return 0;
}

int childenv_format_file(const struct desktop_vars *v, char **ret, size_t *ret_len)
{
	struct var vars[PUBLISHED_COUNT];
	published(v, vars);
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		if (!one_line(vars[i].value)) {
			return -EINVAL;
		}
	}
	size_t len;
	char *text = memout_len(print_vars, vars, &len);
	if (!text) {
		return negative_errno();
	}
	*ret = text;
	*ret_len = len;
	return 0;
}

int childenv_publish(const char *path, const char *text, size_t len)
{
	return write_file_atomic(path, text, len, 0600);
}
