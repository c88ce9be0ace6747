#include "settings.h"

#include <fcntl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "parse.h"
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
	S_ACT,
	S_MCP,
	S_LOG_TYPED_TEXT,
	S_COUNT,
};

static const struct setting_def defs[S_COUNT] = {
	[S_LAUNCHER] = {"BOTDESK_LAUNCHER", "launcher", NULL},
	[S_X_LOCK_DIR] = {"BOTDESK_X_LOCK_DIR", "x_lock_dir", "/tmp"},
	[S_X_UNIX_TABLE] = {"BOTDESK_X_UNIX_TABLE", "x_unix_table", "/proc/net/unix"},
	[S_ALLOC_LOCK] = {"BOTDESK_ALLOC_LOCK", "alloc_lock", NULL},
	[S_DISPLAY_BAND] = {"BOTDESK_DISPLAY_BAND", "display_band", "20-89"},
	[S_MIN_FREE_MB] = {"BOTDESK_MIN_FREE_MB", "min_free_mb", "1536"},
	[S_MEMINFO] = {"BOTDESK_MEMINFO", "meminfo", "/proc/meminfo"},
	[S_CGROUP_ROOT] = {"BOTDESK_CGROUP_ROOT", "cgroup_root", "/sys/fs/cgroup"},
	[S_GEOMETRY] = {"BOTDESK_GEOMETRY", "geometry", "1440x900"},
	[S_HELPER] = {"BOTDESK_HELPER", "helper", BOTDESK_HELPER_PATH},
	[S_THUMBNAILER] = {"BOTDESK_THUMBNAILER", "thumbnailer", BOTDESK_THUMBNAILER_PATH},
	[S_BROWSER] = {"BOTDESK_BROWSER", "browser", NULL},
	[S_PACKAGE_MANAGER] = {"BOTDESK_PACKAGE_MANAGER", "package_manager", "auto"},
	[S_ACT] = {"BOTDESK_ACT", "act", BOTDESK_ACT_PATH},
	[S_MCP] = {"BOTDESK_MCP", "mcp", BOTDESK_MCP_PATH},
	[S_LOG_TYPED_TEXT] = {"BOTDESK_LOG_TYPED_TEXT", "log_typed_text", "no"},
};

/* The largest display number we hand out: far below where X's TCP port arithmetic breaks. */
#define DISPLAY_MAX 32767
#define GEOMETRY_MIN 64
#define GEOMETRY_MAX 8192

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

static void trim(char **s)
{
	char *p = *s;
	while (*p == ' ' || *p == '\t') {
		p++;
	}
	size_t n = strlen(p);
	while (n > 0 &&
	       (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r' || p[n - 1] == '\n')) {
		p[--n] = '\0';
	}
	*s = p;
}

/* Where each value came from, so an error can point at botdesk.conf when that is the culprit. */
static const char *origin[S_COUNT];

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
	FILE *f = fdopen(fd, "re");
	if (!f) {
		return -ENOMEM;
	}
	TAKE_FD(fd);
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int r = 0;
	while (getline(&line, &cap, f) >= 0) {
		lineno++;
		char *p = line;
		trim(&p);
		if (*p == '\0' || *p == '#') {
			continue;
		}
		char *eq = strchr(p, '=');
		if (!eq) {
			r = error_set(err, -EINVAL, "%s:%u: expected 'key = value'", path, lineno);
			break;
		}
		*eq = '\0';
		char *key = p, *value = eq + 1;
		trim(&key);
		trim(&value);
		int which = -1;
		for (int i = 0; i < S_COUNT; i++) {
			if (streq(key, defs[i].key)) {
				which = i;
			}
		}
		if (which < 0) {
			r = error_set(err, -EINVAL, "%s:%u: unknown setting '%s'", path, lineno,
				      key);
			break;
		}
		free(values[which]);
		values[which] = strdup(value);
		origin[which] = path;
		if (!values[which]) {
			r = -ENOMEM;
			break;
		}
	}
	free(line);
	fclose(f);
	return r;
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
			"no home directory: set HOME or BOTDESK_STATE_DIR to where botdesk may "
			"keep its state");
	}
	xdg = xdg_dir("XDG_CONFIG_HOME");
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

static char *default_alloc_lock(void)
{
	/* Never a world-writable directory: another user could squat the name and stall us. */
	const char *rt = xdg_dir("XDG_RUNTIME_DIR");
	if (rt) {
		return xasprintf("%s/botdesk-alloc.lock", rt);
	}
	const char *cache = xdg_dir("XDG_CACHE_HOME");
	if (cache) {
		return xasprintf("%s/botdesk/alloc.lock", cache);
	}
	const char *home = home_dir();
	if (home) {
		return xasprintf("%s/.cache/botdesk/alloc.lock", home);
	}
	return NULL;
}

static int validate(struct settings *s, char *values[S_COUNT], struct error *err)
{
	int r;
	for (int i = 0; i < S_COUNT; i++) {
		if (!values[i] && defs[i].def) {
			values[i] = strdup(defs[i].def);
			if (!values[i]) {
				return -ENOMEM;
			}
		}
	}
	if (!values[S_ALLOC_LOCK]) {
		values[S_ALLOC_LOCK] = default_alloc_lock();
		if (!values[S_ALLOC_LOCK]) {
			return error_set(
				err, -ENOENT,
				"no place for the allocation lock: set XDG_RUNTIME_DIR, HOME "
				"or BOTDESK_ALLOC_LOCK");
		}
	}
	if (values[S_LAUNCHER]) {
		if ((r = need_absolute(err, S_LAUNCHER, values[S_LAUNCHER])) < 0) {
			return r;
		}
	} else {
		values[S_LAUNCHER] = strdup(BOTDESK_SESSION_PATH);
		s->launcher_is_default = true;
	}
	static const int paths[] = {S_X_LOCK_DIR,  S_X_UNIX_TABLE, S_ALLOC_LOCK,
				    S_MEMINFO,     S_CGROUP_ROOT,  S_HELPER,
				    S_THUMBNAILER, S_ACT,          S_MCP};
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		if ((r = need_absolute(err, paths[i], values[paths[i]])) < 0) {
			return r;
		}
	}
	r = parse_range(values[S_DISPLAY_BAND], DISPLAY_MAX, &s->band_lo, &s->band_hi);
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
	r = parse_geometry(values[S_GEOMETRY], GEOMETRY_MIN, GEOMETRY_MAX, &s->width, &s->height);
	if (r < 0) {
		return setting_error(err, S_GEOMETRY, values[S_GEOMETRY],
				     "expected WIDTHxHEIGHT, each from 64 to 8192, e.g. 1440x900");
	}
	snprintf(s->geometry, sizeof(s->geometry), "%ux%u", s->width, s->height);
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
	/* Off by default: what an agent types is often a password. */
	const char *lt = values[S_LOG_TYPED_TEXT];
	if (streq(lt, "yes") || streq(lt, "true") || streq(lt, "1")) {
		s->log_typed_text = true;
	} else if (!streq(lt, "no") && !streq(lt, "false") && !streq(lt, "0")) {
		return setting_error(err, S_LOG_TYPED_TEXT, lt, "expected yes or no");
	}
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
	s->act = TAKE_PTR(values[S_ACT]);
	s->mcp = TAKE_PTR(values[S_MCP]);
	const char *path = getenv("PATH");
	s->search_path = strdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
	if (!s->launcher || !s->search_path) {
		return -ENOMEM;
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
		r = validate(&s, values, err);
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
	free(s->package_manager);
	free(s->act);
	free(s->mcp);
	free(s->search_path);
	*s = (struct settings){0};
}
