/* The desktop's memory, published for `botdesk list`: a PSS figure needs a walk of every
 * process's page tables (about 4 ms per desktop), too slow for a list of twenty desktops to
 * make each time, so the session makes it now and then and leaves it beside its env file. */
#pragma once

#include <stdint.h>

#include "supervisor.h"

/* How often the figure is renewed while the desktop runs. */
#define MEMFILE_INTERVAL_MS 10000
/* The file's name in the profile's directory (the env file's). */
#define MEMFILE_NAME "memory"

/* The PSS, in kB, of this process and every process below it. */
uint64_t memfile_pss_kb(void);

/* The first figure, once the desktop has settled. */
#define MEMFILE_FIRST_MS 2000

/* Writes "pss_kb=N\n" to MEMFILE_NAME beside env_path (write-then-rename, 0600). */
int memfile_publish(const char *env_path, uint64_t pss_kb);
/* Removes it (the desktop is over). */
void memfile_remove(const char *env_path);
