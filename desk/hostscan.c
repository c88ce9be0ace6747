#include "hostscan.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "array.h"
#include "fileio.h"
#include "parse.h"
#include "pathjoin.h"
#include "proc.h"
#include "procwalk.h"
#include "reap.h"
#include "util.h"
#include "xlock.h"

#define DISPLAY_NUM_MAX 32767

/* The profile named by "-desktop botdesk:<profile>" in an X server's command line of ours. */
static bool botdesk_server(const char *cmd, size_t len, char *profile, size_t size)
{
	const char *end = cmd + len;
	if (!proc_cmdline_is_xvnc(cmd)) {
		return false;
	}
	for (const char *a = cmd + strlen(cmd) + 1; a < end; a += strlen(a) + 1) {
		const char *v = a + strlen(a) + 1;
		if (streq(a, "-desktop") && v < end && startswith(v, "botdesk:") &&
		    profile_name_valid(v + 8)) {
			snprintf(profile, size, "%s", v + 8);
			return true;
		}
	}
	return false;
}

/* The lock's number from its name ".X<n>-lock", or -1. */
static int lock_number(const char *name)
{
	if (!startswith(name, ".X")) {
		return -1;
	}
	const char *dash = strchr(name + 2, '-');
	unsigned n;
	char digits[16];
	size_t len = dash ? (size_t)(dash - name - 2) : 0;
	if (!dash || !streq(dash, "-lock") || len == 0 || len >= sizeof(digits)) {
		return -1;
	}
	memcpy(digits, name + 2, len);
	digits[len] = '\0';
	return parse_uint_range(digits, 0, DISPLAY_NUM_MAX, &n) < 0 ? -1 : (int)n;
}

static bool one_desktop(int dfd, const char *dir, const char *name, uid_t want,
			struct host_desktop *d)
{
	int n = lock_number(name);
	pid_t pid;
	struct proc_stat st;
	uid_t owner;
	struct stat lst;
	/* Looking for one user's (the cap at every start): a lock is its X server's, made by that
	 * user, so the others' need no read of their lock or /proc. */
	if (n < 0 || fstatat(dfd, name, &lst, AT_SYMLINK_NOFOLLOW) < 0 ||
	    (want != (uid_t)-1 && lst.st_uid != want)) {
		return false;
	}
	if (xlock_read(dir, (unsigned)n, &pid) < 0 || proc_stat_read(pid, &st) < 0 ||
	    !proc_stat_is_live(&st) || proc_owner(pid, &owner) < 0 ||
	    (want != (uid_t)-1 && owner != want)) {
		return false;
	}
	_cleanup_free_ char *cmd = NULL;
	size_t len;
	*d = (struct host_desktop){.uid = owner, .server = pid, .display = (unsigned)n};
	if (proc_cmdline_read(pid, &cmd, &len) < 0 ||
	    !botdesk_server(cmd, len, d->profile, sizeof(d->profile))) {
		return false;
	}
	d->server_start = st.starttime;
	/* Its launcher is the leader of its session (botdesk-session calls setsid through the
	 * runner); an orphaned server's session leader is gone. */
	struct proc_stat ls;
	uid_t lowner;
	if (st.sid > 1 && proc_stat_read(st.sid, &ls) == 0 && proc_stat_is_live(&ls) &&
	    proc_owner(st.sid, &lowner) == 0 && lowner == owner) {
		d->launcher = st.sid;
		d->launcher_start = ls.starttime;
	}
	d->activity = lst.st_mtime;
	return true;
}

static int by_display(const void *a, const void *b)
{
	const struct host_desktop *x = a, *y = b;
	return (x->display > y->display) - (x->display < y->display);
}

int hostscan_desktops(const char *x_lock_dir, uid_t uid, struct host_desktop **ret, size_t *ret_n)
{
	*ret = NULL;
	*ret_n = 0;
	_cleanup_closedir_ DIR *d = opendir(x_lock_dir);
	if (!d) {
		return negative_errno();
	}
	_cleanup_free_ struct host_desktop *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		struct host_desktop hd;
		if (!one_desktop(dirfd(d), x_lock_dir, de->d_name, uid, &hd)) {
			continue;
		}
		if (ARRAY_RESERVE(v, cap, n + 1, 16) < 0) {
			return -ENOMEM;
		}
		v[n++] = hd;
	}
	if (n > 1) {
		qsort(v, n, sizeof(*v), by_display);
	}
	*ret = TAKE_PTR(v);
	*ret_n = n;
	return 0;
}

int hostscan_check_cap(const struct settings *s, struct error *err)
{
	struct host_desktop *v;
	size_t n;
	if (hostscan_desktops(s->x_lock_dir, geteuid(), &v, &n) < 0) {
		return 0; /* what we cannot count we do not refuse */
	}
	free(v);
	unsigned max = s->policy.max_desktops;
	if (n < max) {
		return 0;
	}
	return error_set(
		err, -EUSERS,
		"you already run %zu botdesk desktops on this host, and one user may run %u (%s). Stop one you no longer need: 'botdesk list' shows them, 'botdesk --profile NAME stop' stops one",
		n, max,
		s->policy.loaded
			? "max_desktops_per_user in " HOSTPOLICY_PATH
			: "the default; an administrator may change it in " HOSTPOLICY_PATH);
}

