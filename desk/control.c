#include "control.h"

#include <poll.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>

#include "desktop.h"
#include "jsonout.h"
#include "pathjoin.h"
#include "timeutil.h"
#include "util.h"

int control_set(const struct settings *s, struct profile *p, enum lease_holder to,
		const char *reason, struct lease *ret, bool *ret_changed, struct error *err)
{
	int r = lease_set_at(p->dirfd, to, reason, (int64_t)time(NULL), ret, ret_changed);
	if (r == -ETIMEDOUT) {
		return error_set(
			err, r,
			"another botdesk take or release of profile '%s' holds %s/%s; retry when it has finished",
			p->name, p->dir, LEASE_LOCK);
	}
	if (r < 0) {
		return error_set(err, r, "cannot write the lease %s/%s: %s%s", p->dir, LEASE_FILE,
				 strerror(-r), r == -ELOOP ? " (a symbolic link: remove it)" : "");
	}
	desktop_stamp_activity(s, p);
	return 0;
}

static bool applied(struct profile *p, uint64_t epoch)
{
	uint64_t seen;
	return lease_applied_read_at(p->dirfd, &seen) == 0 && seen >= epoch;
}

int control_wait_applied(struct profile *p, uint64_t epoch, uint64_t timeout_ms)
{
	/* Watch first, then look: a confirmation written between the two is not missed. */
	_cleanup_close_ int ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (ifd < 0) {
		return negative_errno();
	}
	char path[64];
	int r = path_format(path, sizeof(path), "/proc/self/fd/%d", p->dirfd);
	if (r < 0) {
		return r;
	}
	if (inotify_add_watch(ifd, path, IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR) < 0) {
		return negative_errno();
	}
	uint64_t deadline = now_ms() + timeout_ms;
	for (;;) {
		if (applied(p, epoch)) {
			return 0;
		}
		uint64_t now = now_ms();
		if (now >= deadline) {
			return -ETIMEDOUT;
		}
		struct pollfd pfd = {.fd = ifd, .events = POLLIN};
		if (poll(&pfd, 1, (int)(deadline - now)) < 0 && errno != EINTR) {
			return negative_errno();
		}
		char buf[4096];
		while (read(ifd, buf, sizeof(buf)) > 0) {
		}
	}
}

int control_need_agent(struct profile *p, struct lease *ret, struct error *err)
{
	struct lease l = {.holder = LEASE_AGENT};
	int r = p->dirfd >= 0 ? lease_read_at(p->dirfd, &l) : 0;
	*ret = l;
	if (l.holder == LEASE_AGENT) {
		return 0;
	}
	if (l.unreadable) {
		return error_set_kind(
			err, ERROR_HUMAN_HOLDS, -EACCES,
			"the lease %s/%s cannot be read (%s), so a human is taken to hold the desktop of profile '%s'; hand it back with 'botdesk release', which rewrites it",
			p->dir, LEASE_FILE, r < 0 ? strerror(-r) : "not a lease", p->name);
	}
	char when[64] = "";
	struct tm tm;
	time_t since = (time_t)l.since;
	if (localtime_r(&since, &tm)) {
		strftime(when, sizeof(when), " since %Y-%m-%d %H:%M:%S", &tm);
	}
	return error_set_kind(
		err, ERROR_HUMAN_HOLDS, -EACCES,
		"a human holds the desktop of profile '%s'%s%s%s%s; the agent may act again once they hand it back with 'botdesk release'",
		p->name, when, l.reason[0] ? " (" : "", l.reason, l.reason[0] ? ")" : "");
}

void control_print_text(const char *profile, const struct lease *l, const struct lease_request *rq,
			FILE *f)
{
	fprintf(f, "profile:  %s\n", profile);
	fprintf(f, "holder:   %s%s\n", lease_holder_name(l->holder),
		l->unreadable ? " (the lease file cannot be read: a human is assumed)" : "");
	if (l->since > 0) {
		char when[64] = "";
		struct tm tm;
		time_t since = (time_t)l->since;
		if (localtime_r(&since, &tm)) {
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", &tm);
		}
		fprintf(f, "since:    %s\n", when);
	}
	if (l->reason[0]) {
		fprintf(f, "reason:   %s\n", l->reason);
	}
	fprintf(f, "epoch:    %llu\n", (unsigned long long)l->epoch);
	if (rq) {
		char when[64] = "";
		struct tm tm;
		time_t since = (time_t)rq->since;
		if (localtime_r(&since, &tm)) {
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S %z", &tm);
		}
		fprintf(f, "requested: a human, since %s%s%s%s\n", when, rq->reason[0] ? " (" : "",
			rq->reason, rq->reason[0] ? ")" : "");
	}
}

void control_print_json(const char *profile, const struct lease *l, const struct lease_request *rq,
			FILE *f)
{
	struct jsonout j;
	jsonout_begin(&j, f);
	jsonout_string(&j, "profile", profile);
	jsonout_string(&j, "holder", lease_holder_name(l->holder));
	jsonout_int(&j, "since", l->since, l->since <= 0);
	jsonout_string(&j, "reason", l->reason[0] ? l->reason : NULL);
	jsonout_int(&j, "epoch", (int64_t)l->epoch, false);
	jsonout_bool(&j, "readable", !l->unreadable);
	if (rq) {
		fputs(",\"requested\":", f);
		struct jsonout r;
		jsonout_begin(&r, f);
		jsonout_int(&r, "since", rq->since, false);
		jsonout_string(&r, "reason", rq->reason[0] ? rq->reason : NULL);
		jsonout_close(&r);
	} else {
		fputs(",\"requested\":null", f);
	}
	jsonout_end(&j);
}
