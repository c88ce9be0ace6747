/* What `find` and `--element` match, without AT-SPI (act/a11y.h walks the tree): roles by
 * AT-SPI's names and their last words, names exactly or as a part, element specs and node ids.
 * Pure, so the unit tests take it alone. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The deepest node id (a dotted path of child indices from the desktop, "2.0.13.4"). */
#define A11Y_ID_MAX 96

/* Whether the role named role (AT-SPI's, "push button") is the one asked for: the same name,
 * or its last words ("button" is "push button", "toggle button" and "radio button"); case,
 * '_' and '-' against ' ' do not matter. */
bool a11y_role_matches(const char *role, const char *want);

/* How the name name matches want: 2 the same, 1 a part of it (ignoring ASCII case), 0 not. */
int a11y_name_match(const char *name, const char *want);

/* Whether s is a node id: numbers joined by dots, at most A11Y_ID_MAX bytes. */
bool a11y_is_id(const char *s);

/* The id of the child of index i of node id ("2.0" and 3: "2.0.3") into ret; false when it would
 * be longer than A11Y_ID_MAX (the walk goes no deeper there). */
bool a11y_child_id(char ret[A11Y_ID_MAX + 1], const char *id, int i);

/* An --element spec: a node id (ret_id), or ROLE:NAME split at the first ':' (ROLE empty: any
 * role; without ':' a name of any role). Pointers into buf (size bytes, a copy of spec). */
struct a11y_spec {
	const char *id, *role, *name;
};
int a11y_parse_spec(const char *spec, char *buf, size_t size, struct a11y_spec *ret);
