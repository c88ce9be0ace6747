#include "cgroup.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "parse.h"
#include "pathjoin.h"
#include "util.h"

/* cgroup v1 reports "no limit" as a page-aligned value near 2^63. */
#define V1_UNLIMITED (1ULL << 60)

/* Whether the comma-separated controller list of a v1 line holds "memory". */
static bool lists_memory(const char *s, size_t len)
{
	const char *end = s + len;
	while (s < end) {
		const char *comma = memchr(s, ',', (size_t)(end - s));
		size_t n = comma ? (size_t)(comma - s) : (size_t)(end - s);
		if (n == 6 && strncmp(s, "memory", 6) == 0) {
			return true;
		}
		s += n + 1;
	}
	return false;
}

static void copy_path(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size) {
		len = 0; /* too long to be a path we could use: as if absent */
	}
	memcpy(dst, src, len);
	dst[len] = '\0';
}

int cgroup_parse_self(const char *text, char *v2, size_t v2_size, char *v1, size_t v1_size)
{
	v2[0] = v1[0] = '\0';
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t len = strcspn(l, "\n");
		/* "hierarchy-id:controllers:path"; the path may itself hold ':'. */
		const char *c1 = memchr(l, ':', len);
		const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - l)) : NULL;
		if (!c2) {
			continue;
		}
		const char *path = c2 + 1;
		size_t plen = len - (size_t)(path - l);
		if (plen == 0 || path[0] != '/') {
			continue;
		}
		if (c1 - l == 1 && l[0] == '0' && c2 == c1 + 1) {
			copy_path(v2, v2_size, path, plen);
		} else if (lists_memory(c1 + 1, (size_t)(c2 - c1 - 1))) {
			copy_path(v1, v1_size, path, plen);
		}
	}
	return 0;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool has_file(const char *dir, const char *name)
{
	char path[CGROUP_PATH_MAX + 64];
	struct stat st;
	return path_join(path, sizeof(path), dir, name) == 0 && stat(path, &st) == 0;
}

