/* Finding programs the way execvp would, but before anything is spawned, so a missing program is
 * reported by name instead of as a child that died. */
#pragma once

/* The first executable regular file called name in the colon-separated search_path (a name with
 * a '/' is taken as it is). ret is malloc'ed. -ENOENT when there is none. */
int path_find(const char *search_path, const char *name, char **ret);
