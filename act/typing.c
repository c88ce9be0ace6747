#include "typing.h"

#include <X11/extensions/XTest.h>
#include <X11/keysym.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

int typist_begin(struct typist *t, Display *dpy, struct error *err)
{
	t->dpy = dpy;
	t->held = 0;
	t->n_slots = 0;
	t->remapped = 0;
	t->stopped = false;
	t->done = 0;
	int r = keymap_load(dpy, &t->km);
	if (r < 0) {
		return error_set(err, r, "cannot read the desktop's keyboard map (XKB)");
	}
	return 0;
}

static void key(struct typist *t, uint8_t kc, bool down)
{
	XTestFakeKeyEvent(t->dpy, kc, down, CurrentTime);
}

/* Opens one unit (a character, a combo): its events go out together, only while the agent still
 * holds the lease. One fstat and a flock: a thousandth of the round trip that closes it. */
static int unit_begin(struct typist *t)
{
	if (t->stopped || (t->watch && lease_watch_enter(t->watch) < 0)) {
		t->stopped = true;
		return -EACCES;
	}
	return 0;
}

/* Closes it once the server has every event of it: a take waiting for the lock then knows
 * they arrived before it releases the agent's keys. A round trip a unit, where the server's
 * handling of the keys (each goes to the focused client) takes longer anyway. */
static void unit_end(struct typist *t)
{
	if (t->watch && t->watch->inside) {
		XSync(t->dpy, False);
		lease_watch_leave(t->watch);
	}
}

/* Holds exactly the modifiers in mask (of those typing holds). */
static void set_mods(struct typist *t, uint8_t mask)
{
	for (unsigned b = 0; b < 8; b++) {
		uint8_t bit = (uint8_t)(1u << b);
		if ((t->held & bit) && !(mask & bit)) {
			key(t, t->km.modkey[b], false);
		}
	}
	for (unsigned b = 0; b < 8; b++) {
		uint8_t bit = (uint8_t)(1u << b);
		if (!(t->held & bit) && (mask & bit)) {
			key(t, t->km.modkey[b], true);
		}
	}
	t->held = mask;
}

/* Waits ms (a bound, not a sleep on an event: see TYPING_SETTLE_MS), or until a signal when
 * stoppable. true when a signal came. */
static bool pause_ms(struct typist *t, unsigned ms, bool stoppable)
{
	struct pollfd pfd = {.fd = stoppable ? t->sigfd : -1, .events = POLLIN};
	return poll(&pfd, 1, (int)ms) > 0;
}

static bool signalled(struct typist *t)
{
	return t->sigfd >= 0 && pause_ms(t, 0, true);
}

/* Gives every spare keycode back: after the server has taken the keys, and clients had time to
 * translate them. */
static void give_back(struct typist *t)
{
	if (t->n_slots == 0) {
		return;
	}
	XSync(t->dpy, False);
	pause_ms(t, TYPING_SETTLE_MS, false);
	KeySym none[2] = {NoSymbol, NoSymbol};
	for (size_t i = 0; i < t->n_slots; i++) {
		XChangeKeyboardMapping(t->dpy, t->slot[i].kc, 2, none, 1);
	}
	XSync(t->dpy, False);
	t->n_slots = 0;
}

/* A spare keycode carrying ks: one already carrying it, else the next free one (all given back
 * first when none is left). */
static int carry(struct typist *t, KeySym ks, uint8_t *ret_kc, struct error *err)
{
	for (size_t i = 0; i < t->n_slots; i++) {
		if (t->slot[i].ks == ks) {
			*ret_kc = t->slot[i].kc;
			return 0;
		}
	}
	if (t->km.n_spare == 0) {
		return error_set(
			err, -ENOSPC,
			"the desktop's keyboard map has no free keycode to type a character its layout lacks (keysym 0x%lx)",
			(unsigned long)ks);
	}
	if (t->n_slots == t->km.n_spare) {
		set_mods(t, 0);
		give_back(t);
	}
	/* On both levels: a single keysym with a case would become XKB's two-level alphabetic
	 * key (lower case without Shift), and Ä would type ä. */
	uint8_t kc = t->km.spare[t->n_slots];
	KeySym both[2] = {ks, ks};
	XChangeKeyboardMapping(t->dpy, kc, 2, both, 1);
	t->slot[t->n_slots].kc = kc;
	t->slot[t->n_slots].ks = ks;
	t->n_slots++;
	t->remapped++;
	*ret_kc = kc;
	return 0;
}

