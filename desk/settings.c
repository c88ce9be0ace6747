#include "settings.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "envallow.h"
#include "kvfile.h"
#include "launcher.h"
#include "parse.h"
#include "profile.h"
#include "util.h"

/* A setting's environment name, its botdesk.conf key and its default (NULL: computed). */
struct setting_def {
	const char *env;
	const char *key;
	const char *def;
};

enum {
	S_LAUNCHER,
	S_X_LOCK_DIR,
	S_X_UNIX_TABLE,
	S_ALLOC_LOCK,
	S_DISPLAY_BAND,
	S_MIN_FREE_MB,
	S_MEMINFO,
	S_CGROUP_ROOT,
	S_GEOMETRY,
	S_HELPER,
	S_THUMBNAILER,
	S_BROWSER,
	S_PACKAGE_MANAGER,
	S_PASS_ENV,
	S_IDLE_STOP,
	S_VIEW_GROUP,
	S_VIEW_DIR,
	S_IMAGE_MARKER,
	S_MAX_MEMORY_MB,
	S_ACT,
	S_ACT_POINTER,
	S_MCP,
	S_WEB,
	S_WEB_DATA,
	S_NOVNC,
	S_LOG_TYPED_TEXT,
	S_COUNT,
};

static const struct setting_def defs[S_COUNT] = {
	[S_LAUNCHER] = {"BOTDESK_LAUNCHER", "launcher", NULL},
	[S_X_LOCK_DIR] = {LAUNCHER_ENV_X_DIR, "x_lock_dir", LAUNCHER_X_DIR_DEFAULT},
	[S_X_UNIX_TABLE] = {"BOTDESK_X_UNIX_TABLE", "x_unix_table", "/proc/net/unix"},
	[S_ALLOC_LOCK] = {"BOTDESK_ALLOC_LOCK", "alloc_lock", NULL},
	[S_DISPLAY_BAND] = {"BOTDESK_DISPLAY_BAND", "display_band", "20-89"},
	[S_MIN_FREE_MB] = {"BOTDESK_MIN_FREE_MB", "min_free_mb", "1536"},
	[S_MEMINFO] = {"BOTDESK_MEMINFO", "meminfo", "/proc/meminfo"},
	[S_CGROUP_ROOT] = {"BOTDESK_CGROUP_ROOT", "cgroup_root", "/sys/fs/cgroup"},
	[S_GEOMETRY] = {LAUNCHER_ENV_GEOMETRY, "geometry", LAUNCHER_DEFAULT_GEOMETRY},
	[S_HELPER] = {"BOTDESK_HELPER", "helper", BOTDESK_HELPER_PATH},
	[S_THUMBNAILER] = {"BOTDESK_THUMBNAILER", "thumbnailer", BOTDESK_THUMBNAILER_PATH},
	[S_BROWSER] = {"BOTDESK_BROWSER", "browser", NULL},
	[S_PACKAGE_MANAGER] = {"BOTDESK_PACKAGE_MANAGER", "package_manager", "auto"},
	[S_PASS_ENV] = {"BOTDESK_PASS_ENV", "pass_env", NULL},
	[S_IDLE_STOP] = {"BOTDESK_IDLE_STOP_MINUTES", "idle_stop_minutes", "30"},
	[S_VIEW_GROUP] = {"BOTDESK_VIEW_GROUP", "view_group", NULL},
	[S_VIEW_DIR] = {"BOTDESK_VIEW_DIR", "view_dir", NULL},
	[S_IMAGE_MARKER] = {"BOTDESK_IMAGE_MARKER", "image_marker", BOTDESK_IMAGE_MARKER_PATH},
	[S_MAX_MEMORY_MB] = {"BOTDESK_MAX_MEMORY_MB", "max_memory_mb", "0"},
	[S_ACT] = {"BOTDESK_ACT", "act", BOTDESK_ACT_PATH},
	[S_ACT_POINTER] = {"BOTDESK_ACT_POINTER", "act_pointer", BOTDESK_ACT_POINTER_PATH},
	[S_MCP] = {"BOTDESK_MCP", "mcp", BOTDESK_MCP_PATH},
	[S_WEB] = {"BOTDESK_WEB", "web", BOTDESK_WEB_PATH},
	[S_WEB_DATA] = {"BOTDESK_WEB_DATA", "web_data", BOTDESK_WEB_DATA_DIR},
	[S_NOVNC] = {"BOTDESK_NOVNC", "novnc", "/usr/share/novnc"},
	[S_LOG_TYPED_TEXT] = {"BOTDESK_LOG_TYPED_TEXT", "log_typed_text", "no"},
};

