#include "activity.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "fileio.h"
#include "util.h"

void activity_stamp(int dirfd)
{
	if (dirfd >= 0 && utimensat(dirfd, ACTIVITY_FILE, NULL, AT_SYMLINK_NOFOLLOW) < 0) {
		(void)write_file_atomic_at(dirfd, ACTIVITY_FILE, "", 0, 0600);
	}
}

int activity_read_ms(int dirfd, int64_t *ret_ms)
{
	struct stat st;
	if (fstatat(dirfd, ACTIVITY_FILE, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		return negative_errno();
	}
	*ret_ms = (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
	return 0;
}
