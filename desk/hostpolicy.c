#include "hostpolicy.h"

#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kvfile.h"
#include "launcher.h"
#include "parse.h"
#include "pathjoin.h"
#include "settings.h"
#include "util.h"

#define POLICY_TEXT_MAX 16384
#define DISPLAY_MAX 32767
#define DESKTOPS_MAX 1000

static void defaults(const char *path, struct hostpolicy *hp)
{
	*hp = (struct hostpolicy){.path = path, .max_desktops = HOSTPOLICY_DEFAULT_MAX_DESKTOPS};
}

static bool group_name_valid(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > HOSTPOLICY_GROUP_MAX || s[0] == '-') {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.')) {
			return false;
		}
	}
	return true;
}

/* One "key = value" line into hp; what the value should have been, or NULL when it is good
 * ("" for a key the policy does not have). */
static const char *set_key(struct hostpolicy *hp, const char *key, const char *value)
{
	uint64_t v;
	if (streq(key, "display_band")) {
		hp->has_band = true;
		return parse_range(value, DISPLAY_MAX, &hp->band_lo, &hp->band_hi) < 0
			       ? "FIRST-LAST, e.g. 20-89, with FIRST <= LAST <= 32767"
			       : NULL;
	}
	if (streq(key, "max_desktops_per_user")) {
		return parse_uint_range(value, 1, DESKTOPS_MAX, &hp->max_desktops) < 0
			       ? "a whole number from 1 to 1000"
			       : NULL;
	}
	if (streq(key, "min_free_mb")) {
		return parse_u64(value, 1024 * 1024 * 1024, &hp->min_free_mb) < 0
			       ? "a whole number of megabytes"
			       : NULL;
	}
	if (streq(key, "max_idle_stop_minutes")) {
		if (parse_u64(value, 366 * 24 * 60, &v) < 0 || v == 0) {
			return "a whole number of minutes from 1 to 527040";
		}
		hp->max_idle_stop_minutes = v;
		return NULL;
	}
	if (streq(key, "max_geometry")) {
		return parse_geometry(value, LAUNCHER_GEOMETRY_MIN, LAUNCHER_GEOMETRY_MAX,
				      &hp->max_width, &hp->max_height) < 0
			       ? "WIDTHxHEIGHT, each from 64 to 8192"
			       : NULL;
	}
	if (streq(key, "honour_test_settings")) {
		if (streq(value, "yes")) {
			hp->honour_test_settings = true;
		} else if (streq(value, "no")) {
			hp->honour_test_settings = false;
		} else {
			return "yes or no";
		}
		return NULL;
	}
	if (streq(key, "admin_group")) {
		if (!group_name_valid(value)) {
			return "a group name";
		}
		snprintf(hp->admin_group, sizeof(hp->admin_group), "%s", value);
		return NULL;
	}
	return "";
}

static int policy_set(void *ctx, const char *key, const char *value, const char **ret_want)
{
	const char *want = set_key(ctx, key, value);
	if (want && !*want) {
		return -ENOENT;
	}
	if (want) {
		*ret_want = want;
		return -EINVAL;
	}
	return 0;
}

int hostpolicy_parse(const char *text, const char *path, struct hostpolicy *ret, struct error *err)
{
	struct hostpolicy hp;
	defaults(path, &hp);
	int r = kvfile_parse(text, path, "; ask the administrator to fix the host's policy",
			     policy_set, &hp, err);
	if (r < 0) {
		return r;
	}
	hp.loaded = true;
	*ret = hp;
	return 0;
}