/* The largest display number we hand out: far below where X's TCP port arithmetic breaks. */
#define DISPLAY_MAX 32767
/* The longest idle stop, in thousandths of a minute: the session's bound. */
#define IDLE_STOP_MAX (LAUNCHER_IDLE_STOP_MAX_MS / 60)
static_assert(IDLE_STOP_MAX * 60 == LAUNCHER_IDLE_STOP_MAX_MS, "a whole number of milli-minutes");
/* The geometry's message names the bounds. */
static_assert(LAUNCHER_GEOMETRY_MIN == 64 && LAUNCHER_GEOMETRY_MAX == 8192,
	      "the geometry's message says 64 to 8192");
/* Below this a desktop cannot even bring up Xvnc and the window manager. */
#define MAX_MEMORY_MIN_MB 64

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

/* Where each value came from, so an error can point at botdesk.conf when that is the culprit. */
static const char *origin[S_COUNT];

struct config_read {
	const char *path;
	char **values;
};

/* One botdesk.conf line: its value is checked with the environment's, in validate(). */
static int config_set(void *ctx, const char *key, const char *value, const char **ret_want)
{
	struct config_read *c = ctx;
	(void)ret_want;
	int which = -1;
	for (int i = 0; i < S_COUNT; i++) {
		if (streq(key, defs[i].key)) {
			which = i;
		}
	}
	if (which < 0) {
		return -ENOENT;
	}
	free(c->values[which]);
	c->values[which] = strdup(value);
	origin[which] = c->path;
	return c->values[which] ? 0 : -ENOMEM;
}

/* Reads botdesk.conf into values[] (malloc'ed strings). An absent file is no error. */
static int read_config(const char *path, char *values[S_COUNT], struct error *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR) {
			return 0;
		}
		return error_set(err, negative_errno(), "cannot read %s: %s", path,
				 strerror(errno));
	}
	_cleanup_fclose_ FILE *f = fdopen(fd, "re");
	if (!f) {
		return -ENOMEM;
	}
	TAKE_FD(fd);
	struct config_read c = {.path = path, .values = values};
	return kvfile_read(f, path, "", config_set, &c, err);
}

static int setting_error(struct error *err, int which, const char *value, const char *what)
{
	if (origin[which]) {
		return error_set(err, -EINVAL, "%s: %s = '%s' is not valid: %s", origin[which],
				 defs[which].key, value, what);
	}
	return error_set(err, -EINVAL, "%s='%s' is not valid: %s", defs[which].env, value, what);
}

