/* The keyboard shortcuts channel of a new profile, made from the system's defaults.
 *
 * At its first start on a profile, each shortcut provider (xfwm4, and xfsettingsd's "commands")
 * copies its default shortcuts into the profile one xfconf property at a time, and xfwm4 grabs
 * every key again after each one: some 100 round trips through the bus and thousands of X
 * requests, half a second of CPU in xfwm4, Xvnc and xfconfd, and the window manager owning the
 * screen 0.8 s later than on a warm profile. Seeding the channel as it ends up (each provider's
 * "default" block copied as its "custom" one, marked override, and the providers listed) skips
 * all of that. */
#pragma once

#include <stddef.h>

/* The system's channel file, where the Xfce packages put it. */
#define SEEDKEYS_SYSTEM_FILE \
	"/etc/xdg/xfce4/xfconf/xfce-perchannel-xml/xfce4-keyboard-shortcuts.xml"

/* From the text of the system's file, the profile's (malloc'ed, *ret_len bytes). -EPROTO when the
 * text is not laid out as xfconf writes it (each provider's block at two spaces, its "default"
 * block at four, no "custom" block or providers list yet): the providers then do it themselves,
 * as before. */
int seedkeys_from_system(const char *text, size_t len, char **ret, size_t *ret_len);
