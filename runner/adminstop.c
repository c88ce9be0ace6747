#include "adminstop.h"

#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "deskcg.h"
#include "group.h"
#include "hostscan.h"
#include "launcher.h"
#include "parse.h"
#include "proc.h"
#include "reap.h"
#include "util.h"

/* An orphaned server's grace between TERM and KILL, as reap.c gives it. */
#define ORPHAN_GRACE_MS 2000

struct who {
	uid_t uid;
	gid_t gid;
	char name[64];
};

static int resolve_user(const char *user, struct who *ret, struct error *err)
{
	unsigned uid;
	struct passwd *pw = getpwnam(user);
	if (!pw && parse_uint_range(user, 0, UINT32_MAX - 1, &uid) == 0) {
		pw = getpwuid((uid_t)uid);
	}
	if (!pw) {
		return error_set(err, -ENOENT, "no user '%s' on this host", user);
	}
	/* The name goes into messages about that user: cut, it would name somebody else. */
	if (strlen(pw->pw_name) >= sizeof(ret->name)) {
		return error_set(err, -ENAMETOOLONG, "the name of user '%s' is too long", user);
	}
	*ret = (struct who){.uid = pw->pw_uid, .gid = pw->pw_gid};
	memcpy(ret->name, pw->pw_name, strlen(pw->pw_name) + 1);
	return 0;
}

/* From here on we act as the user, whose processes are the only ones we mean to signal: a
 * setuid program the desktop started, running in its process group, stays out of reach. */
static int become(const struct who *w, struct error *err)
{
	if (setgroups(0, NULL) < 0 || setresgid(w->gid, w->gid, w->gid) < 0 ||
	    setresuid(w->uid, w->uid, w->uid) < 0) {
		return error_set(err, negative_errno(), "cannot act as user %s: %s", w->name,
				 strerror(errno));
	}
	return 0;
}

static int stop_one(const struct settings *s, const struct host_desktop *d, const char *user,
		    struct error *err)
{
	struct proc_stat st;
	int r;
	char cg[CGROUP_PATH_MAX] = "";
	(void)deskcg_of_pid(s, d->launcher ? d->launcher : d->server, cg, sizeof(cg));
	if (d->launcher && proc_stat_read(d->launcher, &st) == 0 &&
	    st.starttime == d->launcher_start) {
		/* Its own teardown removes its claim on the display. */
		r = group_terminate(d->launcher, LAUNCHER_STOP_GRACE_MS, NULL);
	} else if (proc_stat_read(d->server, &st) == 0 && st.starttime == d->server_start) {
		/* An orphaned server: its dead launcher's group, as reap.c stops it. */
		r = st.pgid > 1 ? group_terminate(st.pgid, ORPHAN_GRACE_MS, NULL)
				: process_terminate(d->server, d->server_start, ORPHAN_GRACE_MS);
		reap_drop_x_files(s, (int)d->display, d->server);
	} else {
		return 0; /* gone meanwhile */
	}
	deskcg_remove(cg);
	if (r < 0 && r != -ESRCH) {
		return error_set(
			err, r,
			"the desktop of profile '%s' of user %s on :%u did not stop even after SIGKILL: %s",
			d->profile, user, d->display, strerror(-r));
	}
	return 0;
}

int adminstop_run(const struct settings *s, const char *user, const char *profile,
		  unsigned *ret_stopped, struct error *err)
{
	*ret_stopped = 0;
	if (geteuid() != 0) {
		return error_set(
			err, -EPERM,
			"stop --user stops another user's desktop: it takes root. Your own desktop stops with 'botdesk --profile %s stop'",
			profile);
	}
	struct who who;
	int r = resolve_user(user, &who, err);
	if (r < 0) {
		return r;
	}
	struct host_desktop *v;
	size_t n;
	r = hostscan_desktops(s->x_lock_dir, who.uid, &v, &n);
	if (r < 0) {
		return error_set(err, r, "cannot read the X locks in %s: %s", s->x_lock_dir,
				 strerror(-r));
	}
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		any = any || streq(v[i].profile, profile);
	}
	if (any && (r = become(&who, err)) == 0) {
		for (size_t i = 0; i < n && r == 0; i++) {
			if (streq(v[i].profile, profile)) {
				r = stop_one(s, &v[i], who.name, err);
				*ret_stopped += r == 0;
			}
		}
	}
	free(v);
	return r;
}