static int need_absolute(struct error *err, int which, const char *value)
{
	if (value[0] != '/') {
		return setting_error(err, which, value, "it must be an absolute path");
	}
	return 0;
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

static int resolve_paths(struct settings *s, struct error *err)
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

/* Whether the user's own settings are bound by the host's policy (see drop_test_settings). */
static bool policy_binds(const struct hostpolicy *hp)
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

/* The group that may watch, and the directory its members can reach the door through. */
static int validate_view(struct settings *s, char *values[S_COUNT], struct error *err)
{
	const char *g = values[S_VIEW_GROUP];
	const char *dir = values[S_VIEW_DIR];
	if (dir) {
		int r = need_absolute(err, S_VIEW_DIR, dir);
		if (r < 0) {
			return r;
		}
		s->view_dir = strdup(dir);
		if (!s->view_dir) {
			return -ENOMEM;
		}
	}
	if (!g) {
		return 0;
	}
	unsigned gid;
	struct group *gr = getgrnam(g);
	if (gr) {
		gid = (unsigned)gr->gr_gid;
	} else if (parse_uint_range(g, 0, 0x7fffffff, &gid) < 0) {
		return setting_error(err, S_VIEW_GROUP, g, "no such group");
	}
	if (gid == 0) {
		return setting_error(err, S_VIEW_GROUP, g,
				     "root's group may not be the view group");
	}
	/* The profile's directory is private (0700): a group can only reach a door elsewhere. */
	if (!dir) {
		return setting_error(
			err, S_VIEW_GROUP, g,
			"it needs BOTDESK_VIEW_DIR (view_dir): a directory of yours that the group can enter, where the view sockets go");
	}
	s->view_gid = gid;
	s->view_group = true;
	return 0;
}

/* The defaults filled in, and every path absolute. */
static int validate_paths(struct settings *s, char *values[S_COUNT], struct error *err)
{
	for (int i = 0; i < S_COUNT; i++) {
		if (!values[i] && defs[i].def) {
			values[i] = strdup(defs[i].def);
			if (!values[i]) {
				return -ENOMEM;
			}
		}
	}
	if (!values[S_ALLOC_LOCK]) {
		values[S_ALLOC_LOCK] =
			policy_binds(&s->policy) ? fixed_alloc_lock() : default_alloc_lock();
		if (!values[S_ALLOC_LOCK]) {
			return error_set(
				err, -ENOENT,
				"no place for the allocation lock: set XDG_RUNTIME_DIR, HOME or BOTDESK_ALLOC_LOCK");
		}
	}
	int r;
	if (values[S_LAUNCHER]) {
		if ((r = need_absolute(err, S_LAUNCHER, values[S_LAUNCHER])) < 0) {
			return r;
		}
	} else {
		values[S_LAUNCHER] = strdup(BOTDESK_SESSION_PATH);
		s->launcher_is_default = true;
	}
	static const int paths[] = {S_X_LOCK_DIR,  S_X_UNIX_TABLE, S_ALLOC_LOCK,  S_MEMINFO,
				    S_CGROUP_ROOT, S_HELPER,       S_THUMBNAILER, S_IMAGE_MARKER,
				    S_ACT,         S_ACT_POINTER,  S_MCP,         S_WEB,
				    S_WEB_DATA,    S_NOVNC};
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		if ((r = need_absolute(err, paths[i], values[paths[i]])) < 0) {
			return r;
		}
	}
	return 0;
}

static int validate_numbers(struct settings *s, char *values[S_COUNT], struct error *err)
{
	int r = parse_range(values[S_DISPLAY_BAND], DISPLAY_MAX, &s->band_lo, &s->band_hi);
	if (r < 0) {
		return setting_error(
			err, S_DISPLAY_BAND, values[S_DISPLAY_BAND],
			"expected FIRST-LAST, e.g. 20-89, with FIRST <= LAST <= 32767");
	}
	r = parse_u64(values[S_MIN_FREE_MB], 1024 * 1024 * 1024, &s->min_free_mb);
	if (r < 0) {
		return setting_error(err, S_MIN_FREE_MB, values[S_MIN_FREE_MB],
				     "expected a whole number of megabytes (0 disables the check)");
	}
	r = parse_geometry(values[S_GEOMETRY], LAUNCHER_GEOMETRY_MIN, LAUNCHER_GEOMETRY_MAX,
			   &s->width, &s->height);
	if (r < 0) {
		return setting_error(err, S_GEOMETRY, values[S_GEOMETRY],
				     "expected WIDTHxHEIGHT, each from 64 to 8192, e.g. 1440x900");
	}
	snprintf(s->geometry, sizeof(s->geometry), "%ux%u", s->width, s->height);
	r = parse_u64(values[S_MAX_MEMORY_MB], 1024 * 1024 * 1024, &s->max_memory_mb);
	if (r < 0 || (s->max_memory_mb > 0 && s->max_memory_mb < MAX_MEMORY_MIN_MB)) {
		return setting_error(
			err, S_MAX_MEMORY_MB, values[S_MAX_MEMORY_MB],
			"expected a whole number of megabytes, at least 64 (0: no limit)");
	}
	/* Minutes, with up to three decimals (a test's desktop stops after seconds). */
	uint64_t milli_minutes;
	r = parse_seconds_ms(values[S_IDLE_STOP], IDLE_STOP_MAX, &milli_minutes);
	if (r < 0) {
		return setting_error(
			err, S_IDLE_STOP, values[S_IDLE_STOP],
			"expected minutes up to a week, e.g. 30 or 0.5 (0 never stops an unused desktop)");
	}
	s->idle_stop_ms = milli_minutes * 60;
	return 0;
}

