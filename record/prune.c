/* The size limit of the recordings (recorder.h): the oldest go first. Ids sort by the time they
 * began, so a name order is an age order. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "recorder.h"
#include "recording.h"
#include "util.h"

struct entry {
	char id[RECORDING_ID_MAX + 1];
	uint64_t bytes;
};

static int by_id(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->id, ((const struct entry *)b)->id);
}

static void remove_recording(int dirfd, const char *id)
{
	static const char *const exts[] = {"rfb", "meta", "events"};
	for (size_t i = 0; i < ARRAY_SIZE(exts); i++) {
		char name[RECORDING_ID_MAX + 8];
		if (rec_file_name(id, exts[i], name, sizeof(name)) == 0) {
			(void)unlinkat(dirfd, name, 0);
		}
	}
}

/* Every recording's .rfb with its size, sorted oldest first; malloc'ed. */
static int scan(int dirfd, struct entry **ret, size_t *ret_n, uint64_t *ret_total)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		return negative_errno();
	}
	DIR *d = fdopendir(fd);
	if (!d) {
		safe_close(fd);
		return -ENOMEM;
	}
	_cleanup_closedir_ DIR *dir = d;
	struct entry *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	struct dirent *de;
	while ((de = readdir(dir))) {
		size_t len = strlen(de->d_name);
		struct stat st;
		if (len < 5 || strcmp(de->d_name + len - 4, ".rfb") != 0 ||
		    len - 4 > RECORDING_ID_MAX ||
		    fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			continue;
		}
		if (ARRAY_RESERVE(v, cap, n + 1, 16) < 0) {
			free(v);
			return -ENOMEM;
		}
		memcpy(v[n].id, de->d_name, len - 4);
		v[n].id[len - 4] = '\0';
		v[n].bytes = (uint64_t)st.st_size;
		total += v[n].bytes;
		n++;
	}
	if (n > 0) {
		qsort(v, n, sizeof(*v), by_id);
	}
	*ret = v;
	*ret_n = n;
	*ret_total = total;
	return 0;
}

int recorder_prune(int dirfd, const char *keep, uint64_t max_bytes)
{
	struct entry *v;
	size_t n;
	uint64_t total;
	int r = scan(dirfd, &v, &n, &total);
	if (r < 0) {
		return r;
	}
	for (size_t i = 0; i < n && total > max_bytes; i++) {
		if (keep && streq(v[i].id, keep)) {
			continue;
		}
		remove_recording(dirfd, v[i].id);
		total -= v[i].bytes;
	}
	free(v);
	return 0;
}
