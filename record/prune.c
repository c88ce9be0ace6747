/* The size limit of the recordings (recorder.h): the oldest go first. Ids sort by the time they
 * began, so a name order is an age order. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder.h"
#include "recording.h"
#include "util.h"

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

/* The size of a recording's stream, 0 when it is gone. */
static uint64_t rfb_bytes(int dirfd, const char *id)
{
	char name[RECORDING_ID_MAX + 8];
	struct stat st;
	if (rec_file_name(id, "rfb", name, sizeof(name)) < 0 ||
	    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		return 0;
	}
	return (uint64_t)st.st_size;
}

int recorder_prune(int dirfd, const char *keep, uint64_t max_bytes)
{
	_cleanup_free_ struct rec_id *ids = NULL;
	size_t n;
	int r = rec_list_ids(dirfd, "rfb", &ids, &n);
	if (r < 0) {
		return r;
	}
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++) {
		total += rfb_bytes(dirfd, ids[i].s);
	}
	/* Oldest first; only the recording being made (keep) can have grown since it was counted.
	 */
	for (size_t i = 0; i < n && total > max_bytes; i++) {
		if (keep && streq(ids[i].s, keep)) {
			continue;
		}
		uint64_t bytes = rfb_bytes(dirfd, ids[i].s);
		remove_recording(dirfd, ids[i].s);
		total -= bytes < total ? bytes : total;
	}
	return 0;
}
