/* The XKB data Xvnc compiles its keymaps from, less the one action that ends the server. An XKB
 * key action Terminate() (the "zap", Ctrl+Alt+BackSpace under terminate:ctrl_alt_bksp, or any key
 * a client puts the Terminate_Server keysym on) makes the X server exit at once, taking the whole
 * desktop with it; Xorg has DontZap against that, Xvnc nothing. Its keymaps get their actions from
 * the compat files' `interpret` statements, so the desktop's Xvnc is started with -xkbdir naming
 * a copy of the system's XKB directory whose compat files have no interpretation with that
 * action: the server's own keymap, and every keymap a client asks it to compile by name later
 * (setxkbmap, the desktop's keyboard settings), then has no key that can end it. */
#pragma once

#include <stddef.h>

/* Where Debian, Fedora and Arch keep xkeyboard-config's data (and where their Xvnc looks). */
#define XKBSAFE_SYSTEM_DIR "/usr/share/X11/xkb"
/* The copy's name in the profile's private directory. */
#define XKBSAFE_DIR "xkb"

/* Removes from the compat text (len bytes, NUL-terminated) every interpret statement that names
 * the Terminate action (or the keysym Terminate_Server); returns the new length. */
size_t xkbsafe_filter(char *text, size_t len);

/* Builds state_dir/xkb afresh from system_dir: rules, keycodes, types, symbols and geometry as
 * symbolic links to the system's, compat as filtered copies. ret gets its path. 0 or -errno. */
int xkbsafe_prepare(const char *state_dir, const char *system_dir, char *ret, size_t size);
