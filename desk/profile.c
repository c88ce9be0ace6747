#include "profile.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "util.h"

/* Our directory must be ours and private: a directory another user can write to could have its
 * files swapped under us. */
static int check_private_dir(int fd, const char *path, struct error *err)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		return error_set(err, negative_errno(), "cannot inspect %s: %s", path,
				 strerror(errno));
	}
	if (st.st_uid != geteuid()) {
		return error_set(
			err, -EPERM,
			"%s belongs to uid %u, not to you (uid %u); refusing to use it. Point BOTDESK_STATE_DIR at a directory of your own",
			path, (unsigned)st.st_uid, (unsigned)geteuid());
	}
	if ((st.st_mode & 07777) != 0700 && fchmod(fd, 0700) < 0) {
		return error_set(err, negative_errno(), "cannot make %s private (mode 0700): %s",
				 path, strerror(errno));
	}
	return 0;
}

int profile_open(const struct settings *s, const char *name, bool create, struct profile *ret,
		 struct error *err)
{
	if (!profile_name_valid(name)) {
		return error_set(err, -EINVAL,
				 "'%s' is not a valid profile name: use " PROFILE_NAME_RULE, name);
	}
	struct profile p = PROFILE_INIT;
	snprintf(p.name, sizeof(p.name), "%s", name);
	if (asprintf(&p.dir, "%s/%s", s->state_root, name) < 0) {
		return -ENOMEM;
	}
	int r;
	p.dirfd = open(p.dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (p.dirfd < 0 && errno == ENOENT && create) {
		r = mkdir_p(p.dir, 0700);
		if (r < 0) {
			error_set(err, r, "cannot create the state directory %s: %s", p.dir,
				  strerror(-r));
			goto fail;
		}
		p.dirfd = open(p.dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (p.dirfd < 0) {
		r = negative_errno();
		if (!create && r == -ENOENT) {
			*ret = p;
			return 0;
		}
		if (r == -ELOOP || r == -ENOTDIR) {
			error_set(
				err, r,
				"%s is not a directory (a symbolic link?); refusing to follow it. Remove it and retry",
				p.dir);
		} else {
			error_set(err, r, "cannot open the state directory %s: %s", p.dir,
				  strerror(-r));
		}
		goto fail;
	}
	r = check_private_dir(p.dirfd, p.dir, err);
	if (r < 0) {
		goto fail;
	}
	*ret = p;
	return 0;
fail:
	profile_close(&p);
	return r;
}

void profile_close(struct profile *p)
{
	/* Safe on a zeroed struct (never opened: no dir), whose dirfd 0 is somebody's stdin. */
	if (p->dir) {
		safe_close(p->dirfd);
	}
	p->dirfd = -1;
	free(p->dir);
	p->dir = NULL;
}

char *profile_path(const struct profile *p, const char *file)
{
	char *s;
	if (asprintf(&s, "%s/%s", p->dir, file) < 0) {
		return NULL;
	}
	return s;
}
