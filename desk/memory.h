/* How much memory a new desktop could have: the tighter of the host's MemAvailable and, for the
 * cgroup we run in and each of its ancestors, its limit minus its working set. */
#pragma once

#include <stdint.h>

#include "cgroup.h"
#include "settings.h"

struct memory_info {
	int64_t available_mb; /* -1: unknown */
	int64_t limit_mb;     /* the cgroup's limit, else MemTotal; -1: unknown */
};

enum memory_verdict {
	MEMORY_OK,
	MEMORY_TIGHT, /* enough, but below floor + floor/3: start and warn */
	MEMORY_SHORT, /* below the floor: refuse */
};

/* Reads s->meminfo and the memory files of our own cgroup (/proc/self/cgroup, under
 * s->cgroup_root) and of its ancestors. Never fails: what cannot be read is unknown. */
void memory_read(const struct settings *s, struct memory_info *ret);
/* The same for a given cgroup view (tests). */
void memory_read_view(const char *meminfo, const struct cgroup_view *v, struct memory_info *ret);
/* Unknown memory and a zero floor never block; exactly the floor is enough. */
enum memory_verdict memory_judge(const struct memory_info *m, uint64_t floor_mb);
/* "Not enough free memory for a desktop: N MB available of L MB, F MB needed". */
void memory_blocker(const struct memory_info *m, uint64_t floor_mb, char *buf, size_t size);
