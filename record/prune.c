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
#include "fileio.h"
#include "recorder.h"
#include "recording.h"
#include "util.h"

struct entry {
	char id[RECORDING_ID_MAX + 1];
	uint64_t bytes;
};

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

/* Every recording's .rfb with its size, oldest first; malloc'ed. */
static int scan(int dirfd, struct entry **ret, size_t *ret_n, uint64_t *ret_total)
{
	_cleanup_free_ struct rec_id *ids = NULL;
	size_t nids;
	int r = rec_list_ids(dirfd, "rfb", &ids, &nids);
	if (r < 0) {
		return r;
	}
	struct entry *v = calloc(nids ? nids : 1, sizeof(*v));
	if (!v) {
		return -ENOMEM;
	}
	size_t n = 0;
	uint64_t total = 0;
	for (size_t i = 0; i < nids; i++) {
		char name[RECORDING_ID_MAX + 8];
		struct stat st;
		if (rec_file_name(ids[i].s, "rfb", name, sizeof(name)) < 0 ||
		    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			continue;
		}
		v[n] = (struct entry){.bytes = (uint64_t)st.st_size};
		memcpy(v[n].id, ids[i].s, sizeof(v[n].id));
		total += v[n].bytes;
		n++;
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
