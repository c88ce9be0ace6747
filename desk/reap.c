#include "reap.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "deskcg.h"
#include "display.h"
#include "fileio.h"
#include "group.h"
#include "identity.h"
#include "launch.h"
#include "launcher.h"
#include "log.h"
#include "parse.h"
#include "pathjoin.h"
#include "proc.h"
#include "procwalk.h"
#include "util.h"
#include "xlock.h"

/* An X server gets this long to exit on TERM before KILL. */
#define REAP_GRACE_MS 2000

struct orphan {
	pid_t pid;
	struct proc_stat st;
	int display; /* -1 when unknown */
};

/* Whether the NUL-separated command line names an X server ("Xvnc" or "Xtigervnc" in argv[0]'s
 * basename) and has socket_path as one of its arguments. */
static bool reap_cmdline_is_our_server(const char *cmdline, size_t len, const char *socket_path)
{
	const char *end = cmdline + len;
	if (!proc_cmdline_is_xvnc(cmdline)) {
		return false;
	}
	for (const char *a = cmdline + strlen(cmdline) + 1; a < end; a += strlen(a) + 1) {
		if (streq(a, socket_path)) {
			return true;
		}
	}
	return false;
}

/* The ":N" argument of an X server's command line, or -1. */
static int cmdline_display(const char *cmdline, size_t len)
{
	const char *end = cmdline + len;
	for (const char *a = cmdline; a < end; a += strlen(a) + 1) {
		unsigned n;
		if (a[0] == ':' && parse_uint_range(a + 1, 0, 32767, &n) == 0) {
			return (int)n;
		}
	}
	return -1;
}

/* A process that exists and is not a zombie. */
static bool pid_alive(pid_t pid)
{
	struct proc_stat st;
	return proc_stat_read(pid, &st) == 0 && proc_stat_is_live(&st);
}

/* A process is a candidate only if it is alive and runs as us: we never signal anyone else's. */
static bool ours(pid_t pid)
{
	uid_t uid;
	return proc_owner(pid, &uid) == 0 && uid == geteuid();
}

static bool ours_and_live(pid_t pid, struct proc_stat *st)
{
	return proc_stat_read(pid, st) == 0 && proc_stat_is_live(st) && ours(pid);
}

static bool names_socket(pid_t pid, const char *socket_path, int *ret_display)
{
	_cleanup_free_ char *cmd = NULL;
	size_t len;
	if (proc_cmdline_read(pid, &cmd, &len) < 0) {
		return false;
	}
	/* Xvnc serves the gate on xvnc.sock beside rfb.sock; a server of an older botdesk still
	 * names rfb.sock itself. */
	char xvnc[4096];
	bool have_xvnc = path_format(xvnc, sizeof(xvnc), "%.*s%s",
				     (int)(strrchr(socket_path, '/') + 1 - socket_path),
				     socket_path, STATE_XVNC_SOCKET) == 0;
	if (!reap_cmdline_is_our_server(cmd, len, socket_path) &&
	    !(have_xvnc && reap_cmdline_is_our_server(cmd, len, xvnc))) {
		return false;
	}
	if (ret_display) {
		*ret_display = cmdline_display(cmd, len);
	}
	return true;
}

/* The dead launcher's process group, when it is still evidence: a pid stays reserved while any
 * process has it as its group id, so the group is the launcher's as long as that pid is either
 * gone or still the launcher itself (a zombie born at the recorded time). A pid recycled as
 * another process is no evidence of anything: 0. */
static pid_t launcher_group(const struct identity *dead)
{
	if (dead->pid <= 0) {
		return 0;
	}
	struct proc_stat st;
	int r = proc_stat_read(dead->pid, &st);
	if (r == -ENOENT || r == -ESRCH) {
		return dead->pid;
	}
	return r == 0 && st.starttime == dead->starttime ? dead->pid : 0;
}

