#include "kvfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* getline keeps the '\n' and a file written on Windows adds '\r': neither is part of a value. */
static char *trim(char *p)
{
	while (*p == ' ' || *p == '\t') {
		p++;
	}
	size_t n = strlen(p);
	while (n > 0 &&
	       (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r' || p[n - 1] == '\n')) {
		p[--n] = '\0';
	}
	return p;
}

static int one_line(char *line, unsigned lineno, const char *path, const char *advice,
		    kvfile_set_fn *set, void *ctx, struct error *err)
{
	char *p = trim(line);
	if (*p == '\0' || *p == '#') {
		return 0;
	}
	char *eq = strchr(p, '=');
	if (!eq) {
		return error_set(err, -EINVAL, "%s:%u: expected 'key = value'%s", path, lineno,
				 advice);
	}
	*eq = '\0';
	const char *key = trim(p), *value = trim(eq + 1);
	const char *want = NULL;
	int r = set(ctx, key, value, &want);
	if (r == -ENOENT) {
		return error_set(err, -EINVAL, "%s:%u: unknown setting '%s'%s", path, lineno, key,
				 advice);
	}
	if (r == -EINVAL && want) {
		return error_set(err, -EINVAL, "%s:%u: %s = '%s' is not valid: expected %s%s", path,
				 lineno, key, value, want, advice);
	}
	return r;
}

int kvfile_read(FILE *f, const char *path, const char *advice, kvfile_set_fn *set, void *ctx,
		struct error *err)
{
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	while (getline(&line, &cap, f) >= 0) {
		int r = one_line(line, ++lineno, path, advice, set, ctx, err);
		if (r < 0) {
			return r;
		}
	}
	if (ferror(f)) {
		return error_set(err, -EIO, "cannot read %s: %s", path, strerror(EIO));
	}
	return 0;
}

int kvfile_parse(const char *text, const char *path, const char *advice, kvfile_set_fn *set,
		 void *ctx, struct error *err)
{
	size_t n = strlen(text);
	if (n == 0) {
		return 0;
	}
	/* A stream over a copy of the text (the stream wants a writable buffer), so a string and a
	 * file go through the very same lines. */
	_cleanup_free_ char *copy = strdup(text);
	if (!copy) {
		return -ENOMEM;
	}
	_cleanup_fclose_ FILE *f = fmemopen(copy, n, "r");
	if (!f) {
		return -errno;
	}
	return kvfile_read(f, path, advice, set, ctx, err);
}
