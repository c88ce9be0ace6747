/* Every setting the runner reads, from the environment and botdesk.conf (the environment wins),
 * validated once. Nothing below this module reads the environment. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "hostpolicy.h"

struct settings {
	char *state_root;  /* BOTDESK_STATE_DIR, else $XDG_STATE_HOME/botdesk, else
			      ~/.local/state/botdesk */
	char *config_file; /* $XDG_CONFIG_HOME/botdesk/botdesk.conf (may not exist) */
	char *launcher;    /* BOTDESK_LAUNCHER, else the installed botdesk-session */
	bool launcher_is_default;
	char *x_lock_dir;          /* BOTDESK_X_LOCK_DIR: the X directory (common/launcher.h) */
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
	char *image_marker;    /* BOTDESK_IMAGE_MARKER: the file botdesk's Dockerfile writes */
	char *search_path;     /* PATH, where required programs are looked for */
	char *pass_env; /* BOTDESK_PASS_ENV: names of the caller's variables the desktop may have on
			   top of the benign fixed list (common/envallow.h), or NULL */
	uint64_t idle_stop_ms; /* BOTDESK_IDLE_STOP_MINUTES, default 30 min; 0 never stops */
	bool view_group;       /* BOTDESK_VIEW_GROUP is set: watchers of that group */
	unsigned view_gid;
	char *view_dir; /* BOTDESK_VIEW_DIR: where view sockets go instead of the profile's dir */
	uint64_t max_memory_mb; /* BOTDESK_MAX_MEMORY_MB: each desktop's own cgroup limit; 0 none */
	bool band_explicit, geometry_explicit; /* set by the user, not defaults */
	struct hostpolicy policy;              /* /etc/botdesk/policy.conf, already applied */
	char *act;                             /* BOTDESK_ACT, default the installed botdesk-act */
	char *act_pointer; /* BOTDESK_ACT_POINTER, default the installed botdesk-act-pointer */
	char *act_a11y;    /* BOTDESK_ACT_A11Y, default the installed botdesk-act-a11y */
	char *mcp;         /* BOTDESK_MCP, default the installed botdesk-mcp */
	char *web;         /* BOTDESK_WEB, default the installed botdesk-web */
	char *web_data;    /* BOTDESK_WEB_DATA: the web page's own files */
	char *novnc;   /* BOTDESK_NOVNC: Debian's noVNC, which botdesk web serves and install --web
			* installs */
	char *fc_list; /* BOTDESK_FC_LIST: fontconfig's fc-list, asked whether the international
			* fonts (install --fonts) are there */
	bool log_typed_text; /* BOTDESK_LOG_TYPED_TEXT: the action log keeps typed text */
	/* Where this library's warnings go (something done or not done that the operation still
	 * survives: a retry on another display, a limit not enforced). main() decides, as for
	 * every message (common/log.h); unset, they are dropped. */
	void (*warn)(void *data, const char *msg);
	void *warn_data;
	/* BOTDESK_COMPUTER_SCREENSHOTS: the MCP `computer` tool answers every action with a
	 * settled screenshot too, as Anthropic's reference harness does. */
	bool computer_screenshots;
	/* The flight recorder (issue 28). */
	bool record_always;     /* BOTDESK_RECORD: always (every desktop from its start) or off */
	uint64_t record_max_mb; /* BOTDESK_RECORD_MAX_MB: all recordings; the oldest go first */
	char *recorder;         /* BOTDESK_RECORDER, default the installed botdesk-record */
	char *ffmpeg;           /* BOTDESK_FFMPEG, default /usr/bin/ffmpeg: export's encoder */
};

/* A warning through s->warn, formatted. */
void desk_warn(const struct settings *s, const char *fmt, ...) _printf_(2, 3);

int settings_load(struct settings *ret, struct error *err);
void settings_free(struct settings *s);
