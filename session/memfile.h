/* The desktop's memory, published for `botdesk list`: a PSS figure needs a walk of every
 * process's page tables (about 4 ms per desktop), too slow for a list of twenty desktops to
 * make each time, so the session makes it now and then and leaves it beside its env file. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "supervisor.h"

/* How often the figure is renewed while the desktop runs. */
#define MEMFILE_INTERVAL_MS 10000
/* The file's name in the profile's directory (the env file's). */
#define MEMFILE_NAME "memory"

/* The PSS, in kB, of this process and every process below it. */
uint64_t memfile_pss_kb(void);

/* What the last renewal found. */
struct memfile {
	bool published;
	uint64_t resident_kb; /* the tree's resident set then (statm: counters, no page walk) */
	uint64_t pss_kb;
	unsigned rounds; /* renewals since the last PSS */
};
#define MEMFILE_INIT \
	{            \
		0    \
	}
/* A PSS is made again only when the tree's resident set moved by this much since the last,
 * or after MEMFILE_PSS_ROUNDS renewals (what others share with it changes its PSS too). */
#define MEMFILE_MOVED_KB 1024
#define MEMFILE_PSS_ROUNDS 6

/* One renewal, every MEMFILE_INTERVAL_MS: the file is rewritten only when its figure (in MiB,
 * what `botdesk list` shows) changed, and otherwise only its mtime is renewed (readers take a
 * figure older than 30 s for a session that no longer renews it). An idle desktop then costs
 * a few statm reads per round instead of a walk of every page table and a rename. */
int memfile_renew(struct memfile *m, const char *env_path);

/* The first figure, once the desktop has settled. */
#define MEMFILE_FIRST_MS 2000

/* Writes "pss_kb=N\n" to MEMFILE_NAME beside env_path (write-then-rename, 0600). */
int memfile_publish(const char *env_path, uint64_t pss_kb);
/* Removes it (the desktop is over). */
void memfile_remove(const char *env_path);
