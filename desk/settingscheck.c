#include "settingsdef.h"

#include <assert.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "envallow.h"
#include "launcher.h"
#include "parse.h"
#include "recording.h"
#include "util.h"

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

static int need_absolute(struct error *err, const struct setting_values *sv, int which,
			 const char *value)
{
	if (value[0] != '/') {
		return setting_error(err, sv, which, value, "it must be an absolute path");
	}
	return 0;
}

/* The group that may watch, and the directory its members can reach the door through. */
static int validate_view(struct settings *s, struct setting_values *sv, struct error *err)
{
	const char *g = sv->v[S_VIEW_GROUP];
	const char *dir = sv->v[S_VIEW_DIR];
	if (dir) {
		int r = need_absolute(err, sv, S_VIEW_DIR, dir);
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
		return setting_error(err, sv, S_VIEW_GROUP, g, "no such group");
	}
	if (gid == 0) {
		return setting_error(err, sv, S_VIEW_GROUP, g,
				     "root's group may not be the view group");
	}
	/* The profile's directory is private (0700): a group can only reach a door elsewhere. */
	if (!dir) {
		return setting_error(
			err, sv, S_VIEW_GROUP, g,
			"it needs BOTDESK_VIEW_DIR (view_dir): a directory of yours that the group can enter, where the view sockets go");
	}
	s->view_gid = gid;
	s->view_group = true;
	return 0;
}

/* The defaults filled in, and every path absolute. */
static int validate_paths(struct settings *s, struct setting_values *sv, struct error *err)
{
	for (int i = 0; i < S_COUNT; i++) {
		if (!sv->v[i] && settings_defs[i].def) {
			sv->v[i] = strdup(settings_defs[i].def);
			if (!sv->v[i]) {
				return -ENOMEM;
			}
		}
	}
	if (!sv->v[S_ALLOC_LOCK]) {
		sv->v[S_ALLOC_LOCK] = settings_alloc_lock(settings_policy_binds(&s->policy));
		if (!sv->v[S_ALLOC_LOCK]) {
			return error_set(
				err, -ENOENT,
				"no place for the allocation lock: set XDG_RUNTIME_DIR, HOME or BOTDESK_ALLOC_LOCK");
		}
	}
	int r;
	if (sv->v[S_LAUNCHER]) {
		if ((r = need_absolute(err, sv, S_LAUNCHER, sv->v[S_LAUNCHER])) < 0) {
			return r;
		}
	} else {
		sv->v[S_LAUNCHER] = strdup(BOTDESK_SESSION_PATH);
		s->launcher_is_default = true;
	}
	static const int paths[] = {S_X_LOCK_DIR,  S_X_UNIX_TABLE, S_ALLOC_LOCK,  S_MEMINFO,
				    S_CGROUP_ROOT, S_HELPER,       S_THUMBNAILER, S_IMAGE_MARKER,
				    S_ACT,         S_ACT_POINTER,  S_MCP,         S_WEB,
				    S_WEB_DATA,    S_NOVNC,        S_FC_LIST,     S_ACT_A11Y};
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		if ((r = need_absolute(err, sv, paths[i], sv->v[paths[i]])) < 0) {
			return r;
		}
	}
	return 0;
}

static int validate_numbers(struct settings *s, struct setting_values *sv, struct error *err)
{
	int r = parse_range(sv->v[S_DISPLAY_BAND], DISPLAY_MAX, &s->band_lo, &s->band_hi);
	if (r < 0) {
		return setting_error(
			err, sv, S_DISPLAY_BAND, sv->v[S_DISPLAY_BAND],
			"expected FIRST-LAST, e.g. 20-89, with FIRST <= LAST <= 32767");
	}
	r = parse_u64(sv->v[S_MIN_FREE_MB], 1024 * 1024 * 1024, &s->min_free_mb);
	if (r < 0) {
		return setting_error(err, sv, S_MIN_FREE_MB, sv->v[S_MIN_FREE_MB],
				     "expected a whole number of megabytes (0 disables the check)");
	}
	r = parse_geometry(sv->v[S_GEOMETRY], LAUNCHER_GEOMETRY_MIN, LAUNCHER_GEOMETRY_MAX,
			   &s->width, &s->height);
	if (r < 0) {
		return setting_error(err, sv, S_GEOMETRY, sv->v[S_GEOMETRY],
				     "expected WIDTHxHEIGHT, each from 64 to 8192, e.g. 1440x900");
	}
	snprintf(s->geometry, sizeof(s->geometry), "%ux%u", s->width, s->height);
	r = parse_u64(sv->v[S_MAX_MEMORY_MB], 1024 * 1024 * 1024, &s->max_memory_mb);
	if (r < 0 || (s->max_memory_mb > 0 && s->max_memory_mb < MAX_MEMORY_MIN_MB)) {
		return setting_error(
			err, sv, S_MAX_MEMORY_MB, sv->v[S_MAX_MEMORY_MB],
			"expected a whole number of megabytes, at least 64 (0: no limit)");
	}
	/* Minutes, with up to three decimals (a test's desktop stops after seconds). */
	uint64_t milli_minutes;
	r = parse_seconds_ms(sv->v[S_IDLE_STOP], IDLE_STOP_MAX, &milli_minutes);
	if (r < 0) {
		return setting_error(
			err, sv, S_IDLE_STOP, sv->v[S_IDLE_STOP],
			"expected minutes up to a week, e.g. 30 or 0.5 (0 never stops an unused desktop)");
	}
	s->idle_stop_ms = milli_minutes * 60;
	return 0;
}

