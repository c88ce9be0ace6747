/* The helper's output, relayed to the user's terminal or log (desk/installrelay.c). */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "proto.h"

#define INSTALL_RELAY_TAIL_LINES 15

struct install_relay {
	FILE *out;
	bool tty, bar, quiet, utf8;
	char tail[INSTALL_RELAY_TAIL_LINES][PROTO_LINE_MAX + 1];
	size_t tail_next;
	char command[PROTO_LINE_MAX + 1]; /* the decide reply */
};

/* Whether the user's terminal takes UTF-8, as far as the locale says. Without it, every byte
 * >= 0x80 is replaced: the continuation bytes of valid UTF-8 include C1 controls. */
bool install_relay_locale_utf8(void);
/* One line of the helper's (a helperclient_line_fn; userdata is the struct install_relay). */
void install_relay_line(const char *text, void *userdata);
/* Ends the bar; when failed and on a terminal, shows the last lines. */
void install_relay_end(struct install_relay *rl, bool failed);

/* Makes one line of the helper's output safe to print: C0 and C1 controls and DEL become '?', and
 * so does every other byte >= 0x80 unless it belongs to a valid UTF-8 sequence and utf8 is set
 * (the user's locale is UTF-8). */
void install_sanitize(char *line, bool utf8);
