#include "strv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

static int push_owned(struct strv *s, char *str)
{
	/* Room for it and the NULL after it. */
	if (ARRAY_RESERVE(s->v, s->cap, s->n + 2, 16) < 0) {
		free(str);
		return -ENOMEM;
	}
	s->v[s->n++] = str;
	s->v[s->n] = NULL;
	return 0;
}

int strv_push(struct strv *s, const char *str)
{
	char *copy = strdup(str);
	if (!copy) {
		return -ENOMEM;
	}
	return push_owned(s, copy);
}

int strv_pushf(struct strv *s, const char *fmt, ...)
{
	char *str;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&str, fmt, ap);
	va_end(ap);
	if (n < 0) {
		return -ENOMEM;
	}
	return push_owned(s, str);
}

void strv_free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i]);
	}
	free(s->v);
	*s = (struct strv){0};
}

long strv_find_env(const struct strv *s, const char *key)
{
	size_t len = strlen(key);
	for (size_t i = 0; i < s->n; i++) {
		if (strncmp(s->v[i], key, len) == 0 && s->v[i][len] == '=') {
			return (long)i;
		}
	}
	return -1;
}
