#include "list.h"

#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "cgroup.h"
#include "desktop.h"
#include "fileio.h"
#include "hostscan.h"
#include "jsonout.h"
#include "lease.h"
#include "parse.h"
#include "util.h"

#define MB_KB 1024
/* A published PSS figure older than this is the figure of a session that is not renewing it. */
#define PSS_FRESH_S 30

/* Who holds the desktop's controls, by the one fail-closed reading (common/lease.h): "agent"
 * when there is no lease, "human" for anything that is not exactly one (an agent must not act
 * when a human may hold the desktop). */
static const char *list_holder(int dirfd)
{
	struct lease l;
	(void)lease_read_at(dirfd, &l);
	return lease_holder_name(l.holder);
}

static int push(struct list *l, size_t *cap, struct list_entry **ret)
{
	if (ARRAY_RESERVE(l->v, *cap, l->n + 1, 16) < 0) {
		return -ENOMEM;
	}
	*ret = &l->v[l->n++];
	**ret = (struct list_entry){.display = -1,
				    .idle_seconds = -1,
				    .pss_mb = -1,
				    .cgroup_mb = -1,
				    .uptime_seconds = -1};
	return 0;
}

/* The usage of the desktop's own cgroup (one the runner made for it), if it has one. */
static int64_t own_cgroup_mb(const struct cgroup_view *view, pid_t launcher)
{
	char dir[CGROUP_PATH_MAX];
	bool v2;
	if (cgroup_of_pid(view, launcher, &v2, dir, sizeof(dir)) < 0) {
		return -1;
	}
	const char *base = strrchr(dir, '/');
	if (!base || !startswith(base + 1, "desktop-")) {
		return -1;
	}
	struct cgroup_memory m;
	cgroup_memory_read(dir, v2, &m);
	return m.usage >= 0 ? m.usage / (1024 * 1024) : -1;
}

/* The PSS figure the session publishes beside its env file (session/memfile.h), while it is
 * fresh: a PSS needs a walk of every process's page tables, some 4 ms per desktop, which the
 * session spends every 10 s so that a list of twenty desktops need not spend 80 ms. -1 when
 * there is none, or it is older than three of the session's rounds. */
static int64_t published_pss_mb(int dirfd)
{
	char buf[64];
	struct stat st;
	if (fstatat(dirfd, STATE_MEMORY, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    time(NULL) - st.st_mtime > PSS_FRESH_S ||
	    read_file_at(dirfd, STATE_MEMORY, buf, sizeof(buf), NULL) < 0 ||
	    !startswith(buf, "pss_kb=")) {
		return -1;
	}
	uint64_t kb;
	const char *v = buf + 7;
	return parse_u64_n(v, strcspn(v, "\n"), INT64_MAX, &kb) < 0 ? -1 : (int64_t)(kb / MB_KB);
}

/* The memory of the desktops without a fresh published figure (and of every desktop in --all,
 * which reads no private state), from one table of processes shared by all of them and one pass
 * over it. --all counts the private RSS (statm), not the PSS: a PSS walks every page table of
 * every process, some 5 ms a desktop, which at a hundred desktops made the list take 0.5 s. */
static void fill_memory(struct list *l, const struct settings *s)
{
	_cleanup_free_ pid_t *sessions = calloc(l->n ? l->n : 1, sizeof(*sessions));
	_cleanup_free_ size_t *which = calloc(l->n ? l->n : 1, sizeof(*which));
	_cleanup_free_ int64_t *kb = calloc(l->n ? l->n : 1, sizeof(*kb));
	size_t need = 0;
	for (size_t i = 0; sessions && which && kb && i < l->n; i++) {
		/* statm is anyone's to read, unlike the PSS: another user's memory stays unknown
		 * without privilege, as the PSS left it. */
		bool readable = !l->all || geteuid() == 0 || l->v[i].uid == geteuid();
		if (l->v[i].running && l->v[i].pss_mb < 0 && readable) {
			sessions[need] = l->v[i].pid;
			which[need++] = i;
		}
	}
	struct proctable t = {0};
	if (need && proctable_read(&t) == 0) {
		proctable_memory_kb(&t, sessions, need, l->all, kb);
		for (size_t j = 0; j < need; j++) {
			l->v[which[j]].pss_mb = kb[j] >= 0 ? kb[j] / MB_KB : -1;
		}
	}
	proctable_free(&t);
	struct cgroup_view view;
	cgroup_view_read(s->cgroup_root, NULL, &view);
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].running) {
			l->v[i].cgroup_mb = own_cgroup_mb(&view, l->v[i].pid);
		}
	}
}

