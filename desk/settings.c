#include "settings.h"
#include "settingsdef.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "kvfile.h"
#include "launcher.h"
#include "recording.h"
#include "util.h"

const struct setting_def settings_defs[S_COUNT] = {
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
	[S_FC_LIST] = {"BOTDESK_FC_LIST", "fc_list", "/usr/bin/fc-list"},
	[S_LOG_TYPED_TEXT] = {"BOTDESK_LOG_TYPED_TEXT", "log_typed_text", "no"},
	[S_COMPUTER_SCREENSHOTS] = {"BOTDESK_COMPUTER_SCREENSHOTS", "computer_screenshots", "no"},
	/* The flight recorder (issue 28). */
	[S_RECORD] = {LAUNCHER_ENV_RECORD, "record", "off"},
	[S_RECORD_MAX_MB] = {LAUNCHER_ENV_RECORD_MAX_MB, "record_max_mb", "1024"},
	[S_RECORDER] = {"BOTDESK_RECORDER", "recorder", BOTDESK_RECORD_PATH},
	[S_FFMPEG] = {"BOTDESK_FFMPEG", "ffmpeg", "/usr/bin/ffmpeg"},
	[S_ACT_A11Y] = {"BOTDESK_ACT_A11Y", "act_a11y", BOTDESK_ACT_A11Y_PATH},
};

struct config_read {
	const char *path;
	struct setting_values *sv;
};

/* One botdesk.conf line: its value is checked with the environment's, in validate(). */
static int config_set(void *ctx, const char *key, const char *value, const char **ret_want)
{
	struct config_read *c = ctx;
	(void)ret_want;
	int which = -1;
	for (int i = 0; i < S_COUNT; i++) {
		if (streq(key, settings_defs[i].key)) {
			which = i;
		}
	}
	if (which < 0) {
		return -ENOENT;
	}
	free(c->sv->v[which]);
	c->sv->v[which] = strdup(value);
	c->sv->origin[which] = c->path;
	return c->sv->v[which] ? 0 : -ENOMEM;
}

/* Reads botdesk.conf into sv->v[] (malloc'ed strings). An absent file is no error. */
static int read_config(const char *path, struct setting_values *sv, struct error *err)
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
	struct config_read c = {.path = path, .sv = sv};
	return kvfile_read(f, path, "", config_set, &c, err);
}

int setting_error(struct error *err, const struct setting_values *sv, int which, const char *value,
		  const char *what)
{
	if (sv->origin[which]) {
		return error_set(err, -EINVAL, "%s: %s = '%s' is not valid: %s", sv->origin[which],
				 settings_defs[which].key, value, what);
	}
	return error_set(err, -EINVAL, "%s='%s' is not valid: %s", settings_defs[which].env, value,
			 what);
}

/* The settings only tests need: each one let a user step around the host's policy (a fake
 * meminfo or cgroup tree passed min_free_mb, a lock or X directory of their own raced past
 * max_desktops_per_user, a wrapper launcher rewrote the geometry past max_geometry). */
static const int test_only[] = {S_LAUNCHER,   S_MEMINFO,    S_CGROUP_ROOT,
				S_ALLOC_LOCK, S_X_LOCK_DIR, S_X_UNIX_TABLE};

/* Under a host policy, a user's test settings are ignored with a warning, unless the policy
 * says honour_test_settings = yes. Root is bound by nothing here anyway. */
static int drop_test_settings(struct hostpolicy *hp, struct setting_values *sv)
{
	if (!settings_policy_binds(hp)) {
		return 0;
	}
	char names[256] = "";
	size_t len = 0;
	for (size_t i = 0; i < ARRAY_SIZE(test_only); i++) {
		int w = test_only[i];
		if (!sv->v[w]) {
			continue;
		}
		const char *name = sv->origin[w] ? settings_defs[w].key : settings_defs[w].env;
		int n = snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "", name);
		if (n > 0 && (size_t)n < sizeof(names) - len) {
			len += (size_t)n;
		}
		free(sv->v[w]);
		sv->v[w] = NULL;
		sv->origin[w] = NULL;
	}
	if (len) {
		snprintf(
			hp->ignored, sizeof(hp->ignored),
			"ignoring %s: settings for tests only, which the host's policy (%s) does not honour for users; unset them, or ask the administrator for honour_test_settings = yes there",
			names, hp->path);
	}
	return 0;
}

void desk_warn(const struct settings *s, const char *fmt, ...)
{
	if (!s->warn) {
		return;
	}
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->warn(s->warn_data, msg);
}

int settings_load(struct settings *ret, struct error *err)
{
	struct settings s = {0};
	struct setting_values values = {{0}}, *sv = &values;
	int r = settings_resolve_paths(&s, err);
	if (r == 0) {
		r = read_config(s.config_file, sv, err);
	}
	if (r == 0) {
		/* The environment wins over the file. */
		for (int i = 0; i < S_COUNT; i++) {
			const char *v = getenv(settings_defs[i].env);
			if (v) {
				sv->origin[i] = NULL;
				free(sv->v[i]);
				sv->v[i] = strdup(v);
				if (!sv->v[i]) {
					r = -ENOMEM;
					break;
				}
				if (!*v) {
					r = setting_error(err, sv, i, v, "it is empty");
					break;
				}
			}
		}
	}
	if (r == 0) {
		r = hostpolicy_load(HOSTPOLICY_PATH, &s.policy, err);
	}
	if (r == 0) {
		r = drop_test_settings(&s.policy, sv);
	}
	if (r == 0) {
		r = settings_validate(&s, sv, err);
	}
	/* The host's limits last: they bound whatever the user asked for. */
	if (r == 0) {
		r = hostpolicy_apply(&s.policy, &s, err);
	}
	for (int i = 0; i < S_COUNT; i++) {
		free(sv->v[i]);
		sv->origin[i] = NULL;
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
	free(s->act_a11y);
	free(s->mcp);
	free(s->web);
	free(s->web_data);
	free(s->novnc);
	free(s->fc_list);
	free(s->recorder);
	free(s->ffmpeg);
	free(s->search_path);
	free(s->view_dir);
	*s = (struct settings){0};
}