static bool find_by_lock(const struct settings *s, struct profile *p, pid_t dead_pgid,
			 uint64_t dead_starttime, const char *socket_path, struct orphan *ret)
{
	unsigned n;
	pid_t pid;
	if (display_recorded(p->dirfd, &n) < 0 || !display_lock_live(s->x_lock_dir, n, &pid)) {
		return false;
	}
	struct proc_stat st;
	if (!ours_and_live(pid, &st)) {
		return false;
	}
	/* A server born before the launcher cannot be one it started. */
	bool in_group = dead_pgid > 0 && st.pgid == dead_pgid && st.starttime >= dead_starttime;
	if (in_group || names_socket(pid, socket_path, NULL)) {
		*ret = (struct orphan){.pid = pid, .st = st, .display = (int)n};
		return true;
	}
	return false;
}

/* Whether pid's initial environment holds exactly the entry want ("BOTDESK_DESKTOP=..."). Only
 * the launcher has it: the session passes no BOTDESK_* variable to what it starts. */
static bool environ_has(pid_t pid, const char *want)
{
	char path[64];
	if (path_format(path, sizeof(path), "/proc/%d/environ", (int)pid) < 0) {
		return false;
	}
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		return false;
	}
	/* The contract's variables come last (desk/launch.c), after the caller's allowlist. */
	char buf[65536];
	ssize_t n = read_all(fd, buf, sizeof(buf) - 1);
	if (n <= 0) {
		return false;
	}
	buf[n] = '\0';
	size_t wlen = strlen(want);
	for (const char *e = buf; e < buf + n; e += strlen(e) + 1) {
		if (strlen(e) == wlen && memcmp(e, want, wlen) == 0) {
			return true;
		}
	}
	return false;
}

/* One pass over /proc for either kind of desktop of ours that nothing in the state directory
 * leads to: a live launcher whose state directory was lost (a session leader whose environment
 * carries this profile's BOTDESK_DESKTOP marker), or an X server whose arguments name our
 * socket (its launcher died). The live launcher wins: stopping its group takes its server too. */
struct scan {
	const char *socket_path, *marker;
	struct orphan *ret;
	bool *ret_launcher;
	bool found;
};

static int scan_one(pid_t pid, const struct proc_stat *st, void *userdata)
{
	struct scan *sc = userdata;
	int disp = -1;
	if (!ours(pid)) {
		return 0;
	}
	if (st->sid == pid && environ_has(pid, sc->marker)) {
		*sc->ret = (struct orphan){.pid = pid, .st = *st, .display = -1};
		*sc->ret_launcher = sc->found = true;
		return 1;
	}
	if (!sc->found && names_socket(pid, sc->socket_path, &disp)) {
		*sc->ret = (struct orphan){.pid = pid, .st = *st, .display = disp};
		*sc->ret_launcher = false;
		sc->found = true;
	}
	return 0;
}

static bool find_by_scan(const char *socket_path, const char *marker, struct orphan *ret,
			 bool *ret_launcher)
{
	struct scan sc = {.socket_path = socket_path,
			  .marker = marker,
			  .ret = ret,
			  .ret_launcher = ret_launcher};
	(void)proc_walk(scan_one, &sc);
	return sc.found;
}

/* Removes the X lock and path socket of :n, but only while the lock still names the server we
 * stopped: a new server may already own the number. */
void reap_drop_x_files(const struct settings *s, int n, pid_t server)
{
	if (n < 0) {
		return;
	}
	char lock[4096], sock[4096];
	if (path_format(lock, sizeof(lock), "%s/.X%d-lock", s->x_lock_dir, n) < 0 ||
	    path_format(sock, sizeof(sock), "%s/.X11-unix/X%d", s->x_lock_dir, n) < 0) {
		return;
	}
	pid_t pid;
	if (xlock_read(s->x_lock_dir, (unsigned)n, &pid) < 0 || pid != server) {
		return;
	}
	(void)unlink(lock);
	struct stat st;
	if (lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_uid == geteuid()) {
		(void)unlink(sock);
	}
}

