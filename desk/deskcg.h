/* A cgroup of its own for each desktop, below the cgroup subtree delegated to the caller (a
 * systemd user manager's, a container's, one an administrator chowned), with the memory limit of
 * max_memory_mb: the desktop that outgrows it is the one that pays, not its neighbours. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "cgroup.h"
#include "error.h"
#include "settings.h"

/* The name prefix of a desktop's cgroup: "desktop-<display>-<profile>". */
#define DESKCG_PREFIX "desktop-"

struct deskcg_base {
	bool ok;                         /* desktops can have cgroups of their own, under dir */
	bool v2;                         /* the unified hierarchy, else v1's memory controller */
	char delegated[CGROUP_PATH_MAX]; /* the highest cgroup of ours above us */
	char dir[CGROUP_PATH_MAX];       /* <delegated>/botdesk */
	char why[768];                   /* when not ok: why not */
	char fix[768];                   /* and how to get one */
};

/* Finds the delegated subtree of the cgroup we run in: the highest ancestor (ourselves included)
 * whose directory and cgroup.procs are ours. With create, makes <delegated>/botdesk and hands it
 * the memory controller (v2), which is what a start needs; without, only looks (doctor). */
void deskcg_find(const struct settings *s, bool create, struct deskcg_base *ret);

/* Makes <base>/desktop-<display>-<profile> with memory.max = max_mb and memory.high 90% of it
 * (v1: memory.limit_in_bytes and memory.soft_limit_in_bytes). ret_dir gets its path. */
int deskcg_create(const struct deskcg_base *b, unsigned display, const char *profile,
		  uint64_t max_mb, char *ret_dir, size_t size, struct error *err);

/* Its cgroup.procs, opened O_WRONLY for the launcher's child to write "0" into before exec, so the
 * whole desktop is born inside. */
int deskcg_open_procs(const char *dir);

/* Removes an empty desktop cgroup (one whose desktop has ended); a live one stays. */
void deskcg_remove(const char *dir);

/* Removes every empty desktop cgroup a killed desktop left under the base. */
void deskcg_sweep(const struct deskcg_base *b);

/* The desktop cgroup pid runs in (its launcher's), or -ENOENT when it has none. */
int deskcg_of_pid(const struct settings *s, pid_t pid, char *ret, size_t size);
