/* The audit line: who asked for what, and what came of it. It goes to syslog (authpriv) when a
 * syslog daemon listens on /dev/log; where none does (containers, minimal VMs), glibc's syslog()
 * would drop it without a word, so the line is appended to a root-owned file instead. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/fsuid.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>

#include "helper.h"
#include "util.h"

static int to_syslog(const char *msg)
{
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return negative_errno();
	}
	struct sockaddr_un sa = {.sun_family = AF_UNIX, .sun_path = "/dev/log"};
	if (connect(fd, (const struct sockaddr *)&sa, sizeof(sa)) < 0) {
		return negative_errno();
	}
	/* The line glibc's syslog() would send, "<85>Dec  2 16:11:00 botdesk-helper[42]: ...". */
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32], line[256];
	if (!localtime_r(&now, &tm) || strftime(stamp, sizeof(stamp), "%h %e %T", &tm) == 0) {
		return -EINVAL;
	}
	int n = snprintf(line, sizeof(line), "<%d>%s botdesk-helper[%d]: %s",
			 LOG_AUTHPRIV | LOG_NOTICE, stamp, (int)getpid(), msg);
	if (n < 0 || (size_t)n >= sizeof(line)) {
		return -ENAMETOOLONG;
	}
	/* Never waits: a daemon that stops reading costs the line its way there, not our exit. */
	if (send(fd, line, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) != n) {
		return negative_errno();
	}
	return 0;
}

/* A file size limit of the caller's (a refusal for its limits is logged under them) would kill
 * us with SIGXFSZ or cut a write short: raised as far as the hard limit allows; -EFBIG when a file
 * may not reach end bytes even so, and nothing is written. */
static int fsize_allow(uint64_t end)
{
	struct rlimit fsize;
	if (getrlimit(RLIMIT_FSIZE, &fsize) < 0) {
		return negative_errno();
	}
	fsize.rlim_cur = fsize.rlim_max;
	if (setrlimit(RLIMIT_FSIZE, &fsize) < 0) {
		return negative_errno();
	}
	if (fsize.rlim_max != RLIM_INFINITY && end > fsize.rlim_max) {
		return -EFBIG;
	}
	return 0;
}

static int to_file(const char *path, const char *msg)
{
	/* Outside an install our gid is still the caller's, and a file made with it would be the
	 * caller's to read: make it with group root (CAP_SETGID is one of the capabilities the
	 * privileged side keeps). We exit right after; nothing else is made with this gid. */
	(void)setfsgid(0);
	if (setfsgid((gid_t)-1) != 0) {
		return -EPERM;
	}
	/* O_NOFOLLOW and the checks below refuse a link or anything else planted there; O_NONBLOCK
	 * keeps a FIFO from holding us up before fstat() can refuse it. */
	int flags = O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
	_cleanup_close_ int fd = open(path, flags | O_CREAT, 0640);
	if (fd < 0) {
		return negative_errno();
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		return negative_errno();
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != 0 || st.st_nlink != 1 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		return -EPERM;
	}
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32], line[256];
	if (!gmtime_r(&now, &tm) ||
	    strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
		return -EINVAL;
	}
	int n = snprintf(line, sizeof(line), "%s botdesk-helper[%d]: %s\n", stamp, (int)getpid(),
			 msg);
	int r;
	if (n < 0 || (size_t)n >= sizeof(line)) {
		return -ENAMETOOLONG;
	}
	r = fsize_allow((uint64_t)st.st_size + (uint64_t)n);
	if (r < 0) {
		return r;
	}
	/* One write of one line, appended: lines of helpers running at once never interleave. */
	if (write(fd, line, (size_t)n) != n) {
		return negative_errno();
	}
	return 0;
}

static int emit(const char *file_path, const char *msg)
{
	if (to_syslog(msg) == 0) {
		return 0;
	}
	return to_file(file_path, msg);
}

