#include "pathsearch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static bool is_executable_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int path_find(const char *search_path, const char *name, char **ret)
{
	if (!name || name[0] == '\0') {
		return -EINVAL;
	}
	if (strchr(name, '/')) {
		if (!is_executable_file(name)) {
			return -ENOENT;
		}
		char *copy = strdup(name);
		if (!copy) {
			return -ENOMEM;
		}
		*ret = copy;
		return 0;
	}
	const char *p = search_path ? search_path : "";
	for (;;) {
		const char *end = strchrnul(p, ':');
		size_t len = (size_t)(end - p);
		/* An empty PATH element means the current directory, and a relative one a directory
		 * below it; a program started from anywhere must not run whatever lies there, so
		 * both are skipped. */
		if (len > 0 && p[0] == '/') {
			char *cand;
			if (asprintf(&cand, "%.*s/%s", (int)len, p, name) < 0) {
				return -ENOMEM;
			}
			if (is_executable_file(cand)) {
				*ret = cand;
				return 0;
			}
			free(cand);
		}
		if (*end == '\0') {
			return -ENOENT;
		}
		p = end + 1;
	}
}