/* The launcher found by its marker is alive: its whole group goes, and its own teardown removes
 * its claim on the display. */
static int stop_lost_launcher(const struct settings *s, const struct profile *p,
			      const struct orphan *o, struct error *err)
{
	char cg[CGROUP_PATH_MAX] = "";
	(void)deskcg_of_pid(s, o->pid, cg, sizeof(cg));
	int r = group_terminate(o->pid, LAUNCHER_STOP_GRACE_MS, NULL);
	deskcg_remove(cg);
	if (r < 0 && r != -ESRCH) {
		return error_set(
			err, r,
			"could not stop the desktop of profile '%s' (launcher pid %d) whose state directory was lost: %s",
			p->name, (int)o->pid, strerror(-r));
	}
	desk_warn(
		s,
		"stopped the desktop of profile '%s' (launcher pid %d) whose state directory %s had been removed while it ran",
		p->name, (int)o->pid, p->dir);
	return 0;
}

int reap_orphan(const struct settings *s, struct profile *p, bool *ret_reaped, struct error *err)
{
	*ret_reaped = false;
	_cleanup_free_ char *socket_path = profile_path(p, STATE_SOCKET);
	char marker[4200];
	if (!socket_path || launch_marker(s, p->name, marker, sizeof(marker)) < 0) {
		return -ENOMEM;
	}
	struct identity dead = {0};
	if (p->dirfd >= 0) {
		(void)identity_read(p->dirfd, &dead);
	}
	pid_t group = launcher_group(&dead);

	struct orphan o;
	bool launcher = false;
	bool found = p->dirfd >= 0 && find_by_lock(s, p, group, dead.starttime, socket_path, &o);
	/* Nothing in the state directory may lead to the desktop (it may have been removed with
	 * everything in it while the desktop ran), so the scan runs whenever the lock did not
	 * find it: a few milliseconds, in start and stop only. */
	if (!found) {
		found = find_by_scan(socket_path, marker, &o, &launcher);
	}
	if (!found) {
		return 0;
	}
	int r;
	char cg[CGROUP_PATH_MAX] = "";
	if (!launcher) {
		(void)deskcg_of_pid(s, o.pid, cg, sizeof(cg));
	}
	if (launcher) {
		r = stop_lost_launcher(s, p, &o, err);
		if (r < 0) {
			return r;
		}
		*ret_reaped = true;
		return 0;
	}
	if (group > 0 && o.st.pgid == group && o.st.starttime >= dead.starttime) {
		/* The server is in the dead launcher's group: the rest of that desktop (bus, Xfce
		 * components) is there too and goes with it. */
		r = group_terminate(group, REAP_GRACE_MS, NULL);
	} else if (o.st.pgid > 0 && o.st.pgid != o.pid && !pid_alive(o.st.pgid)) {
		/* No pid file to name the dead launcher (the state directory is gone), but the
		 * server is in a group whose leader is gone: that is the dead launcher's desktop.
		 */
		r = group_terminate(o.st.pgid, REAP_GRACE_MS, NULL);
	} else {
		r = process_terminate(o.pid, o.st.starttime, REAP_GRACE_MS);
	}
	if (r < 0 && r != -ESRCH) {
		return error_set(
			err, r,
			"could not stop the X server (pid %d) left by a dead launcher of profile '%s': %s",
			(int)o.pid, p->name, strerror(-r));
	}
	desk_warn(s, "stopped the X server (pid %d) left behind by a dead launcher of profile '%s'",
		  (int)o.pid, p->name);
	reap_drop_x_files(s, o.display, o.pid);
	deskcg_remove(cg);
	if (p->dirfd >= 0) {
		(void)unlink_at_if_exists(p->dirfd, STATE_PIDFILE);
		(void)unlink_at_if_exists(p->dirfd, STATE_ENV);
		(void)unlink_at_if_exists(p->dirfd, STATE_SOCKET);
	}
	*ret_reaped = true;
	return 0;
}
