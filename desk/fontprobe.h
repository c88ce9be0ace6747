/* Whether the desktop can draw international text: fontconfig (fc-list) is asked for a font that
 * covers Japanese (standing for CJK) and one that covers the emoji set. What `botdesk doctor`
 * and `botdesk install --fonts` look at; the program is a setting, so a test can answer for it. */
#pragma once

enum fonts_missing {
	FONTS_MISSING_CJK = 1u << 0,
	FONTS_MISSING_EMOJI = 1u << 1,
};

/* Sets *ret_missing to the FONTS_MISSING_* bits of what fc_list finds no font for. 0, or -errno
 * when fc_list could not be run or did not answer in time (then *ret_missing is both bits). */
int fonts_probe(const char *fc_list, unsigned *ret_missing);
