/* --help's lines, one shape for every table that makes them (runner/main.c's commands,
 * act/acttable.c's actions). */
#pragma once

#include <stdio.h>

#define HELP_WIDTH 79
#define HELP_INDENT 6

/* "  NAME SYNOPSIS" word by word, a word that would pass HELP_WIDTH starting a new line indented
 * HELP_INDENT; no line break at the end. Returns the column it ended at. */
int help_synopsis(FILE *f, const char *name, const char *synopsis);