void hostscan_stamp(const struct settings *s, unsigned display)
{
	char path[4096];
	if (path_format(path, sizeof(path), "%s/.X%u-lock", s->x_lock_dir, display) < 0) {
		return;
	}
	/* Read-only is enough: the owner may set the times of its own file. */
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fd_is_own_regular(fd) < 0) {
		return;
	}
	(void)futimens(fd, NULL);
}

static int by_pid(const void *a, const void *b)
{
	const struct proc_entry *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

struct table_fill {
	struct proctable *t;
	size_t cap;
};

static int add_entry(pid_t pid, const struct proc_stat *st, void *userdata)
{
	struct table_fill *f = userdata;
	struct proctable *t = f->t;
	if (ARRAY_RESERVE(t->v, f->cap, t->n + 1, 256) < 0) {
		return -ENOMEM;
	}
	t->v[t->n++] = (struct proc_entry){
		.pid = pid, .ppid = st->ppid, .sid = st->sid, .starttime = st->starttime};
	return 0;
}

int proctable_read(struct proctable *t)
{
	*t = (struct proctable){0};
	struct table_fill f = {.t = t};
	int r = proc_walk(add_entry, &f);
	if (r < 0) {
		proctable_free(t);
		return r;
	}
	/* For the walk up parent links: /proc lists in pid order mostly, not always. */
	qsort(t->v, t->n, sizeof(*t->v), by_pid);
	return 0;
}

void proctable_free(struct proctable *t)
{
	free(t->v);
	*t = (struct proctable){0};
}

struct session_index {
	pid_t session;
	size_t i;
};

static int by_session(const void *a, const void *b)
{
	const struct session_index *x = a, *y = b;
	return (x->session > y->session) - (x->session < y->session);
}

static const struct session_index *find_session(const struct session_index *v, size_t n, pid_t pid)
{
	struct session_index key = {.session = pid};
	return bsearch(&key, v, n, sizeof(*v), by_session);
}

/* The desktop e belongs to: it is in a desktop's session or below a member of one (a component
 * that left the session stays the session's descendant: the launcher is a child subreaper).
 * Depth-bounded against cycles a racing /proc read could show. */
static const struct session_index *owner_of(const struct proctable *t, const struct proc_entry *e,
					    const struct session_index *v, size_t n)
{
	for (int depth = 0; e && depth < 64; depth++) {
		const struct session_index *hit = find_session(v, n, e->sid);
		if (!hit) {
			hit = find_session(v, n, e->pid);
		}
		if (hit) {
			return hit;
		}
		struct proc_entry key = {.pid = e->ppid};
		e = e->ppid > 1 ? bsearch(&key, t->v, t->n, sizeof(*t->v), by_pid) : NULL;
	}
	return NULL;
}

void proctable_memory_kb(const struct proctable *t, const pid_t *sessions, size_t n,
			 bool private_rss, int64_t *ret_kb)
{
	for (size_t i = 0; i < n; i++) {
		ret_kb[i] = -1;
	}
	_cleanup_free_ struct session_index *v = calloc(n ? n : 1, sizeof(*v));
	if (!v) {
		return;
	}
	for (size_t i = 0; i < n; i++) {
		v[i] = (struct session_index){.session = sessions[i], .i = i};
	}
	qsort(v, n, sizeof(*v), by_session);
	for (size_t k = 0; k < t->n; k++) {
		const struct session_index *hit = owner_of(t, &t->v[k], v, n);
		uint64_t kb;
		if (!hit || (private_rss ? proc_rss_kb(t->v[k].pid, NULL, &kb)
					 : proc_pss_kb(t->v[k].pid, &kb)) < 0) {
			continue;
		}
		ret_kb[hit->i] = (ret_kb[hit->i] < 0 ? 0 : ret_kb[hit->i]) + (int64_t)kb;
	}
}

int64_t uptime_now(void)
{
	char buf[128];
	if (read_file_at(AT_FDCWD, "/proc/uptime", buf, sizeof(buf), NULL) < 0) {
		return -1;
	}
	uint64_t up;
	if (parse_u64_n(buf, strcspn(buf, ". "), UINT64_MAX / 1000, &up) < 0) {
		return -1;
	}
	return (int64_t)up;
}

int64_t uptime_seconds_at(int64_t now, uint64_t starttime)
{
	if (now < 0) {
		return -1;
	}
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t born = hz > 0 ? starttime / (uint64_t)hz : 0;
	return (uint64_t)now >= born ? (int64_t)((uint64_t)now - born) : 0;
}

int64_t uptime_seconds(uint64_t starttime)
{
	return uptime_seconds_at(uptime_now(), starttime);
}
