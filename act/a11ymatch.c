#include "a11ymatch.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* One byte of a role as compared: lower case, '_' and '-' as ' '. */
static int role_char(char c)
{
	return c == '_' || c == '-' ? ' ' : tolower((unsigned char)c);
}

bool a11y_role_matches(const char *role, const char *want)
{
	size_t n = strlen(role), m = strlen(want);
	if (m == 0 || m > n) {
		return false;
	}
	/* want must be the whole role or its end after a space. */
	if (m < n && role[n - m - 1] != ' ') {
		return false;
	}
	for (size_t i = 0; i < m; i++) {
		if (role_char(role[n - m + i]) != role_char(want[i])) {
			return false;
		}
	}
	return true;
}

int a11y_name_match(const char *name, const char *want)
{
	if (strcmp(name, want) == 0) {
		return 2;
	}
	return *want && strcasestr(name, want) ? 1 : 0;
}

bool a11y_is_id(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > A11Y_ID_MAX || !isdigit((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[n - 1])) {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]) && !(s[i] == '.' && s[i + 1] != '.')) {
			return false;
		}
	}
	return true;
}

bool a11y_child_id(char ret[A11Y_ID_MAX + 1], const char *id, int i)
{
	int n = snprintf(ret, A11Y_ID_MAX + 1, "%s.%d", id, i);
	return n > 0 && n <= A11Y_ID_MAX;
}

int a11y_parse_spec(const char *spec, char *buf, size_t size, struct a11y_spec *ret)
{
	*ret = (struct a11y_spec){0};
	if (snprintf(buf, size, "%s", spec) >= (int)size || !*buf) {
		return -EINVAL;
	}
	if (a11y_is_id(buf)) {
		ret->id = buf;
		return 0;
	}
	char *colon = strchr(buf, ':');
	if (!colon) {
		ret->name = buf;
		return 0;
	}
	*colon = '\0';
	ret->role = *buf ? buf : NULL;
	ret->name = colon[1] ? colon + 1 : NULL;
	return ret->role || ret->name ? 0 : -EINVAL;
}
