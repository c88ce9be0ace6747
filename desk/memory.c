#include "memory.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "parse.h"
#include "util.h"

#define MB (1024 * 1024)

/* The value (in kB) of "Key:   1234 kB" in meminfo text, or -1. */
static int64_t meminfo_kb(const char *text, const char *key)
{
	size_t klen = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, klen) != 0 || l[klen] != ':') {
			continue;
		}
		const char *v = l + klen + 1;
		while (*v == ' ') {
			v++;
		}
		uint64_t kb;
		if (parse_u64_n(v, strcspn(v, " \n"), UINT64_MAX / 1024, &kb) < 0) {
			return -1;
		}
		return (int64_t)kb;
	}
	return -1;
}

/* The tightest headroom of dir and each of its ancestors up to the hierarchy's root: a limit set
 * anywhere above us binds us too, and the caller's own cgroup is rarely where it is set. */
static void tightest(const struct cgroup_hier *h, int64_t *limit, int64_t *headroom)
{
	if (!h->present) {
		return;
	}
	char dir[CGROUP_PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", h->self);
	size_t root_len = strlen(h->mount);
	for (;;) {
		struct cgroup_memory m;
		cgroup_memory_read(dir, h->v2, &m);
		if (m.limit >= 0 && m.working_set >= 0) {
			int64_t free = m.limit > m.working_set ? m.limit - m.working_set : 0;
			if (*headroom < 0 || free < *headroom) {
				*headroom = free;
				*limit = m.limit;
			}
		}
		char *slash = strrchr(dir, '/');
		if (strlen(dir) <= root_len || !slash || (size_t)(slash - dir) < root_len) {
			break;
		}
		*slash = '\0';
	}
}

void memory_read_view(const char *meminfo, const struct cgroup_view *v, struct memory_info *ret)
{
	struct memory_info m = {-1, -1};
	char buf[8192];
	if (read_file_at(AT_FDCWD, meminfo, buf, sizeof(buf), NULL) == 0) {
		int64_t avail = meminfo_kb(buf, "MemAvailable"),
			total = meminfo_kb(buf, "MemTotal");
		m.available_mb = avail >= 0 ? avail / 1024 : -1;
		m.limit_mb = total >= 0 ? total / 1024 : -1;
	}
	/* The cgroups we actually run in, in the unified hierarchy and in v1's memory controller
	 * (only one of them holds the controller on a real host). */
	int64_t limit = -1, headroom = -1;
	tightest(&v->v2, &limit, &headroom);
	tightest(&v->v1, &limit, &headroom);
	if (limit >= 0) {
		int64_t hmb = headroom / MB;
		m.available_mb = m.available_mb < 0 || hmb < m.available_mb ? hmb : m.available_mb;
		m.limit_mb = limit / MB;
	}
	*ret = m;
}

void memory_read(const struct settings *s, struct memory_info *ret)
{
	struct cgroup_view v;
	cgroup_view_read(s->cgroup_root, NULL, &v);
	memory_read_view(s->meminfo, &v, ret);
}

enum memory_verdict memory_judge(const struct memory_info *m, uint64_t floor_mb)
{
	if (floor_mb == 0 || m->available_mb < 0) {
		return MEMORY_OK;
	}
	uint64_t avail = (uint64_t)m->available_mb;
	if (avail < floor_mb) {
		return MEMORY_SHORT;
	}
	if (avail < floor_mb + floor_mb / 3) {
		return MEMORY_TIGHT;
	}
	return MEMORY_OK;
}

void memory_blocker(const struct memory_info *m, uint64_t floor_mb, char *buf, size_t size)
{
	if (m->limit_mb >= 0) {
		snprintf(
			buf, size,
			"Not enough free memory for a desktop: %lld MB available of %lld MB, %llu MB needed",
			(long long)m->available_mb, (long long)m->limit_mb,
			(unsigned long long)floor_mb);
	} else {
		snprintf(buf, size,
			 "Not enough free memory for a desktop: %lld MB available, %llu MB needed",
			 (long long)m->available_mb, (unsigned long long)floor_mb);
	}
}
