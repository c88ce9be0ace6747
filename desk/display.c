#include "display.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "fileio.h"
#include "lockfile.h"
#include "parse.h"
#include "pathjoin.h"
#include "proc.h"
#include "profile.h"
#include "util.h"
#include "xlock.h"
#include "xsocket.h"

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

/* The number of an X socket's path in the table ("@/tmp/.X11-unix/X<n>" or the path form), or
 * -1: digits only, no leading zero (X020 is no display's socket). */
static int socket_number(const char *tok)
{
	const char *prefix = XSOCKET_DIR "/X";
	if (*tok == '@') {
		tok++;
	}
	if (!startswith(tok, prefix)) {
		return -1;
	}
	const char *d = tok + strlen(prefix);
	unsigned n;
	if ((d[0] == '0' && d[1] != '\0') || parse_uint_range(d, 0, DISPLAY_NUM_MAX, &n) < 0) {
		return -1;
	}
	return (int)n;
}

int display_bound_read(const char *unix_table, struct display_bound *ret)
{
	memset(ret, 0, sizeof(*ret));
	_cleanup_fclose_ FILE *f = fopen(unix_table, "re");
	if (!f) {
		return negative_errno();
	}
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) >= 0) {
		/* "Num RefCount Protocol Flags Type St Inode Path": the path is the 8th column and
		 * absent for unnamed sockets. */
		char *save = NULL, *tok = strtok_r(line, " \t\n", &save);
		for (int col = 1; tok && col < 8; col++) {
			tok = strtok_r(NULL, " \t\n", &save);
		}
		int n = tok ? socket_number(tok) : -1;
		if (n >= 0) {
			ret->bits[n / 8] |= (uint8_t)(1u << (n % 8));
		}
	}
	ret->loaded = true;
	return 0;
}

static bool bound(const struct display_bound *b, unsigned n)
{
	return b->loaded && n <= DISPLAY_NUM_MAX && (b->bits[n / 8] & (1u << (n % 8)));
}

int display_socket_bound(const char *unix_table, unsigned n)
{
	struct display_bound b;
	int r = display_bound_read(unix_table, &b);
	return r < 0 ? r : bound(&b, n);
}

/* b: the unix table read once for a whole band (a table of a hundred desktops' sockets is
 * thousands of lines, and a band hundreds of numbers). */
static enum display_taken display_why_taken(const struct settings *s, const struct display_bound *b,
					    unsigned n)
{
	if (display_lock_live(s->x_lock_dir, n, NULL)) {
		return TAKEN_SERVER;
	}
	/* A leftover of another user's server (a stale or empty lock, a dead server's socket
	 * file) cannot be removed by us in the sticky X directories, so a server of ours could
	 * never claim the number: for us it is taken. Root can remove anything, so nothing is
	 * foreign to it. */
	if (geteuid() != 0) {
		char path[4096];
		struct stat st;
		/* A path that does not fit names no file of this number: nothing to check. */
		if (path_format(path, sizeof(path), "%s/.X%u-lock", s->x_lock_dir, n) == 0 &&
		    lstat(path, &st) == 0 && st.st_uid != geteuid()) {
			return TAKEN_LEFTOVER;
		}
		if (path_format(path, sizeof(path), "%s/.X11-unix/X%u", s->x_lock_dir, n) == 0 &&
		    lstat(path, &st) == 0 && st.st_uid != geteuid()) {
			return TAKEN_LEFTOVER;
		}
		/* Xvnc dies on a number whose compiled keymap file somebody else left (see
		 * xsocket.h). */
		if (xsocket_keymap_squatted(s->x_lock_dir, n, geteuid(), NULL)) {
			return TAKEN_KEYMAP;
		}
	}
	/* No table (not Linux procfs, or a test pointing nowhere): the lock alone decides. */
	return bound(b, n) ? TAKEN_SOCKET : TAKEN_NOT;
}

bool display_in_use(const struct settings *s, unsigned n)
{
	struct display_bound b;
	(void)display_bound_read(s->x_unix_table, &b);
	return display_why_taken(s, &b, n) != TAKEN_NOT;
}