static int validate_words(struct settings *s, char *values[S_COUNT], struct error *err)
{
	const char *pm = values[S_PACKAGE_MANAGER];
	if (!streq(pm, "auto") && !streq(pm, "apt") && !streq(pm, "dnf") && !streq(pm, "pacman") &&
	    !streq(pm, "none")) {
		return setting_error(err, S_PACKAGE_MANAGER, pm,
				     "expected auto, apt, dnf, pacman or none");
	}
	if (values[S_BROWSER] && strpbrk(values[S_BROWSER], "\n\r\"'\\")) {
		return setting_error(err, S_BROWSER, values[S_BROWSER],
				     "it may not hold quotes, backslashes or line breaks");
	}
	char bad[128], why[256];
	if (values[S_PASS_ENV] && envallow_check_list(values[S_PASS_ENV], bad, sizeof(bad)) < 0) {
		snprintf(
			why, sizeof(why),
			"expected variable names separated by commas, e.g. HTTPS_PROXY,NO_PROXY (not '%s')",
			bad);
		return setting_error(err, S_PASS_ENV, values[S_PASS_ENV], why);
	}
	/* Off by default: what an agent types is often a password. */
	const char *lt = values[S_LOG_TYPED_TEXT];
	if (streq(lt, "yes") || streq(lt, "true") || streq(lt, "1")) {
		s->log_typed_text = true;
	} else if (!streq(lt, "no") && !streq(lt, "false") && !streq(lt, "0")) {
		return setting_error(err, S_LOG_TYPED_TEXT, lt, "expected yes or no");
	}
	return 0;
}

/* The checked strings move into the settings. */
static int take_values(struct settings *s, char *values[S_COUNT])
{
	s->pass_env = TAKE_PTR(values[S_PASS_ENV]);
	s->launcher = TAKE_PTR(values[S_LAUNCHER]);
	s->x_lock_dir = TAKE_PTR(values[S_X_LOCK_DIR]);
	s->x_unix_table = TAKE_PTR(values[S_X_UNIX_TABLE]);
	s->alloc_lock = TAKE_PTR(values[S_ALLOC_LOCK]);
	s->meminfo = TAKE_PTR(values[S_MEMINFO]);
	s->cgroup_root = TAKE_PTR(values[S_CGROUP_ROOT]);
	s->helper = TAKE_PTR(values[S_HELPER]);
	s->thumbnailer = TAKE_PTR(values[S_THUMBNAILER]);
	s->browser = TAKE_PTR(values[S_BROWSER]);
	s->package_manager = TAKE_PTR(values[S_PACKAGE_MANAGER]);
	s->image_marker = TAKE_PTR(values[S_IMAGE_MARKER]);
	s->act = TAKE_PTR(values[S_ACT]);
	s->act_pointer = TAKE_PTR(values[S_ACT_POINTER]);
	s->mcp = TAKE_PTR(values[S_MCP]);
	s->web = TAKE_PTR(values[S_WEB]);
	s->web_data = TAKE_PTR(values[S_WEB_DATA]);
	s->novnc = TAKE_PTR(values[S_NOVNC]);
	const char *path = getenv("PATH");
	s->search_path = strdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
	return !s->launcher || !s->search_path ? -ENOMEM : 0;
}

