#include "keys.h"

#include <X11/keysym.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <xkbcommon/xkbcommon.h>

#include "utf8.h"
#include "util.h"

/* The names agents use that are not X keysym names, or not in X's spelling. */
static const struct {
	const char *name;
	KeySym ks;
} aliases[] = {
	{"ctrl", XK_Control_L},
	{"control", XK_Control_L},
	{"shift", XK_Shift_L},
	{"alt", XK_Alt_L},
	{"meta", XK_Alt_L},
	{"super", XK_Super_L},
	{"win", XK_Super_L},
	{"windows", XK_Super_L},
	{"cmd", XK_Super_L},
	{"logo", XK_Super_L},
	{"hyper", XK_Hyper_L},
	{"altgr", XK_ISO_Level3_Shift},
	{"enter", XK_Return},
	{"return", XK_Return},
	{"esc", XK_Escape},
	{"escape", XK_Escape},
	{"tab", XK_Tab},
	{"space", XK_space},
	{"backspace", XK_BackSpace},
	{"del", XK_Delete},
	{"delete", XK_Delete},
	{"ins", XK_Insert},
	{"insert", XK_Insert},
	{"home", XK_Home},
	{"end", XK_End},
	{"pgup", XK_Prior},
	{"pageup", XK_Prior},
	{"pgdn", XK_Next},
	{"pagedown", XK_Next},
	{"up", XK_Up},
	{"down", XK_Down},
	{"left", XK_Left},
	{"right", XK_Right},
	{"print", XK_Print},
	{"printscreen", XK_Print},
	{"menu", XK_Menu},
	{"capslock", XK_Caps_Lock},
	{"plus", XK_plus},
	{"minus", XK_minus},
};

/* Keysyms whose XKB actions act on the X server itself, not on a client: Terminate_Server ends
 * Xvnc and the whole desktop with it (the "zap"), and the XF86 server keys switch virtual
 * terminals, break or kill grabs, change the video mode or dump the server's state to its log.
 * The desktop is started so that they do nothing (Xvnc's keymap has no such action; see
 * docs/SECURITY.md), and an agent is refused them anyway: a key an agent sends must never be
 * able to end or disturb its own desktop. */
static bool server_key(KeySym ks)
{
	return ks == XK_Terminate_Server || (ks >= 0x1008FE01 && ks <= 0x1008FE0C) ||
	       (ks >= 0x1008FE20 && ks <= 0x1008FE25);
}

static KeySym lookup(const char *name)
{
	/* X's own names first: they are case-sensitive ("a" and "A" are different keys). */
	KeySym ks = XStringToKeysym(name);
	if (ks != NoSymbol) {
		return ks;
	}
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++) {
		if (strcasecmp(name, aliases[i].name) == 0) {
			return aliases[i].ks;
		}
	}
	/* f1 ... f35 in lower case. */
	if ((name[0] == 'f' || name[0] == 'F') && name[1] >= '1' && name[1] <= '9') {
		char up[8];
		if (strlen(name) >= sizeof(up)) {
			return NoSymbol;
		}
		snprintf(up, sizeof(up), "F%.6s", name + 1);
		ks = XStringToKeysym(up);
		if (ks != NoSymbol) {
			return ks;
		}
	}
	/* One character: the keysym that stands for it. */
	size_t pos = 0, len = strlen(name);
	uint32_t c;
	if (utf8_next(name, len, &pos, &c) == 0 && pos == len && c >= 0x20) {
		xkb_keysym_t k = xkb_utf32_to_keysym(c);
		return k ? (KeySym)k : (KeySym)(0x01000000u + c);
	}
	return NoSymbol;
}

int keys_parse_combo(const char *text, struct combo *ret, struct error *err)
{
	*ret = (struct combo){0};
	const char *p = text;
	while (*p) {
		/* A '+' where a name should start is the key '+' itself ("ctrl++", "+"). */
		size_t n = *p == '+' ? 1 : strcspn(p, "+");
		char name[64];
		if (n >= sizeof(name)) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "'%.*s' in the combo '%s' is not a key name", (int)n,
					      p, text);
		}
		memcpy(name, p, n);
		name[n] = '\0';
		if (ret->n == KEYS_COMBO_MAX) {
			return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
					      "the combo '%s' has more than %d keys", text,
					      KEYS_COMBO_MAX);
		}
		KeySym ks = lookup(name);
		if (ks == NoSymbol) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"unknown key name '%s' in '%s': use an X keysym name (Return, F4, Page_Up, a), ctrl, alt, shift, super, or one character",
				name, text);
		}
		if (server_key(ks)) {
			return error_set(
				err, -EINVAL,
				"the key '%s' in '%s' is refused: it acts on the X server itself (ending or switching away from the desktop), never on a program",
				name, text);
		}
		ret->ks[ret->n++] = ks;
		p += n;
		if (*p == '+') {
			p++;
			if (!*p) {
				return error_set_kind(
					err, ERROR_BAD_INPUT, -EINVAL,
					"the combo '%s' ends with '+': name the key after it (ctrl+plus, or ctrl++)",
					text);
			}
		}
	}
	if (ret->n == 0) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "'%s' is not a key combo",
				      text);
	}
	return 0;
}
