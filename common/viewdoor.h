/* Where a profile's watchers' door (the gate's view socket) is: one answer for the runner that
 * tells the session where to put it (desk/launch.c), `botdesk status` that shows it and
 * `botdesk web` that dials it, so none of them can look in another place than the others. */
#pragma once

#include <stddef.h>

/* With view_dir (the view_dir setting, or NULL): "<view_dir>/<profile>.sock"; without it:
 * "<profile_dir>/view.sock" (LAUNCHER_VIEW_SOCKET). 0, or -ENAMETOOLONG as path_join. */
int view_door_path(const char *view_dir, const char *profile_dir, const char *profile, char *out,
		   size_t size);