/* mount + rel when that directory exists, else the mount (a namespaced view). */
static void resolve(struct cgroup_hier *h, const char *rel)
{
	char path[2 * CGROUP_PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s%s", h->mount, streq(rel, "/") ? "" : rel);
	if (n > 0 && (size_t)n < sizeof(h->self) && is_dir(path)) {
		memcpy(h->self, path, (size_t)n + 1);
	} else {
		snprintf(h->self, sizeof(h->self), "%s", h->mount);
	}
}

static void mounts(const char *root, struct cgroup_view *v)
{
	char unified[CGROUP_PATH_MAX];
	/* A hybrid host keeps the unified hierarchy at root/unified and v1's controllers beside
	 * it; a pure v2 host (or a container's view, or a test's fixture) has it at root. A root
	 * too long for its paths to fit gets empty mounts, which hold no cgroup. */
	bool hybrid = path_join(unified, sizeof(unified), root, "unified") == 0 &&
		      !has_file(root, "cgroup.controllers") &&
		      has_file(unified, "cgroup.controllers");
	(void)path_format(v->v2.mount, sizeof(v->v2.mount), "%s", hybrid ? unified : root);
	(void)path_join(v->v1.mount, sizeof(v->v1.mount), root, "memory");
	v->v2.v2 = true;
	v->v1.v2 = false;
}

static void view_from_text(const char *root, const char *text, struct cgroup_view *ret)
{
	*ret = (struct cgroup_view){0};
	mounts(root, ret);
	char v2[CGROUP_PATH_MAX], v1[CGROUP_PATH_MAX];
	cgroup_parse_self(text ? text : "", v2, sizeof(v2), v1, sizeof(v1));
	/* Without a cgroup file at all (not Linux procfs), the root's own files still count: what
	 * a container sees at its root is its own cgroup. */
	ret->v2.present = v2[0] || !text;
	ret->v1.present = v1[0] || !text;
	resolve(&ret->v2, v2[0] ? v2 : "/");
	resolve(&ret->v1, v1[0] ? v1 : "/");
}

void cgroup_view_read(const char *root, const char *self_text, struct cgroup_view *ret)
{
	char buf[8192];
	if (!self_text &&
	    read_file_at(AT_FDCWD, "/proc/self/cgroup", buf, sizeof(buf), NULL) == 0) {
		self_text = buf;
	}
	view_from_text(root, self_text, ret);
}

/* A memory file of dir holding one number of bytes, or "max": ret is -1 for no limit (v1's
 * page-aligned near-2^63 value too). */
static int cgroup_read_bytes(const char *dir, const char *name, int64_t *ret)
{
	char path[CGROUP_PATH_MAX + 64], buf[64];
	int r = path_join(path, sizeof(path), dir, name);
	if (r == 0) {
		r = read_file_at(AT_FDCWD, path, buf, sizeof(buf), NULL);
	}
	if (r < 0) {
		return r;
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (streq(buf, "max")) {
		*ret = -1;
		return 0;
	}
	uint64_t v;
	r = parse_u64(buf, UINT64_MAX, &v);
	if (r < 0) {
		return r;
	}
	*ret = v >= V1_UNLIMITED ? -1 : (int64_t)v;
	return 0;
}

/* "key value" lines of memory.stat. */
static int64_t stat_value(const char *dir, const char *key)
{
	char path[CGROUP_PATH_MAX + 64], buf[8192];
	if (path_join(path, sizeof(path), dir, "memory.stat") < 0 ||
	    read_file_at(AT_FDCWD, path, buf, sizeof(buf), NULL) < 0) {
		return -1;
	}
	size_t klen = strlen(key);
	for (const char *l = buf; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, klen) == 0 && l[klen] == ' ') {
			uint64_t v;
			const char *val = l + klen + 1;
			if (parse_u64_n(val, strcspn(val, "\n"), INT64_MAX, &v) == 0) {
				return (int64_t)v;
			}
		}
	}
	return -1;
}

void cgroup_memory_read(const char *dir, bool v2, struct cgroup_memory *ret)
{
	*ret = (struct cgroup_memory){-1, -1, -1};
	int64_t v;
	if (cgroup_read_bytes(dir, v2 ? "memory.max" : "memory.limit_in_bytes", &v) == 0) {
		ret->limit = v;
	}
	if (cgroup_read_bytes(dir, v2 ? "memory.current" : "memory.usage_in_bytes", &v) == 0 &&
	    v >= 0) {
		ret->usage = v;
		int64_t inactive = stat_value(dir, v2 ? "inactive_file" : "total_inactive_file");
		int64_t working = v - (inactive > 0 ? inactive : 0);
		ret->working_set = working > 0 ? working : 0;
	}
}

int cgroup_of_pid(const struct cgroup_view *view, pid_t pid, bool *ret_v2, char *ret, size_t size)
{
	char path[64], buf[8192];
	if (path_format(path, sizeof(path), "/proc/%d/cgroup", (int)pid) < 0 ||
	    read_file_at(AT_FDCWD, path, buf, sizeof(buf), NULL) < 0) {
		return -ENOENT;
	}
	char v2[CGROUP_PATH_MAX], v1[CGROUP_PATH_MAX];
	cgroup_parse_self(buf, v2, sizeof(v2), v1, sizeof(v1));
	const struct cgroup_hier *h[2] = {&view->v2, &view->v1};
	const char *rel[2] = {v2, v1};
	for (int i = 0; i < 2; i++) {
		if (!rel[i][0] || streq(rel[i], "/")) {
			continue;
		}
		int n = snprintf(ret, size, "%s%s", h[i]->mount, rel[i]);
		if (n > 0 && (size_t)n < size &&
		    has_file(ret, i == 0 ? "memory.current" : "memory.usage_in_bytes")) {
			*ret_v2 = i == 0;
			return 0;
		}
	}
	return -ENOENT;
}
