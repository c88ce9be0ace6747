/* Where the caller sits in the cgroup hierarchies that can hold the memory controller, and the
 * memory numbers of one cgroup directory. The memory gate, doctor and the per-desktop cgroups all
 * start from here. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define CGROUP_PATH_MAX 4096

/* One hierarchy: where it is mounted and the caller's own cgroup directory in it. */
struct cgroup_hier {
	bool present;                /* the caller's cgroup file names this hierarchy */
	bool v2;                     /* the unified hierarchy, else v1's memory controller */
	char mount[CGROUP_PATH_MAX]; /* the hierarchy's root as we see it */
	/* The caller's cgroup directory. When the path /proc/self/cgroup names does not exist under
	 * the mount (a container that shows its own cgroup as the root), the mount itself. */
	char self[CGROUP_PATH_MAX];
};

struct cgroup_view {
	struct cgroup_hier v2, v1;
};

/* The paths /proc/<pid>/cgroup text gives for the unified hierarchy ("0::/p") and v1's memory
 * controller ("N:...memory...:/p"); an absent one is "". */
int cgroup_parse_self(const char *text, char *v2, size_t v2_size, char *v1, size_t v1_size);

/* The caller's view under root (the cgroup_root setting, default /sys/fs/cgroup): the unified
 * hierarchy at root, or at root/unified on a hybrid host, and v1's memory controller at
 * root/memory. self_text is /proc/<pid>/cgroup's text; NULL reads /proc/self/cgroup. */
void cgroup_view_read(const char *root, const char *self_text, struct cgroup_view *ret);

/* The limit, usage and working set (usage less inactive page cache, as the kubelet counts it) of
 * one cgroup directory; -1 for what is unknown or unlimited. */
struct cgroup_memory {
	int64_t limit, usage, working_set;
};
void cgroup_memory_read(const char *dir, bool v2, struct cgroup_memory *ret);

/* The directory of the memory cgroup pid runs in, under view's mounts (v2 preferred when it has
 * memory files). -ENOENT when it cannot be told. */
int cgroup_of_pid(const struct cgroup_view *view, pid_t pid, bool *ret_v2, char *ret, size_t size);
