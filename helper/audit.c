/* The audit line: who asked for what, and what came of it. It goes to syslog (authpriv) when a
 * syslog daemon listens on /dev/log; where none does (containers, minimal VMs), glibc's syslog()
 * would drop it without a word, so the line is appended to a root-owned file instead. */
#include <fcntl.h>
#include <stdio.h>
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
	if (n < 0 || (size_t)n >= sizeof(line)) {
		return -ENAMETOOLONG;
	}
	/* A file size limit of the caller's (a refusal for its limits is logged under them) would
	 * kill us with SIGXFSZ or cut the line short: as far as the hard limit allows, else the
	 * line is not written. */
	struct rlimit fsize;
	if (getrlimit(RLIMIT_FSIZE, &fsize) < 0) {
		return negative_errno();
	}
	fsize.rlim_cur = fsize.rlim_max;
	if (setrlimit(RLIMIT_FSIZE, &fsize) < 0) {
		return negative_errno();
	}
	if (fsize.rlim_max != RLIM_INFINITY &&
	    (uint64_t)st.st_size + (uint64_t)n > fsize.rlim_max) {
		return -EFBIG;
	}
	/* One write of one line, appended: lines of helpers running at once never interleave. */
	if (write(fd, line, (size_t)n) != n) {
		return negative_errno();
	}
	return 0;
}

int audit_log(const char *file_path, const char *msg)
{
	if (to_syslog(msg) == 0) {
		return 0;
	}
	return to_file(file_path, msg);
}
