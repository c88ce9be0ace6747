/* Which of the desktop's required programs (policy/packages.tsv) this host lacks. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "policy.h"

/* The name a program is shown by: its last alternative ("Xvnc" for "Xtigervnc|Xvnc"). */
const char *programs_display_name(const struct policy_program *p);

/* Whether name is an executable regular file in one of search_path's absolute directories (the
 * session's path_find: empty and relative entries are skipped). */
bool programs_on_path(const char *search_path, const char *name);

/* Fills missing[] (NULL-terminated, capacity POLICY_PROGRAM_COUNT + 1) with the display names
 * of the required programs none of whose alternatives is on search_path; returns how many. */
size_t programs_missing(const char *search_path, const char *missing[POLICY_PROGRAM_COUNT + 1]);