/* Root's and writable by nobody else: what an unprivileged user cannot have put there. */
static bool trusted(const struct stat *st)
{
	return st->st_uid == 0 && (st->st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/* Every directory above path, up to /, must be trusted too: whoever may write one of them can
 * swap the file. Returns the first that is not, or "" when all are. */
static void untrusted_parent(const char *path, char *ret, size_t size)
{
	char dir[4096];
	/* A path too long to check is not trusted: it is its own answer. */
	if (path_format(dir, sizeof(dir), "%s", path) < 0) {
		snprintf(ret, size, "%s", path);
		return;
	}
	ret[0] = '\0';
	for (char *slash = strrchr(dir, '/'); slash; slash = strrchr(dir, '/')) {
		if (slash == dir) {
			slash[1] = '\0';
		} else {
			*slash = '\0';
		}
		struct stat st;
		if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || !trusted(&st)) {
			snprintf(ret, size, "%s", dir);
			return;
		}
		if (slash == dir) {
			return;
		}
	}
}

int hostpolicy_load(const char *path, struct hostpolicy *ret, struct error *err)
{
	defaults(path, ret);
	_cleanup_close_ int fd =
		open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		return 0;
	}
	if (fd < 0 && errno == ELOOP) {
		snprintf(
			ret->warning, sizeof(ret->warning),
			"ignoring %s: it is a symbolic link, which the host's policy may not be. As root, put the file itself there",
			path);
		return 0;
	}
	if (fd < 0) {
		snprintf(ret->warning, sizeof(ret->warning),
			 "ignoring %s: %s. As root, make it readable (chmod 644)", path,
			 strerror(errno));
		return 0;
	}
	struct stat st;
	char dir[4096];
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(
			ret->warning, sizeof(ret->warning),
			"ignoring %s: it is not a regular file. As root, put the policy file there",
			path);
		return 0;
	}
	if (!trusted(&st)) {
		snprintf(
			ret->warning, sizeof(ret->warning),
			"ignoring %s: it belongs to uid %u with mode %04o, so someone other than root could have written it. As root: chown root:root %s; chmod 644 %s",
			path, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777), path, path);
		return 0;
	}
	untrusted_parent(path, dir, sizeof(dir));
	if (dir[0]) {
		snprintf(
			ret->warning, sizeof(ret->warning),
			"ignoring %s: the directory %s is not root's alone, so someone other than root could replace the file. As root: chown root:root %s; chmod 755 %s",
			path, dir, dir, dir);
		return 0;
	}
	char text[POLICY_TEXT_MAX];
	ssize_t n = read_all(fd, text, sizeof(text) - 1);
	if (n < 0) {
		return error_set(err, (int)n, "cannot read %s: %s", path, strerror((int)-n));
	}
	if ((size_t)n == sizeof(text) - 1) {
		return error_set(
			err, -EFBIG,
			"%s is larger than %d bytes; ask the administrator to fix the host's policy",
			path, POLICY_TEXT_MAX - 1);
	}
	text[n] = '\0';
	return hostpolicy_parse(text, path, ret, err);
}

int hostpolicy_apply(const struct hostpolicy *hp, struct settings *s, struct error *err)
{
	if (hp->has_band) {
		unsigned lo = s->band_lo > hp->band_lo ? s->band_lo : hp->band_lo;
		unsigned hi = s->band_hi < hp->band_hi ? s->band_hi : hp->band_hi;
		if (!s->band_explicit) {
			lo = hp->band_lo;
			hi = hp->band_hi;
		} else if (lo > hi) {
			return error_set(
				err, -EINVAL,
				"your display band %u-%u (BOTDESK_DISPLAY_BAND or display_band in botdesk.conf) lies outside the host's band %u-%u, set in %s; pick numbers inside it, or leave it unset",
				s->band_lo, s->band_hi, hp->band_lo, hp->band_hi, hp->path);
		}
		s->band_lo = lo;
		s->band_hi = hi;
	}
	if (s->min_free_mb < hp->min_free_mb) {
		s->min_free_mb = hp->min_free_mb;
	}
	if (hp->max_width && (s->width > hp->max_width || s->height > hp->max_height)) {
		if (s->geometry_explicit) {
			return error_set(
				err, -EINVAL,
				"your geometry %s (BOTDESK_GEOMETRY or geometry in botdesk.conf) is larger than the host allows, %ux%u, set in %s; pick a smaller one",
				s->geometry, hp->max_width, hp->max_height, hp->path);
		}
		s->width = s->width < hp->max_width ? s->width : hp->max_width;
		s->height = s->height < hp->max_height ? s->height : hp->max_height;
		snprintf(s->geometry, sizeof(s->geometry), "%ux%u", s->width, s->height);
	}
	/* The longest idle stop: a user may stop sooner, never later, and "never" (0) is later
	 * than any limit. */
	uint64_t max_ms = hp->max_idle_stop_minutes * 60 * 1000;
	if (max_ms && (s->idle_stop_ms == 0 || s->idle_stop_ms > max_ms)) {
		s->idle_stop_ms = max_ms;
	}
	return 0;
}

bool hostpolicy_is_admin(const struct hostpolicy *hp)
{
	if (geteuid() == 0) {
		return true;
	}
	if (!hp->admin_group[0]) {
		return false;
	}
	struct group *g = getgrnam(hp->admin_group);
	if (!g || g->gr_gid == 0) {
		return false;
	}
	if (getegid() == g->gr_gid) {
		return true;
	}
	gid_t groups[256];
	int n = getgroups(ARRAY_SIZE(groups), groups);
	for (int i = 0; i < n; i++) {
		if (groups[i] == g->gr_gid) {
			return true;
		}
	}
	return false;
}
