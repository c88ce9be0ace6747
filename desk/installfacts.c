/* What `botdesk install` looks at before it decides: who the caller is, which package manager
 * the host has, what the helper's file and mount say, whether this is botdesk's image, and
 * whether noVNC is there. Gathered once, read-only, so the verdicts can be tested on facts alone.
 */
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "envfile.h"
#include "fileio.h"
#include "fontprobe.h"
#include "install.h"
#include "pathjoin.h"
#include "util.h"

#ifndef BOTDESK_HELPER_GROUP
#define BOTDESK_HELPER_GROUP "botdesk"
#endif

static bool manager_from(const struct settings *s, enum policy_manager *ret)
{
	/* "auto" looks at the fixed paths the helper uses; the others are for tests and only
	 * change what the runner says, never what the helper does. */
	const char *pm = s->package_manager;
	static const struct {
		const char *name, *path;
		enum policy_manager m;
	} known[] = {
		{"apt", "/usr/bin/apt-get", POLICY_APT},
		{"dnf", "/usr/bin/dnf", POLICY_DNF},
		{"pacman", "/usr/bin/pacman", POLICY_PACMAN},
	};
	for (size_t i = 0; i < ARRAY_SIZE(known); i++) {
		if (streq(pm, known[i].name) ||
		    (streq(pm, "auto") && access(known[i].path, X_OK) == 0)) {
			*ret = known[i].m;
			return true;
		}
	}
	return false;
}

static bool no_new_privs(void)
{
	char buf[16384];
	if (read_file_at(AT_FDCWD, "/proc/self/status", buf, sizeof(buf), NULL) < 0) {
		return false;
	}
	const char *p = strstr(buf, "\nNoNewPrivs:");
	if (!p) {
		return false;
	}
	p += strlen("\nNoNewPrivs:");
	p += strspn(p, " \t");
	return *p == '1';
}

static bool in_group(gid_t gid)
{
	if (getgid() == gid) {
		return true;
	}
	int n = getgroups(0, NULL);
	if (n <= 0) {
		return false;
	}
	_cleanup_free_ gid_t *groups = calloc((size_t)n, sizeof(gid_t));
	if (!groups) {
		return false;
	}
	n = getgroups(n, groups);
	for (int i = 0; i < n; i++) {
		if (groups[i] == gid) {
			return true;
		}
	}
	return false;
}

/* The marker botdesk's Dockerfile writes: KEY=VALUE lines, "desktop=0" when the image was built
 * without its desktop layer. Only a regular file counts (never through a symbolic link). */
static void image_facts(const struct settings *s, struct install_facts *f)
{
	snprintf(f->image_marker, sizeof(f->image_marker), "%s", s->image_marker);
	char buf[1024];
	if (read_file_at(AT_FDCWD, s->image_marker, buf, sizeof(buf), NULL) < 0) {
		return;
	}
	f->in_image = true;
	struct envfile e;
	const char *desktop = envfile_parse(buf, &e) == 0 ? envfile_get(&e, "desktop") : NULL;
	f->image_without_desktop = desktop && streq(desktop, "0");
}

void install_facts_gather(const struct settings *s, struct install_facts *ret)
{
	struct install_facts f = {
		.root = getuid() == 0,
		.no_new_privs = no_new_privs(),
	};
	f.have_manager = manager_from(s, &f.manager);
	snprintf(f.helper, sizeof(f.helper), "%s", s->helper);
	snprintf(f.group, sizeof(f.group), "%s", BOTDESK_HELPER_GROUP);
	struct passwd *pw = getpwuid(getuid());
	if (pw) {
		snprintf(f.user, sizeof(f.user), "%s", pw->pw_name);
	} else {
		snprintf(f.user, sizeof(f.user), "%u", (unsigned)getuid());
	}
	image_facts(s, &f);
	struct stat st;
	if (stat(s->helper, &st) == 0 && S_ISREG(st.st_mode)) {
		f.helper_exists = true;
		f.helper_setuid_root = st.st_uid == 0 && (st.st_mode & S_ISUID);
		/* The helper admits root and members of the group that owns it (never group 0). */
		f.helper_usable =
			st.st_gid != 0 && in_group(st.st_gid) && access(s->helper, X_OK) == 0;
		struct group *g = st.st_gid != 0 ? getgrgid(st.st_gid) : NULL;
		if (g && f.helper_setuid_root) {
			snprintf(f.group, sizeof(f.group), "%s", g->gr_name);
		}
		struct statvfs vfs;
		f.nosuid = statvfs(s->helper, &vfs) == 0 && (vfs.f_flag & ST_NOSUID);
	}
	/* What botdesk web itself checks before it listens: noVNC's RFB client is readable. */
	snprintf(f.novnc, sizeof(f.novnc), "%s", s->novnc);
	char rfbjs[PATH_MAX];
	f.web_present = path_join(rfbjs, sizeof(rfbjs), s->novnc, "core/rfb.js") == 0 &&
			access(rfbjs, R_OK) == 0;
	*ret = f;
}

void install_facts_fonts(const struct settings *s, struct install_facts *f)
{
	f->fonts_probe_error = fonts_probe(s->fc_list, &f->fonts_missing);
}
