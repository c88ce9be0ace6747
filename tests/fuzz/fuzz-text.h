/* The fuzzer's bytes as a C string, for parsers of text: the harnesses' one shared step. */
#pragma once

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* A malloc'ed NUL-terminated copy of data (which may itself hold NULs), or NULL. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}
