/* Escaping as tables: one row per character that a format writes otherwise, so JSON's, XML's and
 * desktop entries' rules are data side by side and one loop applies them all. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct escape_table {
	const char *as[128]; /* what an ASCII character is written as; NULL: itself */
	/* Any other control character (below 0x20, and DEL) as \u00XX, as JSON needs. */
	bool control_as_unicode;
};

/* JSON string contents: the quote, the backslash and every control character. */
extern const struct escape_table escape_json;
/* JSON string contents safe inside HTML too: also < and > as \u003c and \u003e. */
extern const struct escape_table escape_json_html;
/* XML text and attribute values: its five special characters as entities. */
extern const struct escape_table escape_xml;
/* A desktop entry's string value: one line, backslash escapes. */
extern const struct escape_table escape_desktop;

/* Writes len bytes of s to f through t. Bytes from 128 up (UTF-8) pass as they are. */
void escape_write(FILE *f, const char *s, size_t len, const struct escape_table *t);

/* escape_write() into out (size bytes, NUL-terminated): 0, or -ENOSPC when it does not fit. */
int escape_to_buf(char *out, size_t size, const char *s, size_t len, const struct escape_table *t);

/* escape_write() of s between double quotes: a JSON string literal. */
void escape_json_string(FILE *f, const char *s, size_t len);