/* A yes/no setting. */
static int yes_no(const struct setting_values *sv, int which, bool *ret, struct error *err)
{
	const char *v = sv->v[which];
	if (streq(v, "yes") || streq(v, "true") || streq(v, "1")) {
		*ret = true;
	} else if (!streq(v, "no") && !streq(v, "false") && !streq(v, "0")) {
		return setting_error(err, sv, which, v, "expected yes or no");
	}
	return 0;
}

/* The flight recorder: off by default (a recording holds whatever the screen showed). */
static int validate_record(struct settings *s, struct setting_values *sv, struct error *err)
{
	static const int paths[] = {S_RECORDER, S_FFMPEG};
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		int r = need_absolute(err, sv, paths[i], sv->v[paths[i]]);
		if (r < 0) {
			return r;
		}
	}
	const char *rec = sv->v[S_RECORD];
	if (streq(rec, "always")) {
		s->record_always = true;
	} else if (!streq(rec, "off")) {
		return setting_error(err, sv, S_RECORD, rec, "expected always or off");
	}
	int r = parse_u64(sv->v[S_RECORD_MAX_MB], RECORD_MAX_MB_LIMIT, &s->record_max_mb);
	if (r < 0 || s->record_max_mb == 0) {
		return setting_error(err, sv, S_RECORD_MAX_MB, sv->v[S_RECORD_MAX_MB],
				     "expected a whole number of megabytes, at least 1");
	}
	return 0;
}

static int validate_words(struct settings *s, struct setting_values *sv, struct error *err)
{
	const char *pm = sv->v[S_PACKAGE_MANAGER];
	if (!streq(pm, "auto") && !streq(pm, "apt") && !streq(pm, "dnf") && !streq(pm, "pacman") &&
	    !streq(pm, "none")) {
		return setting_error(err, sv, S_PACKAGE_MANAGER, pm,
				     "expected auto, apt, dnf, pacman or none");
	}
	if (sv->v[S_BROWSER] && strpbrk(sv->v[S_BROWSER], "\n\r\"'\\")) {
		return setting_error(err, sv, S_BROWSER, sv->v[S_BROWSER],
				     "it may not hold quotes, backslashes or line breaks");
	}
	char bad[128], why[256];
	if (sv->v[S_PASS_ENV] && envallow_check_list(sv->v[S_PASS_ENV], bad, sizeof(bad)) < 0) {
		snprintf(
			why, sizeof(why),
			"expected variable names separated by commas, e.g. HTTPS_PROXY,NO_PROXY (not '%s')",
			bad);
		return setting_error(err, sv, S_PASS_ENV, sv->v[S_PASS_ENV], why);
	}
	/* Off by default: what an agent types is often a password. */
	int r = yes_no(sv, S_LOG_TYPED_TEXT, &s->log_typed_text, err);
	r = r ? r : yes_no(sv, S_COMPUTER_SCREENSHOTS, &s->computer_screenshots, err);
	return r ? r : validate_record(s, sv, err);
}

/* The checked strings move into the settings. */
static int take_values(struct settings *s, struct setting_values *sv)
{
	s->pass_env = TAKE_PTR(sv->v[S_PASS_ENV]);
	s->launcher = TAKE_PTR(sv->v[S_LAUNCHER]);
	s->x_lock_dir = TAKE_PTR(sv->v[S_X_LOCK_DIR]);
	s->x_unix_table = TAKE_PTR(sv->v[S_X_UNIX_TABLE]);
	s->alloc_lock = TAKE_PTR(sv->v[S_ALLOC_LOCK]);
	s->meminfo = TAKE_PTR(sv->v[S_MEMINFO]);
	s->cgroup_root = TAKE_PTR(sv->v[S_CGROUP_ROOT]);
	s->helper = TAKE_PTR(sv->v[S_HELPER]);
	s->thumbnailer = TAKE_PTR(sv->v[S_THUMBNAILER]);
	s->browser = TAKE_PTR(sv->v[S_BROWSER]);
	s->package_manager = TAKE_PTR(sv->v[S_PACKAGE_MANAGER]);
	s->image_marker = TAKE_PTR(sv->v[S_IMAGE_MARKER]);
	s->act = TAKE_PTR(sv->v[S_ACT]);
	s->act_pointer = TAKE_PTR(sv->v[S_ACT_POINTER]);
	s->act_a11y = TAKE_PTR(sv->v[S_ACT_A11Y]);
	s->mcp = TAKE_PTR(sv->v[S_MCP]);
	s->web = TAKE_PTR(sv->v[S_WEB]);
	s->web_data = TAKE_PTR(sv->v[S_WEB_DATA]);
	s->novnc = TAKE_PTR(sv->v[S_NOVNC]);
	s->fc_list = TAKE_PTR(sv->v[S_FC_LIST]);
	s->recorder = TAKE_PTR(sv->v[S_RECORDER]);
	s->ffmpeg = TAKE_PTR(sv->v[S_FFMPEG]);
	const char *path = getenv("PATH");
	s->search_path = strdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
	return !s->launcher || !s->search_path ? -ENOMEM : 0;
}

int settings_validate(struct settings *s, struct setting_values *sv, struct error *err)
{
	s->band_explicit = sv->v[S_DISPLAY_BAND] != NULL;
	s->geometry_explicit = sv->v[S_GEOMETRY] != NULL;
	int r;
	if ((r = validate_paths(s, sv, err)) < 0 || (r = validate_numbers(s, sv, err)) < 0 ||
	    (r = validate_words(s, sv, err)) < 0 || (r = validate_view(s, sv, err)) < 0) {
		return r;
	}
	return take_values(s, sv);
}
