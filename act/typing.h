/* Typing through XTEST whatever the desktop's layout: every character is looked up in the current
 * map (keymap.h) and typed with the modifiers its level needs; a character the layout cannot
 * produce (CJK, emoji, a € under us) goes on a spare keycode for the time it takes, and every
 * spare keycode is given back as it was. Also the key combos of `botdesk key`. */
#pragma once

#include <X11/Xlib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "actargs.h"
#include "error.h"
#include "keymap.h"
#include "keys.h"
#include "lease.h"

/* How long a temporary keysym stays on its keycode after its last use before the keycode is
 * given back (or reused). Clients read a changed map lazily, when they translate the key event
 * that follows the change: give it back before they have, and they see no symbol. No event
 * tells us when they have; this bound is generous for a desktop that is not swapping. */
#ifdef BOTDESK_SANITIZED
/* Where every client, the tests' recorder included, runs several times slower. */
#define TYPING_SETTLE_MS 500
#else
#define TYPING_SETTLE_MS 100
#endif

struct typist {
	Display *dpy;
	struct keymap km;
	uint8_t held; /* modifiers held for the current level */
	struct {
		uint8_t kc;
		KeySym ks;
	} slot[256];
	size_t n_slots;  /* spare keycodes that carry a keysym now */
	size_t remapped; /* keysyms put on spare keycodes, in all */
	/* Each character or combo is sent inside the watch (lease.h) and waited for: a human's
	 * take stops typing between two of them, and returns only once the last one arrived.
	 * NULL: no lease (the tests). */
	struct lease_watch *watch;
	bool stopped; /* the watch found the lease changed: nothing more is sent */
	size_t done;  /* characters or combos sent whole */
	int sigfd;    /* a signalfd that stops typing between keys, or -1 */
};

/* Reads the map. 0 or -errno. */
int typist_begin(struct typist *t, Display *dpy, struct error *err);

/* Types n code points ('\n' is Return, '\t' Tab), delay_ms apart (0: as fast as the server takes
 * them). -EINTR when a signal stopped it, -EACCES when the lease changed (stopped set; done says
 * how many went out). */
int typist_text(struct typist *t, const uint32_t *cps, size_t n, unsigned delay_ms,
		struct error *err);

/* Taps, presses or releases a combo. Pressing and releasing take only keys on the layout.
 * -EACCES when the lease changed. */
int typist_combo(struct typist *t, const struct combo *c, enum act_key_mode mode,
		 struct error *err);

/* Releases what typing held (unless the lease changed: the take released it), waits for the
 * server, and gives every spare keycode back. Always call it, after an error too. */
int typist_end(struct typist *t);
