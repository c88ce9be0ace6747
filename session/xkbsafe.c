#include "xkbsafe.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "util.h"

/* The largest compat file is a few KiB; anything past this is no compat file. */
#define COMPAT_MAX (256 * 1024)

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether "interpret" at p starts a statement: only blanks before it on its line (not a
 * comment, not part of a word) and a blank after it. */
static bool statement_at(const char *text, const char *p)
{
	if (!is_space(p[9])) {
		return false;
	}
	for (const char *q = p; q > text && q[-1] != '\n'; q--) {
		if (!is_space(q[-1])) {
			return false;
		}
	}
	return true;
}

size_t xkbsafe_filter(char *text, size_t len)
{
	char *p = text;
	while ((p = strcasestr(p, "interpret")) != NULL) {
		if (!statement_at(text, p)) {
			p += 9;
			continue;
		}
		char *end = strstr(p, "};");
		if (!end) {
			break;
		}
		end += 2;
		char saved = *end;
		*end = '\0';
		bool zap = strcasestr(p, "terminate") != NULL;
		*end = saved;
		if (zap) {
			memmove(p, end, (size_t)(text + len - end) + 1);
			len -= (size_t)(end - p);
		} else {
			p = end;
		}
	}
	return len;
}

/* Empties and removes dir/name, two levels deep (the copy's layout), never following a link. */
static int remove_copy(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return errno == ENOENT ? 0 : negative_errno();
	}
	DIR *d;
	int r = opendir_fd(fd, &d);
	if (r < 0) {
		return r;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (streq(e->d_name, ".") || streq(e->d_name, "..")) {
			continue;
		}
		if (unlinkat(fd, e->d_name, 0) < 0 && errno == EISDIR) {
			remove_copy(fd, e->d_name);
		}
	}
	closedir(d);
	return unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT ? negative_errno() : 0;
}

static int copy_compat(int from, int to)
{
	int fd = fcntl(from, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		return negative_errno();
	}
	DIR *d;
	int r = opendir_fd(fd, &d);
	if (r < 0) {
		return r;
	}
	_cleanup_free_ char *buf = malloc(COMPAT_MAX);
	r = buf ? 0 : -ENOMEM;
	struct dirent *e;
	while (r == 0 && (e = readdir(d)) != NULL) {
		size_t len;
		if (e->d_name[0] == '.' ||
		    read_file_at(from, e->d_name, buf, COMPAT_MAX, &len) < 0) {
			continue;
		}
		len = xkbsafe_filter(buf, len);
		r = write_file_atomic_at(to, e->d_name, buf, len, 0600);
	}
	closedir(d);
	return r;
}

int xkbsafe_prepare(const char *state_dir, const char *system_dir, char *ret, size_t size)
{
	static const char *const linked[] = {"rules", "keycodes", "types", "symbols", "geometry"};
	_cleanup_close_ int sfd = open(state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	_cleanup_close_ int sys = open(system_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sfd < 0 || sys < 0) {
		return negative_errno();
	}
	_cleanup_close_ int sys_compat = openat(sys, "compat", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sys_compat < 0) {
		return negative_errno();
	}
	/* Afresh each start: the system's files may have changed with an upgrade. */
	int r = remove_copy(sfd, XKBSAFE_DIR);
	if (r < 0 || mkdirat(sfd, XKBSAFE_DIR, 0700) < 0) {
		return r < 0 ? r : negative_errno();
	}
	_cleanup_close_ int xfd =
		openat(sfd, XKBSAFE_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (xfd < 0) {
		return negative_errno();
	}
	for (size_t i = 0; i < ARRAY_SIZE(linked); i++) {
		char target[4096];
		if (snprintf(target, sizeof(target), "%s/%s", system_dir, linked[i]) >=
		    (int)sizeof(target)) {
			return -ENAMETOOLONG;
		}
		if (symlinkat(target, xfd, linked[i]) < 0) {
			return negative_errno();
		}
	}
	if (mkdirat(xfd, "compat", 0700) < 0) {
		return negative_errno();
	}
	_cleanup_close_ int cfd =
		openat(xfd, "compat", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cfd < 0) {
		return negative_errno();
	}
	r = copy_compat(sys_compat, cfd);
	if (r < 0) {
		return r;
	}
	if (snprintf(ret, size, "%s/%s", state_dir, XKBSAFE_DIR) >= (int)size) {
		return -ENAMETOOLONG;
	}
	return 0;
}
