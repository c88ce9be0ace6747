#include "envfile.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "fileio.h"
#include "util.h"

static bool valid_key(const char *k)
{
	if (!*k || (*k >= '0' && *k <= '9')) {
		return false;
	}
	for (; *k; k++) {
		bool ok = (*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z') ||
			  (*k >= '0' && *k <= '9') || *k == '_';
		if (!ok) {
			return false;
		}
	}
	return true;
}

static char *strip(char *s)
{
	while (*s == ' ' || *s == '\t') {
		s++;
	}
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) {
		s[--n] = '\0';
	}
	return s;
}

int envfile_parse(char *text, struct envfile *ret)
{
	struct envfile e = {0};
	if (startswith(text, "\xef\xbb\xbf")) {
		text += 3;
	}
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line = strip(line);
		if (*line == '\0' || *line == '#') {
			continue;
		}
		char *eq = strchr(line, '=');
		if (!eq) {
			return -EINVAL;
		}
		*eq = '\0';
		/* A carriage return inside a value is a line break to some readers: the session
		 * never writes one, so it is no env file of ours (found by fuzzing). */
		if (!valid_key(line) || e.n == ENVFILE_MAX_VARS || strchr(eq + 1, '\r')) {
			return -EINVAL;
		}
		e.keys[e.n] = line;
		e.values[e.n] = eq + 1;
		e.n++;
	}
	*ret = e;
	return 0;
}

int envfile_read(int dirfd, const char *name, char *buf, size_t size, struct envfile *ret)
{
	int r = read_file_at(dirfd, name, buf, size, NULL);
	if (r < 0) {
		return r;
	}
	return envfile_parse(buf, ret);
}

const char *envfile_get(const struct envfile *e, const char *key)
{
	/* The last assignment wins, as in a shell. */
	for (size_t i = e->n; i > 0; i--) {
		if (streq(e->keys[i - 1], key)) {
			return e->values[i - 1];
		}
	}
	return NULL;
}
