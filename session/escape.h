/* Quoting for the two formats the session generates from values it does not control (a profile
 * name, a browser command): xfconf's XML and desktop entries. */
#pragma once

#include <stdio.h>

/* Writes s to f with XML's five special characters as entities. */
void escape_xml_text(FILE *f, const char *s);

/* Writes argv to f as the value of a desktop entry's Exec= key: each argument quoted when it
 * holds a reserved character, '%' doubled, and the string-level escapes applied on top, so the
 * launcher runs exactly these arguments. */
void escape_desktop_exec(FILE *f, char *const argv[]);

/* Writes s to f as a desktop entry string value (one line, backslash escapes). */
void escape_desktop_string(FILE *f, const char *s);
