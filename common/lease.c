#include "lease.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "lockfile.h"
#include "parse.h"
#include "util.h"

/* Big enough for the four lines at their longest; a larger file is not a lease. */
#define LEASE_TEXT_MAX 512

const char *lease_holder_name(enum lease_holder h)
{
	return h == LEASE_AGENT ? "agent" : "human";
}

bool lease_reason_valid(const char *reason)
{
	size_t n = strlen(reason);
	if (n > LEASE_REASON_MAX) {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)reason[i];
		if (c < 0x20 || c == 0x7f) {
			return false;
		}
	}
	return true;
}

/* Takes "key=" at *p and the value up to the newline; advances past the line. */
static int take_line(const char **p, const char *end, const char *key, const char **ret_value,
		     size_t *ret_len)
{
	size_t klen = strlen(key);
	if ((size_t)(end - *p) < klen + 1 || memcmp(*p, key, klen) != 0 || (*p)[klen] != '=') {
		return -EINVAL;
	}
	const char *v = *p + klen + 1;
	const char *nl = memchr(v, '\n', (size_t)(end - v));
	if (!nl) {
		return -EINVAL;
	}
	*ret_value = v;
	*ret_len = (size_t)(nl - v);
	*p = nl + 1;
	return 0;
}

int lease_parse(const char *text, size_t len, struct lease *ret)
{
	/* Fail closed from the first byte: every early return leaves the human's lease. */
	*ret = (struct lease){.holder = LEASE_HUMAN, .unreadable = true};
	const char *p = text, *end = text + len, *v;
	size_t n;
	if (memchr(text, '\0', len)) {
		return -EINVAL;
	}
	enum lease_holder holder;
	if (take_line(&p, end, "holder", &v, &n) < 0) {
		return -EINVAL;
	}
	if (n == 5 && memcmp(v, "agent", 5) == 0) {
		holder = LEASE_AGENT;
	} else if (n == 5 && memcmp(v, "human", 5) == 0) {
		holder = LEASE_HUMAN;
	} else {
		return -EINVAL;
	}
	uint64_t epoch, since;
	if (take_line(&p, end, "epoch", &v, &n) < 0 || parse_u64_n(v, n, INT64_MAX, &epoch) < 0) {
		return -EINVAL;
	}
	/* Known from here on, so a repair can continue the count instead of restarting it. */
	ret->epoch = epoch;
	if (take_line(&p, end, "since", &v, &n) < 0 || parse_u64_n(v, n, INT64_MAX, &since) < 0) {
		return -EINVAL;
	}
	if (take_line(&p, end, "reason", &v, &n) < 0 || n > LEASE_REASON_MAX || p != end) {
		return -EINVAL;
	}
	char reason[LEASE_REASON_MAX + 1];
	memcpy(reason, v, n);
	reason[n] = '\0';
	if (!lease_reason_valid(reason)) {
		return -EINVAL;
	}
	*ret = (struct lease){.holder = holder, .epoch = epoch, .since = (int64_t)since};
	memcpy(ret->reason, reason, n + 1);
	return 0;
}

int lease_format(const struct lease *l, char *buf, size_t size, size_t *ret_len)
{
	int n = snprintf(buf, size, "holder=%s\nepoch=%llu\nsince=%lld\nreason=%s\n",
			 lease_holder_name(l->holder), (unsigned long long)l->epoch,
			 (long long)l->since, l->reason);
	if (n < 0 || (size_t)n >= size) {
		return -ENOSPC;
	}
	*ret_len = (size_t)n;
	return 0;
}

int lease_read_at(int dirfd, struct lease *ret)
{
	char buf[LEASE_TEXT_MAX];
	size_t len;
	int r = read_file_at(dirfd, LEASE_FILE, buf, sizeof(buf), &len);
	if (r == -ENOENT) {
		*ret = (struct lease){.holder = LEASE_AGENT};
		return 0;
	}
	if (r < 0) {
		*ret = (struct lease){.holder = LEASE_HUMAN, .unreadable = true};
		return r;
	}
	return lease_parse(buf, len, ret);
}

static int write_lease(int dirfd, const struct lease *l)
{
	char buf[LEASE_TEXT_MAX];
	size_t len;
	int r = lease_format(l, buf, sizeof(buf), &len);
	return r < 0 ? r : write_file_atomic_at(dirfd, LEASE_FILE, buf, len, 0600);
}

int lease_set_at(int dirfd, enum lease_holder to, const char *reason, int64_t now,
		 struct lease *ret, bool *ret_changed)
{
	if (reason && !lease_reason_valid(reason)) {
		return -EINVAL;
	}
	/* Read and write under one lock: two concurrent changes each see the other's result, so
	 * the epoch counts every change exactly once. */
	_cleanup_close_ int lock = lockfile_take(dirfd, LEASE_LOCK, LEASE_LOCK_WAIT_MS);
	if (lock < 0) {
		return lock;
	}
	struct lease cur;
	(void)lease_read_at(dirfd, &cur);
	/* A take answers the agent's request for a human; a release ends the turn it asked for. */
	if (unlinkat(dirfd, LEASE_REQUEST_FILE, 0) < 0 && errno != ENOENT) {
		return negative_errno();
	}
	/* A repair counts as a change: what happened under the unreadable file is unknown, so an
	 * action that began under it must not pass for one that began under the repaired one. */
	bool changed = cur.holder != to || cur.unreadable;
	if (!changed) {
		*ret = cur;
		*ret_changed = false;
		return 0;
	}
	struct lease next = {.holder = to, .epoch = cur.epoch + 1, .since = now};
	if (reason) {
		snprintf(next.reason, sizeof(next.reason), "%s", reason);
	}
	int r = write_lease(dirfd, &next);
	if (r < 0) {
		return r;
	}
	*ret = next;
	*ret_changed = true;
	return 0;
}

