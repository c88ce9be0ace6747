/* The desktop's keyboard map as XKB has it now: which keycode, with which modifiers held,
 * produces a keysym or a character in the current group, which keycodes are free for a
 * temporary keysym, and which key to hold for each modifier. */
#pragma once

#include <X11/XKBlib.h>
#include <X11/Xlib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct keymap_entry {
	KeySym ks;
	uint32_t ucs; /* the character ks stands for, 0 for none */
	uint8_t kc;
	uint8_t mask; /* real modifiers to hold */
};

struct keymap {
	XkbDescPtr xkb;
	unsigned group;  /* the current effective group */
	unsigned locked; /* modifiers locked now (Caps Lock, Num Lock) */
	struct keymap_entry *e;
	size_t n;
	uint8_t modkey[8]; /* the key that sets each real modifier (Shift ... Mod5), 0: none */
	uint8_t spare[256];
	size_t n_spare; /* keycodes with no symbols and no modifier */
};

/* Reads the map and the keyboard's state (two round trips). 0, -EIO or -ENOMEM. */
int keymap_load(Display *dpy, struct keymap *km);
void keymap_free(struct keymap *km);

/* The keycode and modifiers producing ks, or the character ucs: -ENOENT when the current layout
 * cannot produce it (then a spare keycode has to carry it). */
int keymap_find_keysym(const struct keymap *km, KeySym ks, uint8_t *ret_kc, uint8_t *ret_mask);
int keymap_find_char(const struct keymap *km, uint32_t ucs, uint8_t *ret_kc, uint8_t *ret_mask);

/* The keysym that stands for a character: a legacy one where X has it (EuroSign), else the
 * Unicode keysym 0x01000000 + ucs. */
KeySym keymap_char_keysym(uint32_t ucs);
