#include "proc.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "parse.h"
#include "pathjoin.h"
#include "util.h"

/* PID_MAX_LIMIT on 64-bit Linux. */
#define PID_MAX 4194304

bool pid_is_plausible(uint64_t pid)
{
	return pid >= 2 && pid <= PID_MAX;
}

/* Splits the next space-separated field of *p into [start, len). */
static bool next_field(const char **p, const char **start, size_t *len)
{
	const char *s = *p;
	while (*s == ' ') {
		s++;
	}
	if (*s == '\0' || *s == '\n') {
		return false;
	}
	const char *e = s;
	while (*e != ' ' && *e != '\0' && *e != '\n') {
		e++;
	}
	*start = s;
	*len = (size_t)(e - s);
	*p = e;
	return true;
}

int proc_stat_parse(const char *text, struct proc_stat *ret)
{
	const char *close = strrchr(text, ')');
	if (!close || !strchr(text, '(')) {
		return -EINVAL;
	}
	const char *p = close + 1;
	struct proc_stat st = {0};
	/* Fields after the name are numbered from 3 (state) to 22 (starttime). */
	for (int field = 3; field <= 22; field++) {
		const char *s;
		size_t len;
		if (!next_field(&p, &s, &len)) {
			return -EINVAL;
		}
		uint64_t v;
		switch (field) {
		case 3:
			if (len != 1) {
				return -EINVAL;
			}
			st.state = s[0];
			break;
		case 4:
		case 5:
		case 6:
			if (parse_u64_n(s, len, PID_MAX, &v) < 0) {
				return -EINVAL;
			}
			if (field == 4) {
				st.ppid = (pid_t)v;
			} else if (field == 5) {
				st.pgid = (pid_t)v;
			} else {
				st.sid = (pid_t)v;
			}
			break;
		case 22:
			if (parse_u64_n(s, len, UINT64_MAX, &v) < 0) {
				return -EINVAL;
			}
			st.starttime = v;
			break;
		default:
			break;
		}
	}
	*ret = st;
	return 0;
}

/* "/proc/<pid>/<file>" ("/proc/<pid>" for an empty file) of a pid that can name a process. */
static int proc_path(pid_t pid, const char *file, char path[static 64])
{
	if (!pid_is_plausible((uint64_t)pid)) {
		return -ESRCH;
	}
	return path_format(path, 64, "/proc/%d%s%s", (int)pid, *file ? "/" : "", file);
}

/* A small /proc file of pid, whole, NUL-terminated. */
static int proc_read_small(pid_t pid, const char *file, char *buf, size_t size)
{
	char path[64];
	int r = proc_path(pid, file, path);
	if (r < 0) {
		return r;
	}
	return read_file_at(AT_FDCWD, path, buf, size, NULL);
}

int proc_stat_read(pid_t pid, struct proc_stat *ret)
{
	char buf[1024];
	int r = proc_read_small(pid, "stat", buf, sizeof(buf));
	if (r < 0) {
		return r;
	}
	return proc_stat_parse(buf, ret);
}

bool proc_stat_is_live(const struct proc_stat *st)
{
	return st->state != 'Z' && st->state != 'X' && st->state != 'x';
}

int proc_cmdline_read(pid_t pid, char **ret_buf, size_t *ret_len)
{
	char path[64];
	int r = proc_path(pid, "cmdline", path);
	if (r < 0) {
		return r;
	}
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		return negative_errno();
	}
	/* Command lines are bounded by ARG_MAX-ish sizes; 256 KiB is plenty for anything we match.
	 */
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	r = read_all_alloc(fd, 256 * 1024, &buf, &len);
	if (r < 0) {
		return r;
	}
	if (len == 0) {
		return -ENOENT;
	}
	*ret_len = len;
	*ret_buf = TAKE_PTR(buf);
	return 0;
}

int proc_pss_kb(pid_t pid, uint64_t *ret)
{
	char buf[2048];
	int r = proc_read_small(pid, "smaps_rollup", buf, sizeof(buf));
	if (r < 0) {
		return r;
	}
	const char *l = strstr(buf, "\nPss:");
	if (!l) {
		return -EINVAL;
	}
	for (l += 5; *l == ' '; l++) {
	}
	uint64_t kb;
	if (parse_u64_n(l, strcspn(l, " \n"), UINT64_MAX / 4, &kb) < 0) {
		return -EINVAL;
	}
	*ret = kb;
	return 0;
}

/* statm: size resident shared text lib data dt, in pages. */
static int statm_read(pid_t pid, uint64_t *ret_resident, uint64_t *ret_shared)
{
	char buf[256];
	int r = proc_read_small(pid, "statm", buf, sizeof(buf));
	if (r < 0) {
		return r;
	}
	const char *p = buf, *f;
	size_t len;
	uint64_t v[3];
	for (int i = 0; i < 3; i++) {
		if (!next_field(&p, &f, &len) ||
		    parse_u64_n(f, len, UINT64_MAX / 4 / 64, &v[i]) < 0) {
			return -EINVAL;
		}
	}
	long page = sysconf(_SC_PAGESIZE);
	uint64_t kb = page > 0 ? (uint64_t)page / 1024 : 4;
	*ret_resident = v[1] * kb;
	*ret_shared = v[2] * kb;
	return 0;
}

int proc_rss_kb(pid_t pid, uint64_t *ret_resident, uint64_t *ret_private)
{
	uint64_t res, shared;
	int r = statm_read(pid, &res, &shared);
	if (r < 0) {
		return r;
	}
	if (ret_resident) {
		*ret_resident = res;
	}
	if (ret_private) {
		*ret_private = res > shared ? res - shared : 0;
	}
	return 0;
}

bool proc_cmdline_is_xvnc(const char *cmdline)
{
	const char *base = strrchr(cmdline, '/');
	base = base ? base + 1 : cmdline;
	return strstr(base, "Xvnc") || strstr(base, "Xtigervnc");
}

int proc_owner(pid_t pid, uid_t *ret)
{
	char path[64];
	int r = proc_path(pid, "", path);
	if (r < 0) {
		return r;
	}
	struct stat st;
	if (stat(path, &st) < 0) {
		return negative_errno();
	}
	*ret = st.st_uid;
	return 0;
}