int lease_request_read_at(int dirfd, struct lease_request *ret)
{
	char buf[LEASE_TEXT_MAX];
	size_t len;
	int r = read_file_at(dirfd, LEASE_REQUEST_FILE, buf, sizeof(buf), &len);
	if (r < 0) {
		return -ENOENT;
	}
	const char *p = buf, *end = buf + len, *v;
	size_t n;
	uint64_t since;
	if (memchr(buf, '\0', len) || take_line(&p, end, "since", &v, &n) < 0 ||
	    parse_u64_n(v, n, INT64_MAX, &since) < 0 || take_line(&p, end, "reason", &v, &n) < 0 ||
	    n > LEASE_REASON_MAX || p != end) {
		return -ENOENT;
	}
	struct lease_request rq = {.since = (int64_t)since};
	memcpy(rq.reason, v, n);
	rq.reason[n] = '\0';
	if (!lease_reason_valid(rq.reason)) {
		return -ENOENT;
	}
	*ret = rq;
	return 0;
}

int lease_request_set_at(int dirfd, const char *reason, int64_t now, struct lease_request *ret)
{
	if (reason && !lease_reason_valid(reason)) {
		return -EINVAL;
	}
	_cleanup_close_ int lock = lockfile_take(dirfd, LEASE_LOCK, LEASE_LOCK_WAIT_MS);
	if (lock < 0) {
		return lock;
	}
	struct lease_request rq = {.since = now};
	snprintf(rq.reason, sizeof(rq.reason), "%s", reason ? reason : "");
	char buf[LEASE_TEXT_MAX];
	int n = snprintf(buf, sizeof(buf), "since=%lld\nreason=%s\n", (long long)now, rq.reason);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		return -ENOSPC;
	}
	int r = write_file_atomic_at(dirfd, LEASE_REQUEST_FILE, buf, (size_t)n, 0600);
	if (r == 0) {
		*ret = rq;
	}
	return r;
}

int lease_applied_read_at(int dirfd, uint64_t *ret)
{
	char buf[32];
	size_t len;
	int r = read_file_at(dirfd, LEASE_APPLIED_FILE, buf, sizeof(buf), &len);
	if (r < 0) {
		return r;
	}
	if (len == 0 || buf[len - 1] != '\n') {
		return -EINVAL;
	}
	return parse_u64_n(buf, len - 1, INT64_MAX, ret);
}

int lease_applied_write_at(int dirfd, uint64_t epoch)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)epoch);
	return write_file_atomic_at(dirfd, LEASE_APPLIED_FILE, buf, (size_t)n, 0600);
}

int lease_watch_begin(int dirfd, struct lease_watch *w, struct lease *ret)
{
	*w = (struct lease_watch)LEASE_WATCH_INIT;
	*ret = (struct lease){.holder = LEASE_HUMAN, .unreadable = true};
	int lock = open_regular_at(dirfd, LEASE_ACT_LOCK, O_RDWR | O_CREAT, 0600);
	if (lock < 0) {
		return lock;
	}
	/* Opened before it is read, and read through this very fd: the file checked later is the
	 * one whose lease was read. */
	int fd = open_regular_at(dirfd, LEASE_FILE, O_RDONLY | O_NONBLOCK, 0);
	int r = 0;
	if (fd == -ENOENT) {
		*ret = (struct lease){.holder = LEASE_AGENT};
	} else if (fd < 0) {
		r = fd;
	} else {
		char buf[LEASE_TEXT_MAX];
		ssize_t n = read_all(fd, buf, sizeof(buf));
		if (n < 0) {
			r = (int)n;
		} else if (n >= (ssize_t)sizeof(buf)) {
			r = -EFBIG;
		} else {
			r = lease_parse(buf, (size_t)n, ret);
		}
	}
	if (r == 0 && ret->holder != LEASE_AGENT) {
		r = -EACCES;
	}
	if (r < 0) {
		safe_close(fd);
		safe_close(lock);
		return r == -EACCES ? r : -EACCES;
	}
	*w = (struct lease_watch){.dirfd = dirfd, .lockfd = lock, .leasefd = fd < 0 ? -1 : fd};
	return 0;
}

/* Whether the lease is still the file read at the start: any write since replaced it. */
static bool lease_unchanged(const struct lease_watch *w)
{
	struct stat st;
	if (w->leasefd >= 0) {
		return fstat(w->leasefd, &st) == 0 && st.st_nlink > 0;
	}
	return fstatat(w->dirfd, LEASE_FILE, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
}

int lease_watch_enter(struct lease_watch *w)
{
	if (w->dirfd < 0) {
		return 0;
	}
	if (flock(w->lockfd, LOCK_SH) < 0) {
		return -EACCES;
	}
	if (!lease_unchanged(w)) {
		flock(w->lockfd, LOCK_UN);
		return -EACCES;
	}
	w->inside = true;
	return 0;
}

void lease_watch_leave(struct lease_watch *w)
{
	if (w->inside) {
		flock(w->lockfd, LOCK_UN);
		w->inside = false;
	}
}

void lease_watch_end(struct lease_watch *w)
{
	lease_watch_leave(w);
	safe_close(w->lockfd);
	safe_close(w->leasefd);
	*w = (struct lease_watch)LEASE_WATCH_INIT;
}

int lease_quiesce_at(int dirfd, uint64_t timeout_ms)
{
	_cleanup_close_ int fd = lockfile_take(dirfd, LEASE_ACT_LOCK, timeout_ms);
	return fd < 0 ? fd : 0;
}
