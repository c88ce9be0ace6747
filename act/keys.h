/* Key combos as agents write them ("ctrl+l", "alt+F4", "Return", "super", "ctrl++"): parsed into
 * keysyms without a connection, so an unknown name is exit 2 before the desktop is touched. */
#pragma once

#include <X11/Xlib.h>
#include <stddef.h>

#include "error.h"

#define KEYS_COMBO_MAX 8 /* keys in one combo */

struct combo {
	KeySym ks[KEYS_COMBO_MAX]; /* modifiers first, as written; the last is the key */
	size_t n;
};

/* -EINVAL with a message naming the combo and the bad name. */
int keys_parse_combo(const char *text, struct combo *ret, struct error *err);
