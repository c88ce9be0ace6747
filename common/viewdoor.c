#include "viewdoor.h"

#include "launcher.h"
#include "pathjoin.h"

int view_door_path(const char *view_dir, const char *profile_dir, const char *profile, char *out,
		   size_t size)
{
	if (view_dir) {
		return path_format(out, size, "%s/%s.sock", view_dir, profile);
	}
	return path_join(out, size, profile_dir, LAUNCHER_VIEW_SOCKET);
}
