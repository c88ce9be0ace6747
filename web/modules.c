#include "modules.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* How far a statement's specifier may be from its keyword: noVNC's longest import clause is a
 * few lines; anything longer is not an import clause. */
#define CLAUSE_MAX 4096
/* Directory levels a resolved path may have. */
#define DEPTH_MAX 32

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$';
}

static bool keyword_at(const char *src, size_t len, size_t p, const char *kw)
{
	size_t k = strlen(kw);
	return p + k <= len && memcmp(src + p, kw, k) == 0 &&
	       (p + k == len || !ident_char(src[p + k]));
}

/* The statement at p (its keyword, import or export): the specifier, when the first quote after
 * the keyword follows `from` (or, for import, the keyword itself). */
static int statement(const char *src, size_t len, size_t p,
		     int (*fn)(const char *spec, size_t n, void *userdata), void *userdata)
{
	bool import = src[p] == 'i';
	size_t end = len - p > CLAUSE_MAX ? p + CLAUSE_MAX : len;
	size_t q = p + 6;
	while (q < end && src[q] != '\'' && src[q] != '"') {
		/* A declaration, a call (import(), import.meta) or a template: no specifier. */
		if (strchr(";(=`", src[q])) {
			return 0;
		}
		q++;
	}
	if (q >= end) {
		return 0;
	}
	size_t b = q;
	while (b > p && (src[b - 1] == ' ' || src[b - 1] == '\t' || src[b - 1] == '\n' ||
			 src[b - 1] == '\r')) {
		b--;
	}
	bool bare = import && b == p + 6;
	bool from =
		b >= p + 6 + 4 && memcmp(src + b - 4, "from", 4) == 0 && !ident_char(src[b - 5]);
	if (!bare && !from) {
		return 0;
	}
	char quote = src[q];
	size_t s = q + 1, e = s;
	while (e < len && src[e] != quote) {
		if (src[e] == '\n' || src[e] == '\\' || e - s >= WEB_MODULE_PATH_MAX) {
			return 0;
		}
		e++;
	}
	if (e >= len || e == s) {
		return 0;
	}
	return fn(src + s, e - s, userdata);
}

int web_module_imports(const char *src, size_t len,
		       int (*fn)(const char *spec, size_t n, void *userdata), void *userdata)
{
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(src + i, '\n', len - i);
		size_t eol = nl ? (size_t)(nl - src) : len;
		size_t p = i;
		while (p < eol && (src[p] == ' ' || src[p] == '\t')) {
			p++;
		}
		if (keyword_at(src, len, p, "import") || keyword_at(src, len, p, "export")) {
			int r = statement(src, len, p, fn, userdata);
			if (r) {
				return r;
			}
		}
		i = eol + 1;
	}
	return 0;
}

static bool component_ok(const char *c, size_t n)
{
	if (n == 0 || c[0] == '.') {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		char ch = c[i];
		if (!ident_char(ch) && ch != '.' && ch != '-') {
			return false;
		}
		if (ch == '$') {
			return false;
		}
	}
	return true;
}

/* Appends the components of s (n bytes, '/'-separated) to out, keeping starts (the offset of
 * each component in out) for "..". */
static int walk(const char *s, size_t n, char *out, size_t size, size_t *len, size_t *starts,
		size_t *depth)
{
	size_t i = 0;
	while (i < n) {
		const char *slash = memchr(s + i, '/', n - i);
		size_t e = slash ? (size_t)(slash - s) : n;
		const char *c = s + i;
		size_t cn = e - i;
		if (cn == 1 && c[0] == '.') {
			/* this directory */
		} else if (cn == 2 && c[0] == '.' && c[1] == '.') {
			if (*depth == 0) {
				return -EINVAL;
			}
			*len = starts[--*depth];
		} else {
			if (!component_ok(c, cn)) {
				return -EINVAL;
			}
			if (*depth == DEPTH_MAX) {
				return -ENAMETOOLONG;
			}
			size_t at = *len ? *len + 1 : 0;
			if (at + cn + 1 > size) {
				return -ENAMETOOLONG;
			}
			if (*len) {
				out[*len] = '/';
			}
			memcpy(out + at, c, cn);
			starts[(*depth)++] = *len;
			*len = at + cn;
		}
		if (!slash) {
			break;
		}
		i = e + 1;
	}
	return 0;
}

int web_module_resolve(const char *from, const char *spec, size_t n, char *out, size_t size)
{
	if (!(n >= 2 && spec[0] == '.' && spec[1] == '/') &&
	    !(n >= 3 && memcmp(spec, "../", 3) == 0)) {
		return -EINVAL; /* a bare name or an absolute URL: not a file of this tree */
	}
	if (n >= WEB_MODULE_PATH_MAX || size == 0) {
		return -ENAMETOOLONG;
	}
	size_t starts[DEPTH_MAX], depth = 0, len = 0;
	const char *dir_end = strrchr(from, '/');
	int r;
	if (dir_end &&
	    (r = walk(from, (size_t)(dir_end - from), out, size, &len, starts, &depth)) < 0) {
		return r;
	}
	if ((r = walk(spec, n, out, size, &len, starts, &depth)) < 0) {
		return r;
	}
	/* A specifier ending in "/" or "." names a directory, not a module. */
	if (len == 0 || spec[n - 1] == '/' || spec[n - 1] == '.') {
		return -EINVAL;
	}
	out[len] = '\0';
	return 0;
}
