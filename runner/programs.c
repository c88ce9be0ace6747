#include "programs.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	const char *dir = search_path;
	while (dir && *dir) {
		size_t len = strcspn(dir, ":");
		char path[4096];
		/* An empty PATH entry means the current directory; we never look there. */
		if (len > 0 && len < sizeof(path) - strlen(name) - 2) {
			snprintf(path, sizeof(path), "%.*s/%s", (int)len, dir, name);
			struct stat st;
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
			    access(path, X_OK) == 0) {
				return true;
			}
		}
		dir += len;
		if (*dir == ':') {
			dir++;
		}
	}
	return false;
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
