#include "identity.h"

#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "parse.h"
#include "proc.h"
#include "profile.h"
#include "util.h"

int identity_parse(const char *text, struct identity *ret)
{
	const char *sp = strchr(text, ' ');
	if (!sp) {
		return -EINVAL;
	}
	size_t len = strlen(sp + 1);
	if (len > 0 && sp[len] == '\n') {
		len--;
	}
	uint64_t pid, st;
	if (parse_u64_n(text, (size_t)(sp - text), UINT64_MAX, &pid) < 0 ||
	    parse_u64_n(sp + 1, len, UINT64_MAX, &st) < 0 || !pid_is_plausible(pid)) {
		return -EINVAL;
	}
	*ret = (struct identity){.pid = (pid_t)pid, .starttime = st};
	return 0;
}

int identity_read(int dirfd, struct identity *ret)
{
	if (dirfd < 0) {
		return -ENOENT;
	}
	char buf[128];
	int r = read_file_at(dirfd, STATE_PIDFILE, buf, sizeof(buf), NULL);
	if (r < 0) {
		return r == -EFBIG ? -EINVAL : r;
	}
	return identity_parse(buf, ret);
}

bool identity_is_live(const struct identity *id)
{
	struct proc_stat st;
	if (proc_stat_read(id->pid, &st) < 0) {
		return false;
	}
	return proc_stat_is_live(&st) && st.starttime == id->starttime;
}

int identity_write(int dirfd, pid_t pid, struct identity *ret)
{
	struct proc_stat st;
	int r = proc_stat_read(pid, &st);
	if (r < 0) {
		return r;
	}
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%d %llu\n", (int)pid, (unsigned long long)st.starttime);
	r = write_file_atomic_at(dirfd, STATE_PIDFILE, buf, (size_t)n, 0600);
	if (r < 0) {
		return r;
	}
	if (ret) {
		*ret = (struct identity){.pid = pid, .starttime = st.starttime};
	}
	return 0;
}

int identity_live_launcher(int dirfd, struct identity *ret)
{
	struct identity id;
	if (identity_read(dirfd, &id) < 0 || !identity_is_live(&id)) {
		return -ESRCH;
	}
	*ret = id;
	return 0;
}
