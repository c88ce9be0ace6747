#include "programs.h"

#include <string.h>

#include "pathsearch.h"
#include "util.h"

const char *programs_display_name(const struct policy_program *p)
{
	const char *name = p->names[0];
	for (size_t i = 1; i < 4 && p->names[i]; i++) {
		name = p->names[i];
	}
	return name;
}

bool programs_on_path(const char *search_path, const char *name)
{
	/* The session's own search, so "installed" means the session finds them too. */
	_cleanup_free_ char *found = NULL;
	return !strchr(name, '/') && path_find(search_path, name, &found) == 0;
}

size_t programs_missing(const char *search_path, const char *missing[POLICY_PROGRAM_COUNT + 1])
{
	size_t n = 0;
	for (size_t i = 0; i < POLICY_PROGRAM_COUNT; i++) {
		const struct policy_program *p = &policy_programs[i];
		bool found = false;
		for (size_t j = 0; j < 4 && p->names[j] && !found; j++) {
			found = programs_on_path(search_path, p->names[j]);
		}
		if (!found) {
			missing[n++] = programs_display_name(p);
		}
	}
	missing[n] = NULL;
	return n;
}
