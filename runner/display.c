#include "display.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "lockfile.h"
#include "parse.h"
#include "proc.h"
#include "profile.h"
#include "util.h"
#include "xlock.h"
#include "xsocket.h"

#define DISPLAY_NUM_MAX 32767

bool display_lock_live(const char *x_lock_dir, unsigned n, pid_t *ret_pid)
{
	pid_t pid;
	if (xlock_read(x_lock_dir, n, &pid) < 0) {
		return false;
	}
	struct proc_stat st;
	if (proc_stat_read(pid, &st) < 0 || !proc_stat_is_live(&st)) {
		return false;
	}
	if (ret_pid) {
		*ret_pid = (pid_t)pid;
	}
	return true;
}

int display_socket_bound(const char *unix_table, unsigned n)
{
	FILE *f = fopen(unix_table, "re");
	if (!f) {
		return negative_errno();
	}
	char abstract[64], path[64];
	snprintf(abstract, sizeof(abstract), "@/tmp/.X11-unix/X%u", n);
	snprintf(path, sizeof(path), "/tmp/.X11-unix/X%u", n);
	char *line = NULL;
	size_t cap = 0;
	int found = 0;
	while (!found && getline(&line, &cap, f) >= 0) {
		/* "Num RefCount Protocol Flags Type St Inode Path": the path is the 8th column and
		 * absent for unnamed sockets. */
		char *save = NULL, *tok = strtok_r(line, " \t\n", &save);
		for (int col = 1; tok && col < 8; col++) {
			tok = strtok_r(NULL, " \t\n", &save);
		}
		if (tok && (streq(tok, abstract) || streq(tok, path))) {
			found = 1;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* A leftover of another user's server (a stale lock, a dead server's socket file) cannot be
 * removed by us in the sticky X directories, so a server of ours could never claim the number:
 * for us it is taken. Root can remove anything, so nothing is foreign to it. */
static bool foreign_leftover(const char *x_lock_dir, unsigned n)
{
	if (geteuid() == 0) {
		return false;
	}
	char path[4096];
	struct stat st;
	snprintf(path, sizeof(path), "%s/.X%u-lock", x_lock_dir, n);
	if (lstat(path, &st) == 0 && st.st_uid != geteuid()) {
		return true;
	}
	snprintf(path, sizeof(path), "%s/.X11-unix/X%u", x_lock_dir, n);
	if (lstat(path, &st) == 0 && st.st_uid != geteuid()) {
		return true;
	}
	/* Xvnc dies on a number whose compiled keymap file somebody else left (see xsocket.h). */
	return xsocket_keymap_squatted(x_lock_dir, n, geteuid(), NULL);
}

bool display_in_use(const struct settings *s, unsigned n)
{
	if (display_lock_live(s->x_lock_dir, n, NULL) || foreign_leftover(s->x_lock_dir, n)) {
		return true;
	}
	/* No table (not Linux procfs, or a test pointing nowhere): the lock alone decides. */
	return display_socket_bound(s->x_unix_table, n) > 0;
}

int display_recorded(int dirfd, unsigned *ret)
{
	char buf[32];
	int r = read_file_at(dirfd, STATE_DISPLAY, buf, sizeof(buf), NULL);
	if (r < 0) {
		return r;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return parse_uint_range(buf, 0, DISPLAY_NUM_MAX, ret);
}

int display_pick(const struct settings *s, int dirfd, unsigned avoid, unsigned *ret,
		 struct error *err)
{
	unsigned rec;
	if (display_recorded(dirfd, &rec) == 0 && rec >= s->band_lo && rec <= s->band_hi &&
	    rec != avoid && !display_in_use(s, rec)) {
		*ret = rec;
		return 0;
	}
	for (unsigned n = s->band_lo; n <= s->band_hi; n++) {
		if (n != avoid && !display_in_use(s, n)) {
			*ret = n;
			return 0;
		}
	}
	return error_set(
		err, -EBUSY,
		"no free X display number in the band %u-%u: every one is held by a running "
		"X server. Stop a desktop you no longer need, or widen BOTDESK_DISPLAY_BAND",
		s->band_lo, s->band_hi);
}

static int mkdir_private_parent(const char *path)
{
	_cleanup_free_ char *dir = strdup(path);
	if (!dir) {
		return -ENOMEM;
	}
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir) {
		return 0;
	}
	*slash = '\0';
	return mkdir_p(dir, 0700);
}

int display_alloc_lock(const struct settings *s, uint64_t timeout_ms, struct error *err)
{
	int r = mkdir_private_parent(s->alloc_lock);
	if (r < 0) {
		return error_set(err, r,
				 "cannot create the directory of the allocation lock %s: %s",
				 s->alloc_lock, strerror(-r));
	}
	int fd = lockfile_take(AT_FDCWD, s->alloc_lock, timeout_ms);
	if (fd == -ETIMEDOUT) {
		return error_set(
			err, fd,
			"another botdesk start held the display allocation lock %s for too "
			"long; retry, or look for a stuck botdesk process",
			s->alloc_lock);
	}
	if (fd < 0) {
		return error_set(err, fd, "cannot take the display allocation lock %s: %s",
				 s->alloc_lock, strerror(-fd));
	}
	return fd;
}
