#include "desktop.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "deskcg.h"
#include "display.h"
#include "fileio.h"
#include "group.h"
#include "hostscan.h"
#include "install.h"
#include "launch.h"
#include "launcher.h"
#include "lockfile.h"
#include "log.h"
#include "memory.h"
#include "parse.h"
#include "pathjoin.h"
#include "programs.h"
#include "reap.h"
#include "stopmark.h"
#include "util.h"
#include "xsocket.h"

/* How long a stop waits for a start in progress to finish with the start lock. */
#define STOP_LOCK_WAIT_MS 60000
/* A start waits for another start of the same profile at most its own wait plus this. */
#define START_LOCK_SLACK_MS 10000

void desktop_probe(struct profile *p, struct desktop_probe *ret)
{
	*ret = (struct desktop_probe){0};
	if (p->dirfd < 0 || identity_live_launcher(p->dirfd, &ret->launcher) < 0) {
		return;
	}
	ret->launcher_live = true;
	if (envfile_read(p->dirfd, STATE_ENV, ret->envbuf, sizeof(ret->envbuf), &ret->env) == 0 &&
	    envfile_get(&ret->env, "DISPLAY")) {
		ret->running = true;
	} else {
		ret->env = (struct envfile){0};
	}
}

int desktop_verify_server(const struct settings *s, struct profile *p,
			  const struct desktop_probe *probe, struct error *err)
{
	const char *display = envfile_get(&probe->env, "DISPLAY");
	unsigned n;
	if (!display || display[0] != ':' || parse_uint_range(display + 1, 0, 65535, &n) < 0) {
		return error_set(
			err, -EINVAL,
			"the desktop of profile '%s' published DISPLAY='%s', which is no local display; stop and start it again",
			p->name, display ? display : "");
	}
	char dir[4096];
	if (path_join(dir, sizeof(dir), s->x_lock_dir, ".X11-unix") < 0) {
		return error_set(err, -ENAMETOOLONG, "the X lock directory path is too long");
	}
	uid_t owner = 0;
	int r = xsocket_server_owned_by(dir, n, geteuid(), &owner);
	if (r == -EPERM) {
		return error_set(
			err, r,
			"refusing to use :%u: the X server answering there runs as uid %u, not as you, so it is not the desktop of profile '%s'. Stop it with 'botdesk stop' and start it again",
			n, (unsigned)owner, p->name);
	}
	if (r < 0) {
		return error_set(
			err, r,
			"the X server of profile '%s' on :%u does not answer (%s); restart it with 'botdesk stop' and 'botdesk start'",
			p->name, n, strerror(-r));
	}
	return 0;
}

void desktop_own_memory(const struct settings *s, const struct desktop_probe *probe,
			int64_t *ret_mb, int64_t *ret_max_mb)
{
	*ret_mb = *ret_max_mb = -1;
	struct cgroup_view v;
	char cg[CGROUP_PATH_MAX];
	bool v2;
	if (!probe->launcher_live) {
		return;
	}
	cgroup_view_read(s->cgroup_root, NULL, &v);
	if (cgroup_of_pid(&v, probe->launcher.pid, &v2, cg, sizeof(cg)) < 0) {
		return;
	}
	const char *base = strrchr(cg, '/');
	if (!base || !startswith(base + 1, DESKCG_PREFIX)) {
		return;
	}
	struct cgroup_memory m;
	cgroup_memory_read(cg, v2, &m);
	*ret_mb = m.usage >= 0 ? m.usage / (1024 * 1024) : -1;
	*ret_max_mb = m.limit >= 0 ? m.limit / (1024 * 1024) : -1;
}

