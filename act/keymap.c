#include "keymap.h"

#include <X11/keysym.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>

#include "array.h"

/* The level a key of type t is at with the modifiers state. */
static unsigned level_for(const XkbKeyTypeRec *t, unsigned state)
{
	unsigned m = state & t->mods.mask;
	for (int i = 0; i < t->map_count; i++) {
		if (t->map[i].active && t->map[i].mods.mask == m) {
			return t->map[i].level;
		}
	}
	return 0;
}

static unsigned popcount(unsigned v)
{
	return (unsigned)__builtin_popcount(v);
}

/* The modifiers to hold (fewest first) for level l of a key of type t, given the locked
 * modifiers: only modifiers some key sets while held, never Lock (that would toggle). */
static bool mask_for_level(const struct keymap *km, const XkbKeyTypeRec *t, unsigned l,
			   uint8_t *ret)
{
	bool found = false;
	unsigned best = 0;
	for (int i = -1; i < t->map_count; i++) {
		unsigned m = i < 0 ? 0 : t->map[i].mods.mask;
		if (i >= 0 && (!t->map[i].active || t->map[i].level != l)) {
			continue;
		}
		if (m & LockMask) {
			continue;
		}
		bool holdable = true;
		for (unsigned b = 0; b < 8; b++) {
			if ((m & (1u << b)) && !km->modkey[b]) {
				holdable = false;
			}
		}
		if (!holdable || level_for(t, m | km->locked) != l) {
			continue;
		}
		if (!found || popcount(m) < popcount(best)) {
			best = m;
			found = true;
		}
	}
	*ret = (uint8_t)best;
	return found;
}

/* The keys that set a modifier while held. Mode_switch is left out on purpose: under XKB it
 * switches the group instead. */
static bool holds_modifier(KeySym ks)
{
	switch (ks) {
	case XK_Shift_L:
	case XK_Shift_R:
	case XK_Control_L:
	case XK_Control_R:
	case XK_Alt_L:
	case XK_Alt_R:
	case XK_Meta_L:
	case XK_Meta_R:
	case XK_Super_L:
	case XK_Super_R:
	case XK_Hyper_L:
	case XK_Hyper_R:
	case XK_ISO_Level3_Shift:
	case XK_ISO_Level5_Shift:
		return true;
	}
	return false;
}

/* The group a key is read in: the current one, brought into the key's range as its type says. */
static unsigned key_group(XkbDescPtr xkb, unsigned kc, unsigned group)
{
	unsigned n = XkbKeyNumGroups(xkb, kc);
	if (group < n) {
		return group;
	}
	unsigned char info = XkbKeyGroupInfo(xkb, kc);
	switch (XkbOutOfRangeGroupAction(info)) {
	case XkbClampIntoRange:
		return n - 1;
	case XkbRedirectIntoRange: {
		unsigned g = XkbOutOfRangeGroupNumber(info);
		return g < n ? g : 0;
	}
	default:
		return group % n;
	}
}

int keymap_load(Display *dpy, struct keymap *km)
{
	*km = (struct keymap){0};
	km->xkb = XkbGetMap(dpy, XkbKeyTypesMask | XkbKeySymsMask | XkbModifierMapMask,
			    XkbUseCoreKbd);
	XkbStateRec st;
	if (!km->xkb || !km->xkb->map || XkbGetState(dpy, XkbUseCoreKbd, &st) != Success) {
		keymap_free(km);
		return -EIO;
	}
	XkbDescPtr xkb = km->xkb;
	km->group = st.group;
	km->locked = st.locked_mods;
	for (unsigned kc = xkb->min_key_code; kc <= xkb->max_key_code && kc < 256; kc++) {
		unsigned mods = xkb->map->modmap ? xkb->map->modmap[kc] : 0;
		if (XkbKeyNumGroups(xkb, kc) == 0) {
			if (!mods) {
				km->spare[km->n_spare++] = (uint8_t)kc;
			}
			continue;
		}
		KeySym base = XkbKeySymEntry(xkb, kc, 0, 0);
		for (unsigned b = 0; b < 8; b++) {
			if ((mods & (1u << b)) && !km->modkey[b] && holds_modifier(base)) {
				km->modkey[b] = (uint8_t)kc;
			}
		}
	}
	size_t cap = 0;
	for (unsigned kc = xkb->min_key_code; kc <= xkb->max_key_code && kc < 256; kc++) {
		if (XkbKeyNumGroups(xkb, kc) == 0) {
			continue;
		}
		unsigned g = key_group(xkb, kc, km->group);
		const XkbKeyTypeRec *t = XkbKeyKeyType(xkb, kc, g);
		for (unsigned l = 0; l < t->num_levels; l++) {
			KeySym ks = XkbKeySymEntry(xkb, kc, l, g);
			uint8_t mask;
			if (ks == NoSymbol || !mask_for_level(km, t, l, &mask)) {
				continue;
			}
			if (ARRAY_RESERVE(km->e, cap, km->n + 1, 512) < 0) {
				keymap_free(km);
				return -ENOMEM;
			}
			km->e[km->n++] = (struct keymap_entry){
				.ks = ks,
				.ucs = xkb_keysym_to_utf32((xkb_keysym_t)ks),
				.kc = (uint8_t)kc,
				.mask = mask,
			};
		}
	}
	return 0;
}

void keymap_free(struct keymap *km)
{
	if (km->xkb) {
		XkbFreeKeyboard(km->xkb, 0, True);
	}
	free(km->e);
	*km = (struct keymap){0};
}

static bool is_keypad(KeySym ks)
{
	return ks >= XK_KP_Space && ks <= XK_KP_9;
}

/* The best entry matching: fewest modifiers, and the main keys before the keypad (whose
 * meaning follows Num Lock). */
static int find(const struct keymap *km, KeySym ks, uint32_t ucs, uint8_t *ret_kc,
		uint8_t *ret_mask)
{
	const struct keymap_entry *best = NULL;
	for (size_t i = 0; i < km->n; i++) {
		const struct keymap_entry *e = &km->e[i];
		if (ks ? e->ks != ks : e->ucs != ucs) {
			continue;
		}
		if (!best || (is_keypad(best->ks) && !is_keypad(e->ks)) ||
		    (is_keypad(best->ks) == is_keypad(e->ks) &&
		     popcount(e->mask) < popcount(best->mask))) {
			best = e;
		}
	}
	if (!best) {
		return -ENOENT;
	}
	*ret_kc = best->kc;
	*ret_mask = best->mask;
	return 0;
}

int keymap_find_keysym(const struct keymap *km, KeySym ks, uint8_t *ret_kc, uint8_t *ret_mask)
{
	return ks == NoSymbol ? -ENOENT : find(km, ks, 0, ret_kc, ret_mask);
}

int keymap_find_char(const struct keymap *km, uint32_t ucs, uint8_t *ret_kc, uint8_t *ret_mask)
{
	return ucs == 0 ? -ENOENT : find(km, 0, ucs, ret_kc, ret_mask);
}

KeySym keymap_char_keysym(uint32_t ucs)
{
	xkb_keysym_t ks = xkb_utf32_to_keysym(ucs);
	return ks ? (KeySym)ks : (KeySym)(0x01000000u + ucs);
}