/* One uid's budget, kept in root's pace directory as "audit-<uid>": a record of fixed size that
 * only helpers write, read whole or not at all. */
struct audit_budget {
	uint32_t magic;
	uint32_t count;    /* lines written in this window */
	uint64_t start_ms; /* the window's start, wall clock */
	uint64_t held;     /* lines held back in this window */
	char last[128];    /* the last of them, with its time */
};
#define AUDIT_MAGIC 0x42444131u /* "BDA1" */

static uint64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The budget's file, opened and locked; -errno when there is none to be had. */
static int open_budget(const char *dir_path, uid_t uid)
{
	_cleanup_close_ int dir = pace_open_dir(dir_path);
	if (dir < 0) {
		return dir;
	}
	char name[32];
	snprintf(name, sizeof(name), "audit-%u", (unsigned)uid);
	_cleanup_close_ int fd =
		openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		return negative_errno();
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		return -EPERM;
	}
	/* Only helpers lock it (the file is root's), each for one record's read and write. */
	if (flock(fd, LOCK_EX) < 0) {
		return negative_errno();
	}
	return TAKE_FD(fd);
}

enum spend { HOLD, WRITE, WRITE_LAST };

/* Whether msg may be written now (WRITE_LAST: the window's budget is spent with it), after the
 * held-back summary of the window that ended (written here); HOLD: it becomes the window's last
 * held line. */
static enum spend spend(const struct helper_settings *hs, int fd, uid_t uid, const char *msg)
{
	struct audit_budget b = {0};
	if (pread(fd, &b, sizeof(b), 0) != (ssize_t)sizeof(b) || b.magic != AUDIT_MAGIC) {
		b = (struct audit_budget){.magic = AUDIT_MAGIC};
	}
	b.last[sizeof(b.last) - 1] = '\0';
	uint64_t now = wall_ms();
	/* A window in the future (the clock was set back) has ended too. */
	if (now < b.start_ms || now - b.start_ms >= hs->audit_window_ms) {
		if (b.held > 0) {
			char sum[256];
			snprintf(sum, sizeof(sum), "uid=%u held back %llu lines; the last: %s",
				 (unsigned)uid, (unsigned long long)b.held, b.last);
			(void)emit(hs->log_path, sum);
		}
		b = (struct audit_budget){.magic = AUDIT_MAGIC, .start_ms = now};
	}
	enum spend verdict = HOLD;
	if (b.count < hs->audit_burst) {
		b.count++;
		verdict = b.count == hs->audit_burst ? WRITE_LAST : WRITE;
	} else {
		b.held++;
		time_t t = (time_t)(now / 1000);
		struct tm tm;
		char stamp[32] = "?";
		if (gmtime_r(&t, &tm)) {
			strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
		}
		snprintf(b.last, sizeof(b.last), "%s %s", stamp, msg);
	}
	if (fsize_allow(sizeof(b)) < 0 || pwrite(fd, &b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		/* Fail closed: a line that cannot be counted is not written, or a caller that
		 * lowered its hard file size limit (which root cannot raise here) would log
		 * without bound. */
		return HOLD;
	}
	return verdict;
}

int audit_log(const struct helper_settings *hs, uid_t uid, const char *msg)
{
	/* Without a budget to keep (root's directory unusable) the line is written: an audit line
	 * lost is worse than one too many. */
	_cleanup_close_ int fd = open_budget(hs->pace_dir, uid);
	enum spend v = fd >= 0 ? spend(hs, fd, uid, msg) : WRITE;
	if (v == HOLD) {
		return -EAGAIN;
	}
	int r = emit(hs->log_path, msg);
	if (v == WRITE_LAST) {
		char note[160];
		snprintf(
			note, sizeof(note),
			"uid=%u wrote %u lines in this window: the next are counted, not written, until %llu s after its start",
			(unsigned)uid, hs->audit_burst,
			(unsigned long long)(hs->audit_window_ms / 1000));
		(void)emit(hs->log_path, note);
	}
	return r;
}
