#include "jsonout.h"

#include <string.h>

#include "strescape.h"

/* A JSON string literal with everything that needs escaping escaped. */
static void json_write_string(FILE *f, const char *s)
{
	escape_json_string(f, s, strlen(s));
}

static void key(struct jsonout *j, const char *k);

void jsonout_string_n(struct jsonout *j, const char *k, const char *value, size_t len)
{
	key(j, k);
	escape_json_string(j->f, value, len);
}

static void key(struct jsonout *j, const char *k)
{
	fputs(j->first ? "" : ",", j->f);
	j->first = false;
	json_write_string(j->f, k);
	fputc(':', j->f);
}

void jsonout_begin(struct jsonout *j, FILE *f)
{
	j->f = f;
	j->first = true;
	fputc('{', f);
}

void jsonout_close(struct jsonout *j)
{
	fputc('}', j->f);
}

void jsonout_end(struct jsonout *j)
{
	fputs("}\n", j->f);
}

void jsonout_string(struct jsonout *j, const char *k, const char *value)
{
	key(j, k);
	if (value) {
		json_write_string(j->f, value);
	} else {
		fputs("null", j->f);
	}
}

void jsonout_bool(struct jsonout *j, const char *k, bool value)
{
	key(j, k);
	fputs(value ? "true" : "false", j->f);
}

void jsonout_int(struct jsonout *j, const char *k, int64_t value, bool is_null)
{
	key(j, k);
	if (is_null) {
		fputs("null", j->f);
	} else {
		fprintf(j->f, "%lld", (long long)value);
	}
}

void jsonout_string_array(struct jsonout *j, const char *k, const char *const *values)
{
	key(j, k);
	fputc('[', j->f);
	for (size_t i = 0; values[i]; i++) {
		if (i > 0) {
			fputc(',', j->f);
		}
		json_write_string(j->f, values[i]);
	}
	fputc(']', j->f);
}