static int by_profile(const void *a, const void *b)
{
	return strcmp(((const struct list_entry *)a)->profile,
		      ((const struct list_entry *)b)->profile);
}

static int one_profile(const struct settings *s, const char *name, struct list *l, size_t *cap)
{
	struct profile p = PROFILE_INIT;
	struct error ignored = {{0}};
	/* A directory we may not use (another's, a symlink) is no profile of ours to list. */
	if (profile_open(s, name, false, &p, &ignored) < 0 || p.dirfd < 0) {
		profile_close(&p);
		return 0;
	}
	struct list_entry *e;
	int r = push(l, cap, &e);
	if (r < 0) {
		profile_close(&p);
		return r;
	}
	snprintf(e->profile, sizeof(e->profile), "%s", name);
	struct desktop_probe probe;
	desktop_probe(&p, &probe);
	if (probe.running) {
		e->running = true;
		e->pid = probe.launcher.pid;
		const char *d = envfile_get(&probe.env, "DISPLAY");
		unsigned n;
		if (d && d[0] == ':' && parse_uint_range(d + 1, 0, 65535, &n) == 0) {
			e->display = (int)n;
		}
		e->holder = list_holder(p.dirfd);
		e->idle_seconds = desktop_idle_seconds(&p);
		e->uptime_seconds = uptime_seconds(probe.launcher.starttime);
		e->pss_mb = published_pss_mb(p.dirfd);
	}
	profile_close(&p);
	return 0;
}

int list_gather(const struct settings *s, struct list *ret, struct error *err)
{
	*ret = (struct list){0};
	_cleanup_closedir_ DIR *d = opendir(s->state_root);
	if (!d) {
		if (errno == ENOENT) {
			return 0;
		}
		return error_set(err, negative_errno(), "cannot list %s: %s", s->state_root,
				 strerror(errno));
	}
	size_t cap = 0;
	struct dirent *de;
	int r = 0;
	while (r == 0 && (de = readdir(d))) {
		struct stat st;
		if (!profile_name_valid(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode)) {
			continue;
		}
		r = one_profile(s, de->d_name, ret, &cap);
	}
	if (r < 0) {
		list_free(ret);
		return r;
	}
	if (ret->n > 1) {
		qsort(ret->v, ret->n, sizeof(*ret->v), by_profile);
	}
	fill_memory(ret, s);
	return 0;
}

#define USER_CACHE 32

struct user_name {
	uid_t uid;
	char name[sizeof(((struct list_entry *)0)->user)];
};

/* The user's name, the passwd file read once per user (getpwuid reads it on every call), not
 * once per desktop. */
static const char *user_name(struct user_name *v, size_t *n, uid_t uid)
{
	for (size_t i = 0; i < *n; i++) {
		if (v[i].uid == uid) {
			return v[i].name;
		}
	}
	struct user_name u = {.uid = uid};
	struct passwd *pw = getpwuid(uid);
	if (pw && strlen(pw->pw_name) < sizeof(u.name)) {
		snprintf(u.name, sizeof(u.name), "%s", pw->pw_name);
	} else {
		snprintf(u.name, sizeof(u.name), "%u", (unsigned)uid);
	}
	size_t slot = *n < USER_CACHE ? (*n)++ : uid % USER_CACHE;
	v[slot] = u;
	return v[slot].name;
}

