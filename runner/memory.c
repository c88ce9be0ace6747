#include "memory.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "parse.h"
#include "util.h"

#define MB (1024 * 1024)
/* cgroup v1 reports "no limit" as a page-aligned value near 2^63. */
#define V1_UNLIMITED (1ULL << 60)

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

/* A file holding one number (bytes), or "max". ret is -1 for "max" (no limit). */
static int read_number_file(const char *dir, const char *name, int64_t *ret)
{
	char path[4096], buf[64];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int r = read_file_at(AT_FDCWD, path, buf, sizeof(buf), NULL);
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
	char path[4096], buf[8192];
	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	if (read_file_at(AT_FDCWD, path, buf, sizeof(buf), NULL) < 0) {
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

/* limit - (usage - inactive file cache), as the kubelet counts a working set. */
static void cgroup_headroom(const char *dir, const char *limit_file, const char *usage_file,
			    const char *inactive_key, int64_t *ret_limit, int64_t *ret_free)
{
	int64_t limit, usage;
	*ret_limit = *ret_free = -1;
	if (read_number_file(dir, limit_file, &limit) < 0 || limit < 0 ||
	    read_number_file(dir, usage_file, &usage) < 0 || usage < 0) {
		return;
	}
	int64_t inactive = stat_value(dir, inactive_key);
	int64_t working = usage - (inactive > 0 ? inactive : 0);
	if (working < 0) {
		working = 0;
	}
	*ret_limit = limit;
	*ret_free = limit > working ? limit - working : 0;
}

void memory_read(const struct settings *s, struct memory_info *ret)
{
	struct memory_info m = {-1, -1};
	char buf[8192];
	if (read_file_at(AT_FDCWD, s->meminfo, buf, sizeof(buf), NULL) == 0) {
		int64_t avail = meminfo_kb(buf, "MemAvailable"),
			total = meminfo_kb(buf, "MemTotal");
		m.available_mb = avail >= 0 ? avail / 1024 : -1;
		m.limit_mb = total >= 0 ? total / 1024 : -1;
	}
	int64_t limit, headroom;
	/* cgroup v2 at the root we are given (a container's view), else v1's memory controller. */
	cgroup_headroom(s->cgroup_root, "memory.max", "memory.current", "inactive_file", &limit,
			&headroom);
	if (limit < 0) {
		char v1[4096];
		snprintf(v1, sizeof(v1), "%s/memory", s->cgroup_root);
		cgroup_headroom(v1, "memory.limit_in_bytes", "memory.usage_in_bytes",
				"total_inactive_file", &limit, &headroom);
	}
	if (limit >= 0) {
		int64_t hmb = headroom / MB;
		m.available_mb = m.available_mb < 0 || hmb < m.available_mb ? hmb : m.available_mb;
		m.limit_mb = limit / MB;
	}
	*ret = m;
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
		snprintf(buf, size,
			 "Not enough free memory for a desktop: %lld MB available of %lld MB, %llu "
			 "MB needed",
			 (long long)m->available_mb, (long long)m->limit_mb,
			 (unsigned long long)floor_mb);
	} else {
		snprintf(buf, size,
			 "Not enough free memory for a desktop: %lld MB available, %llu MB needed",
			 (long long)m->available_mb, (unsigned long long)floor_mb);
	}
}
