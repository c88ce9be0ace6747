/* The one strict number parser, every entry point. Beyond "does not crash": whatever parses as a
 * plain number prints back as the same digits (no sign, blank, leading zero trick or overflow
 * slips through), and every result is inside the bounds it was asked for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-text.h"
#include "parse.h"

static void check_u64(const char *s)
{
	uint64_t v;
	if (parse_u64(s, UINT64_MAX, &v) == 0) {
		char again[32];
		snprintf(again, sizeof(again), "%llu", (unsigned long long)v);
		/* Leading zeros are the one spelling that does not print back. */
		const char *digits = s;
		while (digits[0] == '0' && digits[1]) {
			digits++;
		}
		if (strcmp(again, digits) != 0) {
			abort();
		}
	}
	if (parse_u64(s, 1000, &v) == 0 && v > 1000) {
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_text(data, size);
	if (!s) {
		return 0;
	}
	check_u64(s);
	uint64_t v;
	if (parse_u64_n(s, size, 99999, &v) == 0 && (v > 99999 || strlen(s) != size)) {
		abort();
	}
	unsigned a, b;
	if (parse_uint_range(s, 20, 89, &a) == 0 && (a < 20 || a > 89)) {
		abort();
	}
	if (parse_seconds_ms(s, 600000, &v) == 0 && v > 600000) {
		abort();
	}
	if (parse_geometry(s, 64, 8192, &a, &b) == 0 &&
	    (a < 64 || a > 8192 || b < 64 || b > 8192)) {
		abort();
	}
	if (parse_range(s, 32767, &a, &b) == 0 && (a > b || b > 32767)) {
		abort();
	}
	free(s);
	return 0;
}