static int type_one(struct typist *t, uint32_t c, struct error *err)
{
	uint8_t kc, mask;
	int r;
	if (c == '\n' || c == '\t') {
		r = keymap_find_keysym(&t->km, c == '\n' ? XK_Return : XK_Tab, &kc, &mask);
	} else {
		r = keymap_find_char(&t->km, c, &kc, &mask);
	}
	if (r < 0) {
		/* A temporary keysym carries one level: no modifier changes it. */
		mask = 0;
		r = carry(t, keymap_char_keysym(c), &kc, err);
		if (r < 0) {
			return r;
		}
	}
	set_mods(t, mask);
	key(t, kc, true);
	key(t, kc, false);
	return 0;
}

int typist_text(struct typist *t, const uint32_t *cps, size_t n, unsigned delay_ms,
		struct error *err)
{
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		r = unit_begin(t);
		if (r < 0) {
			break;
		}
		r = type_one(t, cps[i], err);
		unit_end(t);
		if (r < 0) {
			break;
		}
		t->done++;
		if (i + 1 == n) {
			break;
		}
		if (delay_ms > 0) {
			/* Paced: each key reaches the desktop before the pause. */
			XSync(t->dpy, False);
			if (pause_ms(t, delay_ms, true)) {
				r = -EINTR;
			}
		} else if (i % 64 == 63 && signalled(t)) {
			r = -EINTR;
		}
	}
	if (r == -EINTR) {
		error_set(err, r, "typing was interrupted by a signal");
	}
	return r;
}

int typist_combo(struct typist *t, const struct combo *c, enum act_key_mode mode, struct error *err)
{
	uint8_t kcs[KEYS_COMBO_MAX + 8];
	size_t n = 0;
	uint8_t held_bits = 0;
	for (size_t i = 0; i + 1 < c->n; i++) {
		uint8_t kc, mask;
		if (keymap_find_keysym(&t->km, c->ks[i], &kc, &mask) < 0) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"the key %s is not on the desktop's keyboard layout, so it cannot be held",
				XKeysymToString(c->ks[i]) ? XKeysymToString(c->ks[i]) : "?");
		}
		kcs[n++] = kc;
		held_bits |= t->km.xkb->map->modmap[kc];
	}
	KeySym last = c->ks[c->n - 1];
	uint8_t kc, mask = 0;
	if (keymap_find_keysym(&t->km, last, &kc, &mask) < 0) {
		uint32_t ucs = 0;
		if (last >= 0x01000000 && last <= 0x0110ffff) {
			ucs = (uint32_t)(last - 0x01000000);
		}
		if (!ucs || keymap_find_char(&t->km, ucs, &kc, &mask) < 0) {
			if (mode != ACT_KEY_TAP) {
				return error_set_kind(
					err, ERROR_BAD_INPUT, -EINVAL,
					"the key %s is not on the desktop's keyboard layout: it can be tapped, not held",
					XKeysymToString(last) ? XKeysymToString(last) : "?");
			}
			mask = 0;
			int r = carry(t, last, &kc, err);
			if (r < 0) {
				return r;
			}
		}
	}
	/* The level's modifiers (shift for 'A'), unless the combo holds them already. */
	for (unsigned b = 0; b < 8; b++) {
		if ((mask & (1u << b)) && !(held_bits & (1u << b)) && t->km.modkey[b]) {
			kcs[n++] = t->km.modkey[b];
		}
	}
	int r = unit_begin(t);
	if (r < 0) {
		return r;
	}
	if (mode != ACT_KEY_RELEASE) {
		for (size_t i = 0; i < n; i++) {
			key(t, kcs[i], true);
		}
		key(t, kc, true);
	}
	if (mode != ACT_KEY_PRESS) {
		key(t, kc, false);
		for (size_t i = n; i-- > 0;) {
			key(t, kcs[i], false);
		}
	}
	unit_end(t);
	t->done++;
	return 0;
}

int typist_end(struct typist *t)
{
	if (t->dpy) {
		/* Once the lease changed, the take released them: nothing more is sent, and
		 * what was typed in full stays counted as such. */
		if (t->held && !t->stopped && (!t->watch || lease_watch_enter(t->watch) == 0)) {
			set_mods(t, 0);
			unit_end(t);
		}
		XSync(t->dpy, False);
		give_back(t);
	}
	keymap_free(&t->km);
	return 0;
}