int list_gather_all(const struct settings *s, struct list *ret, struct error *err)
{
	*ret = (struct list){.all = true};
	if (!hostpolicy_is_admin(&s->policy) && s->policy.admin_group[0]) {
		return error_set(
			err, -EPERM,
			"list --all shows every user's desktops: it takes root, or membership of group %s (admin_group in %s). 'botdesk list' shows your own",
			s->policy.admin_group, HOSTPOLICY_PATH);
	}
	if (!hostpolicy_is_admin(&s->policy)) {
		return error_set(
			err, -EPERM,
			"list --all shows every user's desktops: it takes root, or membership of the group an administrator names as admin_group in %s (none is named). 'botdesk list' shows your own",
			HOSTPOLICY_PATH);
	}
	struct host_desktop *v;
	size_t n;
	int r = hostscan_desktops(s->x_lock_dir, (uid_t)-1, &v, &n);
	if (r < 0) {
		return error_set(err, r, "cannot read the X locks in %s: %s", s->x_lock_dir,
				 strerror(-r));
	}
	size_t cap = 0;
	time_t now = time(NULL);
	int64_t up = uptime_now();
	struct user_name names[USER_CACHE] = {{0}};
	size_t n_names = 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		struct list_entry *e;
		r = push(ret, &cap, &e);
		if (r < 0) {
			break;
		}
		const struct host_desktop *h = &v[i];
		snprintf(e->user, sizeof(e->user), "%s", user_name(names, &n_names, h->uid));
		e->uid = h->uid;
		snprintf(e->profile, sizeof(e->profile), "%s", h->profile);
		e->running = true;
		e->pid = h->launcher ? h->launcher : h->server;
		e->display = (int)h->display;
		/* The holder lives in the user's private state, which this view never reads. */
		e->holder = NULL;
		e->idle_seconds = h->activity > 0 && now >= h->activity ? now - h->activity : -1;
		e->uptime_seconds =
			uptime_seconds_at(up, h->launcher ? h->launcher_start : h->server_start);
	}
	free(v);
	if (r < 0) {
		list_free(ret);
		return r;
	}
	fill_memory(ret, s);
	return 0;
}

void list_free(struct list *l)
{
	free(l->v);
	*l = (struct list){0};
}

static void num(FILE *f, int width, int64_t v, const char *unit)
{
	char buf[32];
	if (v < 0) {
		snprintf(buf, sizeof(buf), "-");
	} else {
		snprintf(buf, sizeof(buf), "%lld%s", (long long)v, unit);
	}
	fprintf(f, "%*s", width, buf);
}

void list_print_text(const struct list *l, FILE *f)
{
	if (l->n == 0) {
		fprintf(f, l->all ? "no botdesk desktop is running on this host\n"
				  : "no profiles yet; start one with 'botdesk start'\n");
		return;
	}
	if (l->all) {
		fprintf(f, "%-12s %-20s %7s %8s %8s %8s %9s %-6s\n", "USER", "PROFILE", "DISPLAY",
			"PID", "MEMORY", "IDLE", "UPTIME", "HOLDER");
	} else {
		fprintf(f, "%-20s %-7s %7s %8s %8s %8s %9s %-6s\n", "PROFILE", "RUNNING", "DISPLAY",
			"PID", "MEMORY", "IDLE", "UPTIME", "HOLDER");
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct list_entry *e = &l->v[i];
		char disp[16] = "-";
		if (e->display >= 0) {
			snprintf(disp, sizeof(disp), ":%d", e->display);
		}
		if (l->all) {
			fprintf(f, "%-12s %-20s %7s", e->user, e->profile, disp);
		} else {
			fprintf(f, "%-20s %-7s %7s", e->profile, e->running ? "yes" : "no", disp);
		}
		num(f, 9, e->running ? e->pid : -1, "");
		/* Its own cgroup's usage when it has one (what its limit counts), else PSS. */
		num(f, 9, e->cgroup_mb >= 0 ? e->cgroup_mb : e->pss_mb, " MB");
		num(f, 9, e->idle_seconds, " s");
		num(f, 10, e->uptime_seconds, " s");
		fprintf(f, " %-6s\n", e->holder ? e->holder : "-");
	}
}

void list_print_json(const struct list *l, FILE *f)
{
	fputs("{\"desktops\":[", f);
	for (size_t i = 0; i < l->n; i++) {
		const struct list_entry *e = &l->v[i];
		char disp[16];
		snprintf(disp, sizeof(disp), ":%d", e->display);
		if (i > 0) {
			fputc(',', f);
		}
		struct jsonout j;
		jsonout_begin(&j, f);
		if (l->all) {
			jsonout_string(&j, "user", e->user);
			jsonout_int(&j, "uid", e->uid, false);
		}
		jsonout_string(&j, "profile", e->profile);
		jsonout_bool(&j, "running", e->running);
		jsonout_int(&j, "pid", e->pid, !e->running);
		jsonout_string(&j, "display", e->display >= 0 ? disp : NULL);
		jsonout_string(&j, "holder", e->holder);
		jsonout_int(&j, "idle_seconds", e->idle_seconds, e->idle_seconds < 0);
		jsonout_int(&j, "memory_mb", e->pss_mb, e->pss_mb < 0);
		jsonout_int(&j, "cgroup_memory_mb", e->cgroup_mb, e->cgroup_mb < 0);
		jsonout_int(&j, "uptime_seconds", e->uptime_seconds, e->uptime_seconds < 0);
		jsonout_close(&j);
	}
	fputs("]}\n", f);
}
