/* The env file a launcher publishes (and exec puts into a program's environment): every key that
 * parses is a shell-style name, and no key or value holds a line break. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "envfile.h"
#include "fuzz-text.h"

static bool shell_name(const char *k)
{
	if (!(*k == '_' || (*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z'))) {
		return false;
	}
	for (; *k; k++) {
		if (!(*k == '_' || (*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z') ||
		      (*k >= '0' && *k <= '9'))) {
			return false;
		}
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_text(data, size);
	if (!s) {
		return 0;
	}
	struct envfile e;
	if (envfile_parse(s, &e) == 0) {
		if (e.n > ENVFILE_MAX_VARS) {
			abort();
		}
		for (size_t i = 0; i < e.n; i++) {
			if (!shell_name(e.keys[i]) || strpbrk(e.values[i], "\n\r")) {
				abort();
			}
		}
	}
	free(s);
	return 0;
}