unsigned display_band_used(const struct settings *s)
{
	struct display_bound b;
	(void)display_bound_read(s->x_unix_table, &b);
	unsigned used = 0;
	for (unsigned n = s->band_lo; n <= s->band_hi; n++) {
		used += display_why_taken(s, &b, n) != TAKEN_NOT;
	}
	return used;
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

static bool avoided(unsigned n, const unsigned *avoid, size_t n_avoid)
{
	for (size_t i = 0; i < n_avoid; i++) {
		if (avoid[i] == n) {
			return true;
		}
	}
	return false;
}

/* The message for a band with no free number: each number for what really holds it (a stale
 * file another user left is not a running server, and the way out differs). */
static int band_full(const struct settings *s, const struct display_bound *b, const unsigned *avoid,
		     size_t n_avoid, struct error *err)
{
	unsigned count[TAKEN_COUNT] = {0};
	for (unsigned n = s->band_lo; n <= s->band_hi; n++) {
		enum display_taken why =
			avoided(n, avoid, n_avoid) ? TAKEN_SERVER : display_why_taken(s, b, n);
		count[why]++;
	}
	return error_set(
		err, -EBUSY,
		"no free X display number in the band %u-%u: %u held by running X servers, %u by bound X sockets, %u by lock or socket files other users' servers left behind (only they or root can remove them), %u by other users' keymap files (/tmp/server-N.xkm). Stop a desktop you no longer need ('botdesk list'), ask an administrator to remove stale files ('botdesk doctor' counts them), or choose another BOTDESK_DISPLAY_BAND%s",
		s->band_lo, s->band_hi, count[TAKEN_SERVER], count[TAKEN_SOCKET],
		count[TAKEN_LEFTOVER], count[TAKEN_KEYMAP],
		s->policy.has_band ? " inside the host's band (see 'botdesk doctor')" : "");
}

int display_pick(const struct settings *s, int dirfd, unsigned avoid, unsigned *ret,
		 struct error *err)
{
	struct display_bound b;
	(void)display_bound_read(s->x_unix_table, &b);
	unsigned rec;
	if (display_recorded(dirfd, &rec) == 0 && rec >= s->band_lo && rec <= s->band_hi &&
	    rec != avoid && display_why_taken(s, &b, rec) == TAKEN_NOT) {
		*ret = rec;
		return 0;
	}
	for (unsigned n = s->band_lo; n <= s->band_hi; n++) {
		if (n != avoid && display_why_taken(s, &b, n) == TAKEN_NOT) {
			*ret = n;
			return 0;
		}
	}
	return band_full(s, &b, &avoid, avoid ? 1 : 0, err);
}

int display_pick_spread(const struct settings *s, const unsigned *avoid, size_t n_avoid,
			unsigned *ret, struct error *err)
{
	struct display_bound b;
	(void)display_bound_read(s->x_unix_table, &b);
	unsigned n_free = 0, pick = 0;
	uint32_t rnd;
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd)) {
		rnd = (uint32_t)getpid();
	}
	/* Reservoir sampling: each free number equally likely, in one pass over the band. */
	for (unsigned n = s->band_lo; n <= s->band_hi; n++) {
		if (avoided(n, avoid, n_avoid) || display_why_taken(s, &b, n) != TAKEN_NOT) {
			continue;
		}
		n_free++;
		if (rnd % n_free == 0) {
			pick = n;
		}
		rnd = rnd * 1103515245u + 12345u;
	}
	if (n_free == 0) {
		return band_full(s, &b, avoid, n_avoid, err);
	}
	*ret = pick;
	return 0;
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

/* The lock's directory must be ours alone: whoever else may enter or write it can hold the lock
 * (a file of theirs we may open, or one they open through a directory they can search) and
 * stall every start until its deadline. XDG_RUNTIME_DIR pointing into /tmp was such a place. */
static const char *file_kind(mode_t mode)
{
	if (S_ISLNK(mode)) {
		return "a symbolic link";
	}
	return S_ISDIR(mode) ? "a directory" : "not a directory but a file";
}

static int check_private_parent(const char *lock, struct error *err)
{
	_cleanup_free_ char *dir = strdup(lock);
	if (!dir) {
		return -ENOMEM;
	}
	char *slash = strrchr(dir, '/');
	if (!slash) {
		return 0;
	}
	*slash = '\0';
	const char *d = *dir ? dir : "/";
	struct stat st;
	if (lstat(d, &st) < 0) {
		return error_set(err, negative_errno(), "cannot look at %s: %s", d,
				 strerror(errno));
	}
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char what[96] = "the allocation lock's directory";
	/* Elsewhere nobody but us may write it (the lock is made 0600); the runtime directory
	 * must be what its specification says, 0700. */
	mode_t loose = S_IWGRP | S_IWOTH;
	if (rt && rt[0] == '/') {
		/* "…/run/" and "…/run" are the same directory. */
		size_t n = strlen(rt);
		while (n > 1 && rt[n - 1] == '/') {
			n--;
		}
		if (strlen(d) == n && strncmp(rt, d, n) == 0) {
			snprintf(what, sizeof(what), "XDG_RUNTIME_DIR");
			loose = 077;
		}
	}
	if (S_ISDIR(st.st_mode) && st.st_uid == geteuid() && (st.st_mode & loose) == 0) {
		return 0;
	}
	return error_set(
		err, -EPERM,
		"refusing the display allocation lock %s: %s %s is %s of uid %u with mode %04o, not a private directory of yours, so another user could hold the lock and stall every start. Point XDG_RUNTIME_DIR (or BOTDESK_ALLOC_LOCK) at a directory you own with mode 0700, e.g. /run/user/%u, or unset it",
		lock, what, d, file_kind(st.st_mode), (unsigned)st.st_uid,
		(unsigned)(st.st_mode & 07777), (unsigned)geteuid());
}

int display_alloc_lock(const struct settings *s, uint64_t timeout_ms, struct error *err)
{
	int r = mkdir_private_parent(s->alloc_lock);
	if (r < 0) {
		return error_set(err, r,
				 "cannot create the directory of the allocation lock %s: %s",
				 s->alloc_lock, strerror(-r));
	}
	r = check_private_parent(s->alloc_lock, err);
	if (r < 0) {
		return r;
	}
	int fd = lockfile_take(AT_FDCWD, s->alloc_lock, timeout_ms);
	if (fd == -ETIMEDOUT) {
		return error_set(
			err, fd,
			"another botdesk start held the display allocation lock %s for too long; retry, or look for a stuck botdesk process",
			s->alloc_lock);
	}
	if (fd < 0) {
		return error_set(err, fd, "cannot take the display allocation lock %s: %s",
				 s->alloc_lock, strerror(-fd));
	}
	return fd;
}
