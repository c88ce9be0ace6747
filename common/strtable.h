/* Lookups in the small constant tables of names a parser keeps: a name's place in a list (an
 * enum's spelling), a key's value in a list of pairs (a file name's type, a key's other name).
 * One loop for the tables of every module, so that none writes its own. */
#pragma once

#include <stddef.h>

struct str_pair {
	const char *key, *value;
};

/* The index of name in names[0..n), or n when it is not there or name is NULL. */
size_t strtable_index(const char *name, const char *const *names, size_t n);

/* The value of key in pairs[0..n) (the first pair with that key), or NULL when it is not there
 * or key is NULL. */
const char *strtable_value(const struct str_pair *pairs, size_t n, const char *key);
