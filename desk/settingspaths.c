#include "settingsdef.h"

#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profile.h"
#include "util.h"

static char *xasprintf(const char *fmt, ...) _printf_(1, 2);
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0) {
		s = NULL;
	}
	va_end(ap);
	return s;
}

static const char *nonempty_env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static const char *home_dir(void)
{
	const char *h = nonempty_env("HOME");
	if (h) {
		return h;
	}
	struct passwd *pw = getpwuid(getuid());
	return pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
}

/* XDG base directories must be absolute; a relative one is ignored, as the spec says. */
static const char *xdg_dir(const char *name)
{
	const char *v = nonempty_env(name);
	return v && v[0] == '/' ? v : NULL;
}

/* Whether dir is one of the XDG homes a botdesk desktop gives its programs: the profile's
 * "xdg" directory (XDG_CONFIG_HOME) or one below it (XDG_CACHE_HOME is xdg/.cache), in a
 * profile's state directory (which holds the profile's start.lock). A shell can inherit them (a
 * terminal on the desktop, `botdesk exec -- bash`, or an eval of every line of `botdesk env`);
 * botdesk run from there must still read the user's botdesk.conf, not the desktop's, and take
 * the user's allocation lock, not one of its own. */
static bool is_desktop_xdg_home(const char *dir, const char *below)
{
	_cleanup_free_ char *copy = strdup(dir);
	if (!copy) {
		return false;
	}
	size_t n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/') {
		copy[--n] = '\0';
	}
	if (below) {
		size_t b = strlen(below);
		if (n <= b + 1 || copy[n - b - 1] != '/' || !streq(copy + n - b, below)) {
			return false;
		}
		copy[n - b - 1] = '\0';
	}
	char *slash = strrchr(copy, '/');
	if (!slash || !streq(slash + 1, STATE_XDG)) {
		return false;
	}
	*slash = '\0';
	_cleanup_close_ int fd =
		open(*copy ? copy : "/", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	return fd >= 0 && fstatat(fd, STATE_START_LOCK, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       S_ISREG(st.st_mode);
}

int settings_resolve_paths(struct settings *s, struct error *err)
{
	const char *home = home_dir();
	const char *v = nonempty_env("BOTDESK_STATE_DIR");
	const char *xdg = xdg_dir("XDG_STATE_HOME");
	if (v) {
		if (v[0] != '/') {
			return error_set(
				err, -EINVAL,
				"BOTDESK_STATE_DIR='%s' is not valid: it must be an absolute path",
				v);
		}
		s->state_root = strdup(v);
	} else if (xdg) {
		s->state_root = xasprintf("%s/botdesk", xdg);
	} else if (home) {
		s->state_root = xasprintf("%s/.local/state/botdesk", home);
	} else {
		return error_set(
			err, -ENOENT,
			"no home directory: set HOME or BOTDESK_STATE_DIR to where botdesk may keep its state");
	}
	xdg = xdg_dir("XDG_CONFIG_HOME");
	if (xdg && is_desktop_xdg_home(xdg, NULL)) {
		/* botdesk's own settings are the user's, never a desktop's. */
		xdg = NULL;
	}
	if (xdg) {
		s->config_file = xasprintf("%s/botdesk/botdesk.conf", xdg);
	} else if (home) {
		s->config_file = xasprintf("%s/.config/botdesk/botdesk.conf", home);
	} else {
		s->config_file = strdup("/nonexistent/botdesk.conf");
	}
	if (!s->state_root || !s->config_file) {
		return -ENOMEM;
	}
	return 0;
}

bool settings_policy_binds(const struct hostpolicy *hp)
{
	return hp->loaded && !hp->honour_test_settings && geteuid() != 0;
}

/* Under a policy, one lock per uid whatever the environment says: a lock of one's own choosing
 * (another XDG_RUNTIME_DIR or HOME) let parallel starts race past max_desktops_per_user. */
static char *fixed_alloc_lock(void)
{
	char rt[64];
	snprintf(rt, sizeof(rt), "/run/user/%u", (unsigned)geteuid());
	struct stat st;
	if (lstat(rt, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	    (st.st_mode & 077) == 0) {
		return xasprintf("%s/botdesk-alloc.lock", rt);
	}
	struct passwd *pw = getpwuid(geteuid());
	if (pw && pw->pw_dir && pw->pw_dir[0] == '/') {
		return xasprintf("%s/.cache/botdesk/alloc.lock", pw->pw_dir);
	}
	return NULL;
}

static char *default_alloc_lock(void)
{
	/* Never a world-writable directory: another user could squat the name and stall us. */
	const char *rt = xdg_dir("XDG_RUNTIME_DIR");
	if (rt) {
		return xasprintf("%s/botdesk-alloc.lock", rt);
	}
	const char *cache = xdg_dir("XDG_CACHE_HOME");
	if (cache && !is_desktop_xdg_home(cache, ".cache")) {
		return xasprintf("%s/botdesk/alloc.lock", cache);
	}
	const char *home = home_dir();
	if (home) {
		return xasprintf("%s/.cache/botdesk/alloc.lock", home);
	}
	return NULL;
}

char *settings_alloc_lock(bool bound)
{
	return bound ? fixed_alloc_lock() : default_alloc_lock();
}