void desktop_join_cgroup(const struct settings *s, const struct desktop_probe *probe)
{
	char cg[CGROUP_PATH_MAX];
	if (!probe->launcher_live || deskcg_of_pid(s, probe->launcher.pid, cg, sizeof(cg)) < 0) {
		return;
	}
	_cleanup_close_ int fd = deskcg_open_procs(cg);
	if (fd < 0 || write(fd, "0", 1) != 1) {
		desk_warn(
			s,
			"the program runs outside the desktop's cgroup %s (%s), so the desktop's memory limit does not cover it",
			cg, strerror(errno));
	}
}

int desktop_cgroup_procs(const struct settings *s, const struct desktop_probe *probe)
{
	char cg[CGROUP_PATH_MAX];
	if (!probe->launcher_live || deskcg_of_pid(s, probe->launcher.pid, cg, sizeof(cg)) < 0) {
		return -ENOENT;
	}
	return deskcg_open_procs(cg);
}

void desktop_stamp_activity(const struct settings *s, struct profile *p)
{
	if (p->dirfd >= 0) {
		activity_stamp(p->dirfd);
		/* And where an administrator's 'list --all' sees it without our private state: the
		 * runner's mark alone (common/activity.h). */
		unsigned n;
		if (display_recorded(p->dirfd, &n) == 0) {
			hostscan_stamp(s, n);
		}
	}
}

