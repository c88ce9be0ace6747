/* What desk/settings*.c share and nothing else sees: the settings' table (environment name,
 * botdesk.conf key, default), the values read before they are checked, and where each came from,
 * so an error names botdesk.conf when that is the culprit. settings.c reads them,
 * settingspaths.c finds the files and directories, settingscheck.c checks them into struct
 * settings. */
#pragma once

#include <stdbool.h>

#include "error.h"
#include "hostpolicy.h"
#include "settings.h"

/* A setting's environment name, its botdesk.conf key and its default (NULL: computed). */
struct setting_def {
	const char *env;
	const char *key;
	const char *def;
};

enum {
	S_LAUNCHER,
	S_X_LOCK_DIR,
	S_X_UNIX_TABLE,
	S_ALLOC_LOCK,
	S_DISPLAY_BAND,
	S_MIN_FREE_MB,
	S_MEMINFO,
	S_CGROUP_ROOT,
	S_GEOMETRY,
	S_HELPER,
	S_THUMBNAILER,
	S_BROWSER,
	S_PACKAGE_MANAGER,
	S_PASS_ENV,
	S_IDLE_STOP,
	S_VIEW_GROUP,
	S_VIEW_DIR,
	S_IMAGE_MARKER,
	S_MAX_MEMORY_MB,
	S_ACT,
	S_ACT_POINTER,
	S_MCP,
	S_WEB,
	S_WEB_DATA,
	S_NOVNC,
	S_FC_LIST,
	S_LOG_TYPED_TEXT,
	S_COMPUTER_SCREENSHOTS,
	/* The flight recorder (issue 28). */
	S_RECORD,
	S_RECORD_MAX_MB,
	S_RECORDER,
	S_FFMPEG,
	S_ACT_A11Y, /* the accessibility tree's program (issue 27) */
	S_COUNT,
};

extern const struct setting_def settings_defs[S_COUNT];

/* The values as read (malloc'ed strings, NULL: unset) and their origins (the botdesk.conf path,
 * NULL: the environment or the default). */
struct setting_values {
	char *v[S_COUNT];
	const char *origin[S_COUNT];
};

/* -EINVAL naming the setting where it came from (botdesk.conf's key, else the variable). */
int setting_error(struct error *err, const struct setting_values *sv, int which, const char *value,
		  const char *what);

/* settingspaths.c: the state root and botdesk.conf's path; whether the host's policy binds the
 * user's own settings; the allocation lock's default place. */
int settings_resolve_paths(struct settings *s, struct error *err);
bool settings_policy_binds(const struct hostpolicy *hp);
char *settings_alloc_lock(bool bound);

/* settingscheck.c: the defaults filled in, every value checked, and the checked strings moved
 * into s. */
int settings_validate(struct settings *s, struct setting_values *sv, struct error *err);
