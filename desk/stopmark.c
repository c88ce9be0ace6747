#include "stopmark.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "parse.h"
#include "proc.h"
#include "profile.h"
#include "util.h"

/* "<launcher pid> <launcher starttime> <stopper pid> <stopper uid>\n" */

int stopmark_write(int dirfd, const struct identity *launcher)
{
	char buf[128];
	int n = snprintf(buf, sizeof(buf), "%d %llu %d %u\n", (int)launcher->pid,
			 (unsigned long long)launcher->starttime, (int)getpid(),
			 (unsigned)getuid());
	return write_file_atomic_at(dirfd, STATE_STOPPED, buf, (size_t)n, 0600);
}

static int parse(char *text, struct stopmark *ret)
{
	uint64_t v[4];
	char *save = NULL, *word = strtok_r(text, " \n", &save);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++, word = strtok_r(NULL, " \n", &save)) {
		if (!word || parse_u64(word, i == 1 ? UINT64_MAX : UINT32_MAX, &v[i]) < 0) {
			return -EINVAL;
		}
	}
	if (word || !pid_is_plausible(v[0]) || !pid_is_plausible(v[2])) {
		return -EINVAL;
	}
	*ret = (struct stopmark){
		.launcher = {.pid = (pid_t)v[0], .starttime = v[1]},
		.by_pid = (pid_t)v[2],
		.by_uid = (uid_t)v[3],
	};
	return 0;
}

int stopmark_take(int dirfd, const struct identity *launcher, struct stopmark *ret)
{
	char buf[128];
	int r = read_file_at(dirfd, STATE_STOPPED, buf, sizeof(buf), NULL);
	if (r < 0) {
		return r == -EFBIG ? -EINVAL : r;
	}
	struct stopmark m;
	r = parse(buf, &m);
	if (r == 0 &&
	    (m.launcher.pid != launcher->pid || m.launcher.starttime != launcher->starttime)) {
		r = -ENOENT;
	}
	(void)unlink_at_if_exists(dirfd, STATE_STOPPED);
	if (r == 0) {
		*ret = m;
	}
	return r;
}

void stopmark_clear(int dirfd)
{
	(void)unlink_at_if_exists(dirfd, STATE_STOPPED);
}
