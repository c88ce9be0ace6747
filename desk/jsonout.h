/* Just enough JSON output for one flat object. Named jsonout_, not json_: botdesk-mcp links this
 * library and jansson, whose json_string() and friends would be shadowed. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct jsonout {
	FILE *f;
	bool first;
};

void jsonout_begin(struct jsonout *j, FILE *f);
void jsonout_end(struct jsonout *j);
/* "}" without the line break: an object inside an array. */
void jsonout_close(struct jsonout *j);
void jsonout_string(struct jsonout *j, const char *key, const char *value); /* NULL -> null */
/* len bytes of value, which may hold NUL (a clipboard's text). */
void jsonout_string_n(struct jsonout *j, const char *key, const char *value, size_t len);
void jsonout_bool(struct jsonout *j, const char *key, bool value);
void jsonout_int(struct jsonout *j, const char *key, int64_t value, bool is_null);
void jsonout_string_array(struct jsonout *j, const char *key, const char *const *values);
