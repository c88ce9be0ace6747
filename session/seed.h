/* The profile's Xfce configuration, seeded into its XDG_CONFIG_HOME before any Xfce program (and
 * so xfconfd, which caches channels and would overwrite later edits) starts. Only files that are
 * absent are written: whatever the user changed since stays. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "dock.h"
#include "error.h"

/* The desktop's solid colour: the root window's, which is the whole background of the lean
 * desktop, and what the full one's xfdesktop paints. */
#define SEED_ROOT_RGB 0x1c1f29

/* Where xfconf keeps channels and the panel its launchers, under XDG_CONFIG_HOME. */
#define SEED_XFCONF_DIR "xfce4/xfconf/xfce-perchannel-xml"
#define SEED_PANEL_DIR "xfce4/panel"
#define SEED_AUTOSTART_DIR "autostart"
/* The first plugin id of the dock's launchers. */
#define SEED_DOCK_FIRST_ID 21

struct seed_opts {
	const char *profile;
	const struct dock *dock;
	bool tray; /* the full desktop's panel has a notification area; the lean one does not */
};

/* Creates config_home (0700) if absent and seeds it. */
int seed_config(const char *config_home, const struct seed_opts *o, struct error *err);

/* The generated files, for tests: each writes one whole file to f. */
void seed_write_xfwm4(FILE *f, const char *profile);
/* xfwm4's defaults, as property lines of its "general" block (seedwm.c); NULL-terminated. */
extern const char *const seed_xfwm4_defaults[];
void seed_write_panel(FILE *f, const struct dock *dock, bool tray);

/* The autostart entries masked with Hidden=true: they want logind, polkit or a keyring, or raise
 * dialogs and screen lockers a headless desktop must never show. NULL-terminated. */
extern const char *const seed_masked_autostarts[];
