/* Just enough JSON output for one flat object. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json {
	FILE *f;
	bool first;
};

void json_begin(struct json *j, FILE *f);
void json_end(struct json *j);
/* "}" without the line break: an object inside an array. */
void json_close(struct json *j);
void json_string(struct json *j, const char *key, const char *value); /* NULL -> null */
void json_bool(struct json *j, const char *key, bool value);
void json_int(struct json *j, const char *key, int64_t value, bool is_null);
void json_string_array(struct json *j, const char *key, const char *const *values);