static int validate(struct settings *s, char *values[S_COUNT], struct error *err)
{
	s->band_explicit = values[S_DISPLAY_BAND] != NULL;
	s->geometry_explicit = values[S_GEOMETRY] != NULL;
	int r;
	if ((r = validate_paths(s, values, err)) < 0 ||
	    (r = validate_numbers(s, values, err)) < 0 ||
	    (r = validate_words(s, values, err)) < 0 || (r = validate_view(s, values, err)) < 0) {
		return r;
	}
	return take_values(s, values);
}

/* The settings only tests need: each one let a user step around the host's policy (a fake
 * meminfo or cgroup tree passed min_free_mb, a lock or X directory of their own raced past
 * max_desktops_per_user, a wrapper launcher rewrote the geometry past max_geometry). */
static const int test_only[] = {S_LAUNCHER,   S_MEMINFO,    S_CGROUP_ROOT,
				S_ALLOC_LOCK, S_X_LOCK_DIR, S_X_UNIX_TABLE};

/* Under a host policy, a user's test settings are ignored with a warning, unless the policy
 * says honour_test_settings = yes. Root is bound by nothing here anyway. */
static int drop_test_settings(struct hostpolicy *hp, char *values[S_COUNT])
{
	if (!policy_binds(hp)) {
		return 0;
	}
	char names[256] = "";
	size_t len = 0;
	for (size_t i = 0; i < ARRAY_SIZE(test_only); i++) {
		int w = test_only[i];
		if (!values[w]) {
			continue;
		}
		const char *name = origin[w] ? defs[w].key : defs[w].env;
		int n = snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "", name);
		if (n > 0 && (size_t)n < sizeof(names) - len) {
			len += (size_t)n;
		}
		free(values[w]);
		values[w] = NULL;
		origin[w] = NULL;
	}
	if (len) {
		snprintf(
			hp->ignored, sizeof(hp->ignored),
			"ignoring %s: settings for tests only, which the host's policy (%s) does not honour for users; unset them, or ask the administrator for honour_test_settings = yes there",
			names, hp->path);
	}
	return 0;
}

int settings_load(struct settings *ret, struct error *err)
{
	struct settings s = {0};
	char *values[S_COUNT] = {0};
	int r = resolve_paths(&s, err);
	if (r == 0) {
		r = read_config(s.config_file, values, err);
	}
	if (r == 0) {
		/* The environment wins over the file. */
		for (int i = 0; i < S_COUNT; i++) {
			const char *v = getenv(defs[i].env);
			if (v) {
				origin[i] = NULL;
				free(values[i]);
				values[i] = strdup(v);
				if (!values[i]) {
					r = -ENOMEM;
					break;
				}
				if (!*v) {
					r = setting_error(err, i, v, "it is empty");
					break;
				}
			}
		}
	}
	if (r == 0) {
		r = hostpolicy_load(HOSTPOLICY_PATH, &s.policy, err);
	}
	if (r == 0) {
		r = drop_test_settings(&s.policy, values);
	}
	if (r == 0) {
		r = validate(&s, values, err);
	}
	/* The host's limits last: they bound whatever the user asked for. */
	if (r == 0) {
		r = hostpolicy_apply(&s.policy, &s, err);
	}
	for (int i = 0; i < S_COUNT; i++) {
		free(values[i]);
		origin[i] = NULL;
	}
	if (r < 0) {
		settings_free(&s);
		return r;
	}
	*ret = s;
	return 0;
}

void settings_free(struct settings *s)
{
	free(s->state_root);
	free(s->config_file);
	free(s->launcher);
	free(s->x_lock_dir);
	free(s->x_unix_table);
	free(s->alloc_lock);
	free(s->meminfo);
	free(s->cgroup_root);
	free(s->helper);
	free(s->thumbnailer);
	free(s->browser);
	free(s->pass_env);
	free(s->package_manager);
	free(s->image_marker);
	free(s->act);
	free(s->act_pointer);
	free(s->mcp);
	free(s->web);
	free(s->web_data);
	free(s->novnc);
	free(s->search_path);
	free(s->view_dir);
	*s = (struct settings){0};
}
