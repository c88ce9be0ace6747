/* Every setting the runner reads, from the environment and botdesk.conf (the environment wins),
 * validated once. Nothing below this module reads the environment. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

struct settings {
	char *state_root;  /* BOTDESK_STATE_DIR, else $XDG_STATE_HOME/botdesk, else
			      ~/.local/state/botdesk */
	char *config_file; /* $XDG_CONFIG_HOME/botdesk/botdesk.conf (may not exist) */
	char *launcher;    /* BOTDESK_LAUNCHER, else the installed botdesk-session */
	bool launcher_is_default;
	char *x_lock_dir;          /* BOTDESK_X_LOCK_DIR, default /tmp */
	char *x_unix_table;        /* BOTDESK_X_UNIX_TABLE, default /proc/net/unix */
	char *alloc_lock;          /* BOTDESK_ALLOC_LOCK */
	unsigned band_lo, band_hi; /* BOTDESK_DISPLAY_BAND, default 20-89 */
	uint64_t min_free_mb;      /* BOTDESK_MIN_FREE_MB, default 1536; 0 disables the gate */
	char *meminfo;             /* BOTDESK_MEMINFO, default /proc/meminfo */
	char *cgroup_root;         /* BOTDESK_CGROUP_ROOT, default /sys/fs/cgroup */
	char geometry[32];         /* BOTDESK_GEOMETRY, default 1440x900 */
	unsigned width, height;
	char *helper;          /* BOTDESK_HELPER, default the installed botdesk-helper */
	char *thumbnailer;     /* BOTDESK_THUMBNAILER, default the installed botdesk-thumbnail */
	char *browser;         /* BOTDESK_BROWSER, optional: a browser program for the dock */
	char *package_manager; /* BOTDESK_PACKAGE_MANAGER: auto (default), apt, dnf, pacman, none */
	char *search_path;     /* PATH, where required programs are looked for */
	char *act;             /* BOTDESK_ACT, default the installed botdesk-act */
	char *mcp;             /* BOTDESK_MCP, default the installed botdesk-mcp */
	bool log_typed_text;   /* BOTDESK_LOG_TYPED_TEXT: the action log keeps typed text */
};

int settings_load(struct settings *ret, struct error *err);
void settings_free(struct settings *s);
