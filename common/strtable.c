#include "strtable.h"

#include "util.h"

size_t strtable_index(const char *name, const char *const *names, size_t n)
{
	if (!name) {
		return n;
	}
	size_t i = 0;
	while (i < n && !streq(name, names[i])) {
		i++;
	}
	return i;
}

const char *strtable_value(const struct str_pair *pairs, size_t n, const char *key)
{
	for (size_t i = 0; key && i < n; i++) {
		if (streq(key, pairs[i].key)) {
			return pairs[i].value;
		}
	}
	return NULL;
}
