#include "deskcg.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "pathjoin.h"
#include "util.h"

#define MB (1024ULL * 1024)

static bool ours(const char *dir)
{
	char procs[CGROUP_PATH_MAX + 32];
	struct stat st, pst;
	return path_join(procs, sizeof(procs), dir, "cgroup.procs") == 0 && lstat(dir, &st) == 0 &&
	       S_ISDIR(st.st_mode) && st.st_uid == geteuid() && lstat(procs, &pst) == 0 &&
	       pst.st_uid == geteuid();
}

/* Whether a space-separated controller list file of dir names memory. */
static bool lists_memory(const char *dir, const char *name)
{
	char path[CGROUP_PATH_MAX + 64], buf[512];
	if (path_join(path, sizeof(path), dir, name) < 0 ||
	    read_file_at(AT_FDCWD, path, buf, sizeof(buf), NULL) < 0) {
		return false;
	}
	for (char *save = NULL, *t = strtok_r(buf, " \n", &save); t;
	     t = strtok_r(NULL, " \n", &save)) {
		if (streq(t, "memory")) {
			return true;
		}
	}
	return false;
}

static int write_text(const char *dir, const char *name, const char *text)
{
	char path[CGROUP_PATH_MAX + 64];
	int r = path_join(path, sizeof(path), dir, name);
	if (r < 0) {
		return r;
	}
	_cleanup_close_ int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return negative_errno();
	}
	return write_all(fd, text, strlen(text));
}

/* The hierarchy that holds the memory controller for us. */
static const struct cgroup_hier *memory_hier(const struct cgroup_view *v)
{
	if (v->v2.present && lists_memory(v->v2.mount, "cgroup.controllers")) {
		return &v->v2;
	}
	struct stat st;
	char limit[CGROUP_PATH_MAX + 32];
	if (v->v1.present &&
	    path_join(limit, sizeof(limit), v->v1.mount, "memory.limit_in_bytes") == 0 &&
	    stat(limit, &st) == 0) {
		return &v->v1;
	}
	return NULL;
}

static void not_ok(struct deskcg_base *b, const char *fix, const char *fmt, ...) _printf_(3, 4);
static void not_ok(struct deskcg_base *b, const char *fix, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	b->ok = false;
	vsnprintf(b->why, sizeof(b->why), fmt, ap);
	va_end(ap);
	snprintf(b->fix, sizeof(b->fix), "%s", fix);
}

static const char fix_delegate[] =
	"run botdesk in a cgroup delegated to you: under systemd, 'systemd-run --user --scope -p Delegate=yes botdesk start' (your user manager's cgroup is yours); in a container, a writable cgroup namespace; or, as root, chown a cgroup and its cgroup.procs and cgroup.subtree_control to the user";

/* v2: the memory controller must reach <delegated>/botdesk and from there its children. */
static bool hand_down_memory(struct deskcg_base *b, bool create)
{
	if (!lists_memory(b->delegated, "cgroup.controllers")) {
		not_ok(b,
		       "systemd: Delegate=memory (or yes) on the unit; a container: a cgroup namespace with the memory controller",
		       "the memory controller is not delegated to %s", b->delegated);
		return false;
	}
	if (!lists_memory(b->delegated, "cgroup.subtree_control")) {
		int r = create ? write_text(b->delegated, "cgroup.subtree_control", "+memory")
			       : -EAGAIN;
		if (r == -EBUSY) {
			not_ok(b,
			       "move them into a child cgroup first: mkdir shell there, then write each pid of its cgroup.procs into shell/cgroup.procs",
			       "%s, the cgroup delegated to you, holds processes itself, so it cannot hand the memory controller to cgroups below it",
			       b->delegated);
			return false;
		}
		if (r < 0 && r != -EAGAIN) {
			not_ok(b, fix_delegate, "cannot enable the memory controller in %s: %s",
			       b->delegated, strerror(-r));
			return false;
		}
	}
	if (create && !lists_memory(b->dir, "cgroup.subtree_control")) {
		int r = write_text(b->dir, "cgroup.subtree_control", "+memory");
		if (r < 0) {
			not_ok(b, fix_delegate, "cannot enable the memory controller in %s: %s",
			       b->dir, strerror(-r));
			return false;
		}
	}
	return true;
}

