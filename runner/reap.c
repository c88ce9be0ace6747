#include "reap.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "display.h"
#include "fileio.h"
#include "group.h"
#include "identity.h"
#include "log.h"
#include "parse.h"
#include "proc.h"
#include "util.h"
#include "xlock.h"

/* An X server gets this long to exit on TERM before KILL. */
#define REAP_GRACE_MS 2000

struct orphan {
	pid_t pid;
	struct proc_stat st;
	int display; /* -1 when unknown */
};

bool reap_cmdline_is_our_server(const char *cmdline, size_t len, const char *socket_path)
{
	const char *end = cmdline + len;
	const char *base = strrchr(cmdline, '/');
	base = base ? base + 1 : cmdline;
	if (!strstr(base, "Xvnc") && !strstr(base, "Xtigervnc")) {
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

/* A process is a candidate only if it is alive and runs as us: we never signal anyone else's. */
static bool ours_and_live(pid_t pid, struct proc_stat *st)
{
	uid_t uid;
	return proc_stat_read(pid, st) == 0 && proc_stat_is_live(st) &&
	       proc_owner(pid, &uid) == 0 && uid == geteuid();
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
	snprintf(xvnc, sizeof(xvnc), "%.*s%s", (int)(strrchr(socket_path, '/') + 1 - socket_path),
		 socket_path, STATE_XVNC_SOCKET);
	if (!reap_cmdline_is_our_server(cmd, len, socket_path) &&
	    !reap_cmdline_is_our_server(cmd, len, xvnc)) {
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

static bool find_by_cmdline(const char *socket_path, struct orphan *ret)
{
	DIR *d = opendir("/proc");
	if (!d) {
		return false;
	}
	bool found = false;
	struct dirent *de;
	while (!found && (de = readdir(d))) {
		uint64_t pid;
		struct proc_stat st;
		int disp = -1;
		if (parse_u64(de->d_name, UINT64_MAX, &pid) < 0 || !pid_is_plausible(pid) ||
		    !ours_and_live((pid_t)pid, &st)) {
			continue;
		}
		if (names_socket((pid_t)pid, socket_path, &disp)) {
			*ret = (struct orphan){.pid = (pid_t)pid, .st = st, .display = disp};
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* Removes the X lock and path socket of :n, but only while the lock still names the server we
 * stopped: a new server may already own the number. */
static void drop_x_files(const struct settings *s, int n, pid_t server)
{
	if (n < 0) {
		return;
	}
	char lock[4096], sock[4096];
	snprintf(lock, sizeof(lock), "%s/.X%d-lock", s->x_lock_dir, n);
	snprintf(sock, sizeof(sock), "%s/.X11-unix/X%d", s->x_lock_dir, n);
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

int reap_orphan(const struct settings *s, struct profile *p, bool *ret_reaped, struct error *err)
{
	*ret_reaped = false;
	if (p->dirfd < 0) {
		return 0;
	}
	_cleanup_free_ char *socket_path = profile_path(p, STATE_SOCKET);
	if (!socket_path) {
		return -ENOMEM;
	}
	struct identity dead = {0};
	(void)identity_read(p->dirfd, &dead);
	pid_t group = launcher_group(&dead);

	struct orphan o;
	bool found = find_by_lock(s, p, group, dead.starttime, socket_path, &o);
	/* The /proc scan is the expensive part: only a launch that left its marks (a pid file or a
	 * socket) can have left a server behind, and a clean stop removes both. */
	struct stat st;
	if (!found && (fstatat(p->dirfd, STATE_PIDFILE, &st, AT_SYMLINK_NOFOLLOW) == 0 ||
		       fstatat(p->dirfd, STATE_SOCKET, &st, AT_SYMLINK_NOFOLLOW) == 0)) {
		found = find_by_cmdline(socket_path, &o);
	}
	if (!found) {
		return 0;
	}
	int r;
	if (group > 0 && o.st.pgid == group && o.st.starttime >= dead.starttime) {
		/* The server is in the dead launcher's group: the rest of that desktop (bus, Xfce
		 * components) is there too and goes with it. */
		r = group_terminate(group, REAP_GRACE_MS, NULL);
	} else {
		r = process_terminate(o.pid, o.st.starttime, REAP_GRACE_MS);
	}
	if (r < 0 && r != -ESRCH) {
		return error_set(err, r,
				 "could not stop the X server (pid %d) left by a dead launcher of "
				 "profile '%s': %s",
				 (int)o.pid, p->name, strerror(-r));
	}
	log_warn("stopped the X server (pid %d) left behind by a dead launcher of profile '%s'",
		 (int)o.pid, p->name);
	drop_x_files(s, o.display, o.pid);
	(void)unlink_at_if_exists(p->dirfd, STATE_PIDFILE);
	(void)unlink_at_if_exists(p->dirfd, STATE_ENV);
	(void)unlink_at_if_exists(p->dirfd, STATE_SOCKET);
	*ret_reaped = true;
	return 0;
}