int64_t desktop_idle_seconds(struct profile *p)
{
	struct stat st;
	if (p->dirfd < 0 || (fstatat(p->dirfd, STATE_ACTIVITY, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
			     fstatat(p->dirfd, STATE_ENV, &st, AT_SYMLINK_NOFOLLOW) < 0)) {
		return -1;
	}
	time_t now = time(NULL);
	return now > st.st_mtime ? (int64_t)(now - st.st_mtime) : 0;
}

static int take_start_lock(struct profile *p, uint64_t timeout_ms, struct error *err)
{
	int fd = lockfile_take(p->dirfd, STATE_START_LOCK, timeout_ms);
	if (fd == -ETIMEDOUT) {
		return error_set(
			err, fd,
			"another botdesk start or stop of profile '%s' is still running; retry when it has finished",
			p->name);
	}
	if (fd < 0) {
		return error_set(err, fd, "cannot take %s/%s: %s%s", p->dir, STATE_START_LOCK,
				 strerror(-fd),
				 fd == -ELOOP ? " (a symbolic link: remove it)" : "");
	}
	return fd;
}

static int check_programs(const struct settings *s, struct error *err)
{
	const char *missing[POLICY_PROGRAM_COUNT + 1];
	if (programs_missing(s->search_path, missing) == 0) {
		return 0;
	}
	struct install_decision d;
	install_decide(s, missing, &d);
	return error_set(err, -ENOENT, "%s", d.message);
}

static int check_memory(const struct settings *s, struct error *err)
{
	struct memory_info m;
	memory_read(s, &m);
	switch (memory_judge(&m, s->min_free_mb)) {
	case MEMORY_SHORT: {
		char msg[512];
		memory_blocker(&m, s->min_free_mb, msg, sizeof(msg));
		return error_set(
			err, -ENOMEM,
			"%s. Free some memory, or lower BOTDESK_MIN_FREE_MB (0 turns the check off)",
			msg);
	}
	case MEMORY_TIGHT:
		desk_warn(
			s,
			"starting with only %lld MB available (%llu MB is the minimum): the desktop has little room for a browser",
			(long long)m.available_mb, (unsigned long long)s->min_free_mb);
		return 0;
	case MEMORY_OK:
	default:
		return 0;
	}
}

static int start_locked(const struct settings *s, struct profile *p, uint64_t wait_ms,
			struct error *err)
{
	struct desktop_probe probe;
	desktop_probe(p, &probe);
	if (probe.running) {
		/* The gate guards a new spawn only: a running desktop uses the memory it has. */
		return 0;
	}
	if (probe.launcher_live) {
		/* Alive but unpublished with no start in progress (we hold the start lock): its
		 * starter died mid-start. Start over rather than adopt a desktop of unknown state.
		 */
		desk_warn(
			s,
			"the launcher (pid %d) of profile '%s' never published its desktop; stopping it and starting afresh",
			(int)probe.launcher.pid, p->name);
		(void)group_terminate(probe.launcher.pid, LAUNCHER_STOP_GRACE_MS, NULL);
		(void)unlink_at_if_exists(p->dirfd, STATE_PIDFILE);
	}
	if (access(s->launcher, X_OK) < 0) {
		return error_set(
			err, negative_errno(),
			s->launcher_is_default
				? "the desktop session program %s is not installed (%s): install botdesk fully, or point BOTDESK_LAUNCHER at a launcher"
				: "BOTDESK_LAUNCHER=%s cannot be run (%s): point it at an executable launcher",
			s->launcher, strerror(errno));
	}
	bool reaped;
	int r = reap_orphan(s, p, &reaped, err);
	if (r < 0) {
		return r;
	}
	r = check_programs(s, err);
	if (r < 0) {
		return r;
	}
	r = check_memory(s, err);
	if (r < 0) {
		return r;
	}
	struct identity id;
	r = launch_desktop(s, p, wait_ms, &id, err);
	if (r < 0) {
		return r;
	}
	desktop_stamp_activity(s, p);
	return 0;
}

int desktop_start(const struct settings *s, struct profile *p, uint64_t wait_ms,
		  struct desktop_probe *ret_probe, struct error *err)
{
	_cleanup_close_ int lock = take_start_lock(p, wait_ms + START_LOCK_SLACK_MS, err);
	if (lock < 0) {
		return lock;
	}
	int r = start_locked(s, p, wait_ms, err);
	if (r == 0 && ret_probe) {
		desktop_probe(p, ret_probe);
	}
	return r;
}

int desktop_stop(const struct settings *s, struct profile *p, bool *ret_stopped, struct error *err)
{
	*ret_stopped = false;
	if (p->dirfd < 0) {
		/* No state directory (never started, or removed while a desktop ran): nothing to
		 * lock or clean, but a desktop of this profile may still run, found by its marker.
		 */
		return reap_orphan(s, p, ret_stopped, err);
	}
	_cleanup_close_ int lock = take_start_lock(p, STOP_LOCK_WAIT_MS, err);
	if (lock < 0) {
		return lock;
	}
	struct identity id;
	if (identity_live_launcher(p->dirfd, &id) == 0) {
		bool signalled = false;
		/* Before the first signal: a `botdesk run` watching this launcher learns that its
		 * owner stopped it, which is no crash. */
		(void)stopmark_write(p->dirfd, &id);
		char cg[CGROUP_PATH_MAX] = "";
		(void)deskcg_of_pid(s, id.pid, cg, sizeof(cg));
		int r = group_terminate(id.pid, LAUNCHER_STOP_GRACE_MS, &signalled);
		deskcg_remove(cg);
		if (r < 0) {
			stopmark_clear(p->dirfd);
			return error_set(
				err, r,
				"the desktop of profile '%s' (launcher pid %d) did not stop even after SIGKILL: %s",
				p->name, (int)id.pid, strerror(-r));
		}
		*ret_stopped = signalled;
	} else {
		int r = reap_orphan(s, p, ret_stopped, err);
		if (r < 0) {
			return r;
		}
	}
	(void)unlink_at_if_exists(p->dirfd, STATE_PIDFILE);
	(void)unlink_at_if_exists(p->dirfd, STATE_ENV);
	(void)unlink_at_if_exists(p->dirfd, STATE_ACTIVITY);
	(void)unlink_at_if_exists(p->dirfd, STATE_MEMORY);
	/* Nothing of ours serves the socket any more (a killed X server leaves its file behind):
	 * left in place, it would make the next start scan /proc for an orphan that is not there.
	 */
	(void)unlink_at_if_exists(p->dirfd, STATE_SOCKET);
	return 0;
}
