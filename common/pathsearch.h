/* Finding programs the way execvp would, but before anything is spawned, so a missing program is
 * reported by name instead of as a child that died. The one PATH search: the runner's "installed"
 * and the session's lookup must agree, or status says installed for a desktop that then refuses. */
#pragma once

/* The first executable regular file called name in the colon-separated search_path (a name with
 * a '/' is taken as it is). Only absolute entries count: an empty or relative one would name a
 * directory that depends on where the program was started. ret is malloc'ed. -ENOENT when there
 * is none. */
int path_find(const char *search_path, const char *name, char **ret);
