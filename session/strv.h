/* NULL-terminated arrays of malloc'ed strings, for argv and envp the session builds. */
#pragma once

#include <stddef.h>

struct strv {
	char **v; /* always NULL-terminated once anything was pushed */
	size_t n;
	size_t cap;
};

/* Appends a copy of s. */
int strv_push(struct strv *s, const char *str);
/* Appends a formatted string. */
int strv_pushf(struct strv *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strv_free(struct strv *s);
/* The index of the first "KEY=..." entry whose key is key, or -1. */
long strv_find_env(const struct strv *s, const char *key);
