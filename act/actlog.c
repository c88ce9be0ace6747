#include "actlog.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>

#include "activity.h"
#include "acttable.h"
#include "desktop.h"
#include "fileio.h"
#include "memout.h"
#include "util.h"

static const char *outcome(int r)
{
	switch (r) {
	case 0:
		return "ok";
	case -EINVAL:
		return "bad input";
	case -ETIMEDOUT:
		return "timed out";
	case -EINTR:
		return "interrupted";
	default:
		return "failed";
	}
}

/* The UTC date of a day count since 1970 (H. Hinnant's days-to-civil), by hand: gmtime() and
 * strftime() read the time zone file first, a tenth of a click. */
static void civil_from_days(long z, int *ret_y, int *ret_m, int *ret_d)
{
	z += 719468;
	long era = (z >= 0 ? z : z - 146096) / 146097;
	long doe = z - era * 146097;
	long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long mp = (5 * doy + 2) / 153;
	long m = mp < 10 ? mp + 3 : mp - 9;
	*ret_y = (int)(yoe + era * 400 + (m <= 2));
	*ret_m = (int)m;
	*ret_d = (int)(doy - (153 * mp + 2) / 5 + 1);
}

/* One line's makings, for memout(). */
struct line {
	const char *source;
	const struct act_req *rq;
	const struct act_out *out;
	int r;
	bool log_text;
};

/* What the request asked: the members every line has (when, from where, which command), then
 * the action's own, by its row. */
static void put_request(FILE *f, const struct line *l)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	int y, mo, d;
	civil_from_days(ts.tv_sec / 86400, &y, &mo, &d);
	long sec = (long)(ts.tv_sec % 86400);
	fprintf(f,
		"{\"time\":\"%04d-%02d-%02dT%02ld:%02ld:%02ld.%03ldZ\",\"source\":\"%s\",\"command\":\"%s\"",
		y, mo, d, sec / 3600, sec / 60 % 60, sec % 60, ts.tv_nsec / 1000000, l->source,
		act_cmd_name(l->rq->cmd));
	/* A command past the table has no members of its own: the line keeps the common ones. */
	if ((unsigned)l->rq->cmd >= ACT_CMD_COUNT) {
		return;
	}
	const struct act_action *a = &act_actions[l->rq->cmd];
	if (a->log_keys) {
		a->log_keys(f, l->rq, l->out, l->r, l->log_text);
	}
}

/* Where a human's take cut an action: how many of what it would have sent. */
static size_t stopped_total(const struct act_req *rq, const struct act_out *out, const char **what)
{
	if (rq->cmd == ACT_TYPE) {
		*what = "characters";
		return out->chars;
	}
	if (rq->cmd == ACT_KEY && rq->hold_ms) {
		*what = "key events";
		return 2;
	}
	if (rq->cmd == ACT_KEY) {
		*what = "key combos";
		return rq->n_keys;
	}
	if (rq->hold) {
		*what = "steps";
		return 3;
	}
	*what = "events";
	return 1;
}

static int print_line(FILE *f, void *ctx)
{
	const struct line *l = ctx;
	put_request(f, l);
	if (l->out->stopped) {
		/* What reached the desktop and what did not. */
		const char *what;
		size_t total = stopped_total(l->rq, l->out, &what);
		fprintf(f,
			",\"result\":\"stopped: a human took the desktop after %zu of %zu %s\",\"sent\":%zu}\n",
			l->out->sent, total, what, l->out->sent);
	} else {
		fprintf(f, ",\"result\":\"%s\"}\n", outcome(l->r));
	}
	return 0;
}

char *actlog_line(const char *source, const struct act_req *rq, const struct act_out *out, int r,
		  bool log_text)
{
	struct line l = {source, rq, out, r, log_text};
	return memout(print_line, &l);
}

int actlog_append(int dirfd, const char *line)
{
	/* Appended, not written-then-renamed: a log grows a line at a time, and one write() of
	 * an O_APPEND file lands whole. The lock orders the rotation against other writers. */
	_cleanup_close_ int fd =
		open_regular_at(dirfd, ACTLOG_FILE, O_WRONLY | O_APPEND | O_CREAT, 0600);
	if (fd < 0) {
		return fd;
	}
	if (flock(fd, LOCK_EX) < 0) {
		return negative_errno();
	}
	struct stat st, cur;
	if (fstat(fd, &st) < 0) {
		return negative_errno();
	}
	/* Another writer rotated the file after we opened it: write to the new one. */
	if (fstatat(dirfd, ACTLOG_FILE, &cur, AT_SYMLINK_NOFOLLOW) < 0 || cur.st_ino != st.st_ino) {
		safe_close(fd);
		fd = open_regular_at(dirfd, ACTLOG_FILE, O_WRONLY | O_APPEND | O_CREAT, 0600);
		if (fd < 0 || flock(fd, LOCK_EX) < 0 || fstat(fd, &st) < 0) {
			return fd < 0 ? fd : negative_errno();
		}
	}
	size_t len = strlen(line);
	if ((size_t)st.st_size + len > ACTLOG_MAX && st.st_size > 0) {
		if (renameat(dirfd, ACTLOG_FILE, dirfd, ACTLOG_OLD) < 0) {
			return negative_errno();
		}
		safe_close(fd);
		fd = open_regular_at(dirfd, ACTLOG_FILE, O_WRONLY | O_APPEND | O_CREAT | O_EXCL,
				     0600);
		if (fd < 0) {
			/* Another writer made the new file between our rename and here. */
			fd = open_regular_at(dirfd, ACTLOG_FILE, O_WRONLY | O_APPEND | O_CREAT,
					     0600);
		}
		if (fd < 0) {
			return fd;
		}
	}
	return write_all(fd, line, len);
}

void actlog_stamp_activity(struct profile *p)
{
	activity_stamp(p->dirfd);
}