void deskcg_find(const struct settings *s, bool create, struct deskcg_base *ret)
{
	*ret = (struct deskcg_base){0};
	struct cgroup_view v;
	cgroup_view_read(s->cgroup_root, NULL, &v);
	const struct cgroup_hier *h = memory_hier(&v);
	if (!h) {
		not_ok(ret,
		       "mount cgroup2 (or v1's memory controller) at /sys/fs/cgroup, or point BOTDESK_CGROUP_ROOT at it",
		       "no memory cgroup controller is mounted under %s", s->cgroup_root);
		return;
	}
	ret->v2 = h->v2;
	if (!ours(h->self)) {
		not_ok(ret, fix_delegate, "your cgroup %s is not delegated to you", h->self);
		return;
	}
	/* Up to the highest cgroup of ours: the delegation's root, which holds every cgroup of
	 * ours, so moving a process between two of them needs nothing but our own files. */
	char dir[CGROUP_PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", h->self);
	snprintf(ret->delegated, sizeof(ret->delegated), "%s", dir);
	size_t root_len = strlen(h->mount);
	/* Root owns every cgroup: for it "ours" says nothing about delegation, and its desktops
	 * stay below the cgroup it was started in. */
	for (char *slash = strrchr(dir, '/'); slash && (size_t)(slash - dir) >= root_len;
	     slash = strrchr(dir, '/')) {
		*slash = '\0';
		if (geteuid() == 0 || strlen(dir) < root_len || !ours(dir)) {
			break;
		}
		snprintf(ret->delegated, sizeof(ret->delegated), "%s", dir);
	}
	int n = snprintf(ret->dir, sizeof(ret->dir), "%s/botdesk", ret->delegated);
	if (n < 0 || (size_t)n >= sizeof(ret->dir) - 128) {
		not_ok(ret, fix_delegate, "the delegated cgroup's path is too long");
		return;
	}
	if (create && mkdir(ret->dir, 0755) < 0 && errno != EEXIST) {
		not_ok(ret, fix_delegate, "cannot create %s: %s", ret->dir, strerror(errno));
		return;
	}
	if (ret->v2 && !hand_down_memory(ret, create)) {
		return;
	}
	ret->ok = true;
}

static int set_limit(const char *dir, const char *name, uint64_t bytes)
{
	char text[32];
	snprintf(text, sizeof(text), "%llu", (unsigned long long)bytes);
	return write_text(dir, name, text);
}

int deskcg_create(const struct deskcg_base *b, unsigned display, const char *profile,
		  uint64_t max_mb, char *ret_dir, size_t size, struct error *err)
{
	if (path_format(ret_dir, size, "%s/" DESKCG_PREFIX "%u-%s", b->dir, display, profile) < 0) {
		return error_set(err, -ENAMETOOLONG, "the desktop's cgroup path is too long");
	}
	/* A killed desktop's leftover of that name goes first, if it is empty. */
	(void)rmdir(ret_dir);
	if (mkdir(ret_dir, 0755) < 0) {
		return error_set(err, negative_errno(), "cannot create the desktop's cgroup %s: %s",
				 ret_dir, strerror(errno));
	}
	uint64_t max = max_mb * MB, high = max - max / 10;
	int r = set_limit(ret_dir, b->v2 ? "memory.high" : "memory.soft_limit_in_bytes", high);
	if (r == 0) {
		r = set_limit(ret_dir, b->v2 ? "memory.max" : "memory.limit_in_bytes", max);
	}
	if (r < 0) {
		(void)rmdir(ret_dir);
		return error_set(err, r, "cannot set the memory limit of %s: %s", ret_dir,
				 strerror(-r));
	}
	return 0;
}

int deskcg_open_procs(const char *dir)
{
	char path[CGROUP_PATH_MAX + 32];
	int r = path_join(path, sizeof(path), dir, "cgroup.procs");
	if (r < 0) {
		return r;
	}
	int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? negative_errno() : fd;
}

void deskcg_remove(const char *dir)
{
	if (dir && dir[0]) {
		(void)rmdir(dir);
	}
}

void deskcg_sweep(const struct deskcg_base *b)
{
	_cleanup_closedir_ DIR *d = opendir(b->dir);
	if (!d) {
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (startswith(de->d_name, DESKCG_PREFIX)) {
			/* A live desktop's is not empty: rmdir refuses it (EBUSY). */
			(void)unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
		}
	}
}

int deskcg_of_pid(const struct settings *s, pid_t pid, char *ret, size_t size)
{
	struct cgroup_view v;
	bool v2;
	cgroup_view_read(s->cgroup_root, NULL, &v);
	if (cgroup_of_pid(&v, pid, &v2, ret, size) < 0) {
		return -ENOENT;
	}
	const char *base = strrchr(ret, '/');
	return base && startswith(base + 1, DESKCG_PREFIX) ? 0 : -ENOENT;
}
