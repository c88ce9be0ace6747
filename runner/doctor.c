#include "doctor.h"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "config.h"
#include "deskcg.h"
#include "display.h"
#include "fileio.h"
#include "fontprobe.h"
#include "hostscan.h"
#include "install.h"
#include "list.h"
#include "memory.h"
#include "parse.h"
#include "pathjoin.h"
#include "proc.h"
#include "procwalk.h"
#include "programs.h"
#include "util.h"
#include "xsocket.h"

#define HELPER_GROUP BOTDESK_HELPER_GROUP

struct report {
	FILE *out;
	int problems;
};

static void line(struct report *r, bool ok, const char *what, const char *detail, const char *fix)
{
	fprintf(r->out, "%-4s %-18s %s\n", ok ? "ok" : "FIX", what, detail);
	if (!ok) {
		r->problems++;
		if (fix && *fix) {
			fprintf(r->out, "     %-18s -> %s\n", "", fix);
		}
	}
}

/* A problem only for installing, when nothing needs installing: shown with its fix, not counted.
 */
static void note(struct report *r, const char *what, const char *detail, const char *fix)
{
	fprintf(r->out, "%-4s %-18s %s\n", "note", what, detail);
	if (fix && *fix) {
		fprintf(r->out, "     %-18s -> %s\n", "", fix);
	}
}

/* What matters only for installing the desktop's packages is a problem only when some are
 * missing; otherwise a note. */
static void install_line(struct report *r, bool needed, bool ok, const char *what,
			 const char *detail, const char *fix)
{
	if (ok || needed) {
		line(r, ok, what, detail, fix);
	} else {
		note(r, what, detail, fix);
	}
}

/* Returns how many required programs are missing. */
static size_t check_programs(const struct settings *s, const struct install_facts *f,
			     struct report *r)
{
	const char *missing[POLICY_PROGRAM_COUNT + 1];
	size_t n = programs_missing(s->search_path, missing);
	char detail[512] = "all on PATH";
	if (n > 0) {
		size_t k = (size_t)snprintf(detail, sizeof(detail), "missing:");
		for (size_t i = 0; i < n && k < sizeof(detail); i++) {
			k += (size_t)snprintf(detail + k, sizeof(detail) - k, " %s", missing[i]);
		}
	}
	struct install_decision d = {0};
	if (n > 0) {
		install_decide_from(f, POLICY_SET_DESKTOP, missing, &d);
	}
	line(r, n == 0, "desktop programs", detail, d.message);
	if (f->in_image) {
		/* The image is where packages come from: no package manager is used at run time. */
		return n;
	}
	static const char *const names[POLICY_MANAGER_COUNT] = {
		[POLICY_APT] = "apt-get", [POLICY_DNF] = "dnf", [POLICY_PACMAN] = "pacman"};
	install_line(r, n > 0, f->have_manager, "package manager",
		     f->have_manager ? names[f->manager] : "none found (apt-get, dnf)",
		     "install the desktop programs with the distribution's own tools");
	return n;
}

/* botdesk's container image: its packages are baked in, and neither the helper nor a group has
 * any part in it. */
static void check_image(const struct install_facts *f, struct report *r)
{
	char detail[1024];
	snprintf(
		detail, sizeof(detail),
		"botdesk's container image (%s): its packages are baked in when it is built; nothing is installed while it runs, so neither the helper nor group %s matters",
		f->image_marker, HELPER_GROUP);
	line(r, true, "image", detail, NULL);
}

/* The helper, the caller's group and no_new_privs matter only to install: problems when programs
 * are missing (needed), notes otherwise. */
static void check_helper(const struct settings *s, const struct install_facts *fp, bool needed,
			 struct report *r)
{
	const struct install_facts f = *fp;
	struct stat st;
	char detail[1024], fix[1024] = "";
	bool ok = false;
	if (stat(s->helper, &st) < 0) {
		snprintf(detail, sizeof(detail), "%s: %s", s->helper, strerror(errno));
		snprintf(fix, sizeof(fix),
			 "install botdesk (scripts/setup, or the botdesk package)");
	} else {
		struct passwd *owner = getpwuid(st.st_uid);
		struct group *group = getgrgid(st.st_gid);
		char o[32], g[32];
		snprintf(o, sizeof(o), "%u", (unsigned)st.st_uid);
		snprintf(g, sizeof(g), "%u", (unsigned)st.st_gid);
		snprintf(detail, sizeof(detail), "%s mode %04o %s:%s%s%s", s->helper,
			 (unsigned)(st.st_mode & 07777), owner ? owner->pw_name : o,
			 group ? group->gr_name : g,
			 f.helper_setuid_root ? "" : " (not setuid root)",
			 f.nosuid ? " on a nosuid mount" : "");
		ok = f.helper_setuid_root && !f.nosuid && (st.st_mode & 07777) == 04750 &&
		     strcmp(f.group, HELPER_GROUP) == 0;
		if (f.nosuid) {
			snprintf(
				fix, sizeof(fix),
				"the setuid bit has no effect here: bake the packages into the image");
		} else if (!ok) {
			snprintf(fix, sizeof(fix),
				 "as root: groupadd --system %s; chown root:%s %s; chmod 4750 %s",
				 HELPER_GROUP, HELPER_GROUP, s->helper, s->helper);
		}
	}
	install_line(r, needed, ok, "helper", detail, fix);
	if (!f.root) {
		char who[256], gfix[256];
		snprintf(
			who, sizeof(who), "%s %s group %s%s", f.user,
			f.helper_usable ? "is in" : "is not in", HELPER_GROUP,
			f.helper_usable
				? ""
				: " (needed only to install the desktop's packages; starting desktops needs no group)");
		snprintf(gfix, sizeof(gfix), "as root: usermod -aG %s %s, then log in again",
			 HELPER_GROUP, f.user);
		install_line(r, needed, f.helper_usable, "group", who, gfix);
	}
	install_line(
		r, needed, !f.no_new_privs, "no_new_privs",
		f.no_new_privs ? "set: a setuid helper cannot gain root here" : "not set",
		"this process tree cannot install: bake the packages into the image, or ask an admin");
}

static void check_memory(const struct settings *s, struct report *r)
{
	struct memory_info m;
	memory_read(s, &m);
	char detail[256];
	enum memory_verdict v = memory_judge(&m, s->min_free_mb);
	if (m.available_mb < 0) {
		snprintf(detail, sizeof(detail), "unknown (never blocks a start)");
	} else {
		snprintf(detail, sizeof(detail),
			 "%lld MB available of %lld MB; a desktop needs %llu",
			 (long long)m.available_mb, (long long)m.limit_mb,
			 (unsigned long long)s->min_free_mb);
	}
	line(r, v != MEMORY_SHORT, "memory", detail,
	     "free memory, or lower BOTDESK_MIN_FREE_MB (0 turns the gate off)");
}

/* With hidepid, other users' processes are invisible: their X servers still hold sockets (seen in
 * the unix table), but their lock files name pids we cannot check. */
static void check_proc(struct report *r)
{
	struct stat st;
	bool sees = stat("/proc/1/stat", &st) == 0;
	line(r, true, "/proc",
	     sees ? "shows other users' processes"
		  : "hides other users' processes (hidepid): X locks of other users count only through their sockets",
	     NULL);
}

/* The X socket directory: root's and sticky, or another user can swap the desktops' sockets. */
static void check_x_socket_dir(const struct settings *s, struct report *r)
{
	char dir[4096], detail[4200], fix[8400];
	uid_t uid = 0;
	mode_t mode = 0;
	int e = path_join(dir, sizeof(dir), s->x_lock_dir, ".X11-unix");
	if (e == 0) {
		e = xsocket_dir_check(dir, false, &uid, &mode);
	}
	if (e == 0) {
		snprintf(detail, sizeof(detail), "%s root's, mode 1777", dir);
	} else if (e == -EPERM) {
		snprintf(
			detail, sizeof(detail),
			"%s is owned by uid %u with mode %04o: its owner could hijack other users' X sockets",
			dir, (unsigned)uid, (unsigned)mode);
	} else if (e == -ENOENT) {
		snprintf(detail, sizeof(detail), "%s is missing (only root may create it)", dir);
	} else {
		snprintf(detail, sizeof(detail), "%s: %s", dir, strerror(-e));
	}
	snprintf(fix, sizeof(fix), "as root: %s%s%sinstall -d -m 1777 -o root -g root %s",
		 e == -ENOENT ? "" : "rm -rf ", e == -ENOENT ? "" : dir, e == -ENOENT ? "" : " && ",
		 dir);
	line(r, e == 0, "X socket directory", detail, fix);
}

/* What one more desktop costs when none of the caller's runs to measure: MemAvailable per
 * desktop with a hundred lean desktops running (bench/runner/bench-hundred, 27 MiB). */
#define DOCTOR_DESKTOP_MB 30

/* inotify instances a desktop holds: its gate (which cannot start without one), its session bus
 * and its panel; fs.inotify.max_user_instances bounds them per user. */
#define DOCTOR_DESKTOP_INOTIFY 3

struct inotify_count {
	uid_t uid;
	unsigned n;
};

static int count_inotify(pid_t pid, const struct proc_stat *st, void *userdata)
{
	(void)st;
	struct inotify_count *c = userdata;
	uid_t owner;
	char dir[64];
	if (proc_owner(pid, &owner) < 0 || owner != c->uid ||
	    path_format(dir, sizeof(dir), "/proc/%d/fd", (int)pid) < 0) {
		return 0;
	}
	_cleanup_closedir_ DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		char link[64];
		ssize_t len = readlinkat(dirfd(d), de->d_name, link, sizeof(link) - 1);
		if (len > 0) {
			link[len] = '\0';
			c->n += streq(link, "anon_inode:inotify");
		}
	}
	return 0;
}

/* How many more desktops the caller's inotify instances allow; -1 unknown. */
static int64_t by_inotify(void)
{
	char buf[32];
	unsigned max;
	if (read_file_at(AT_FDCWD, "/proc/sys/fs/inotify/max_user_instances", buf, sizeof(buf),
			 NULL) < 0) {
		return -1;
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (parse_uint_range(buf, 1, INT32_MAX, &max) < 0) {
		return -1;
	}
	struct inotify_count c = {.uid = geteuid()};
	if (proc_walk(count_inotify, &c) < 0) {
		return -1;
	}
	return c.n < max ? (max - c.n) / DOCTOR_DESKTOP_INOTIFY : 0;
}

/* How many more desktops this host takes, by each limit: memory (MemAvailable above the floor
 * over what one desktop costs, measured from the caller's running desktops), the display band's
 * free numbers, and the per-user cap less the caller's desktops. Information, never a problem. */
static void check_capacity(const struct settings *s, unsigned band_free, struct report *r)
{
	struct memory_info m;
	memory_read(s, &m);
	struct list l;
	struct error ignored = {{0}};
	int64_t sum = 0, n = 0;
	if (list_gather(s, &l, &ignored) == 0) {
		for (size_t i = 0; i < l.n; i++) {
			if (l.v[i].running && l.v[i].pss_mb > 0) {
				sum += l.v[i].pss_mb;
				n++;
			}
		}
		list_free(&l);
	}
	int64_t cost = n ? (sum + n - 1) / n : DOCTOR_DESKTOP_MB;
	struct host_desktop *v;
	size_t mine = 0;
	if (hostscan_desktops(s->x_lock_dir, geteuid(), &v, &mine) == 0) {
		free(v);
	}
	unsigned cap = s->policy.max_desktops;
	unsigned by_user = mine < cap ? cap - (unsigned)mine : 0;
	char by_mem[64] = "unknown";
	int64_t mem = -1;
	if (m.available_mb >= 0) {
		int64_t room = m.available_mb - (int64_t)s->min_free_mb;
		mem = room > 0 ? room / cost : 0;
		snprintf(by_mem, sizeof(by_mem), "%lld", (long long)mem);
	}
	unsigned most = band_free < by_user ? band_free : by_user;
	if (mem >= 0 && (uint64_t)mem < most) {
		most = (unsigned)mem;
	}
	int64_t ino = by_inotify();
	char by_ino[128] = "";
	if (ino >= 0) {
		if ((uint64_t)ino < most) {
			most = (unsigned)ino;
		}
		snprintf(by_ino, sizeof(by_ino),
			 ", %lld by your inotify instances (fs.inotify.max_user_instances)",
			 (long long)ino);
	}
	char detail[768];
	snprintf(
		detail, sizeof(detail),
		"%u more desktops: %s by memory (%lld MB available, %llu MB kept free, %lld MB each, %s), %u by the display band, %u by the per-user cap (%u, you run %zu)%s",
		most, by_mem, (long long)m.available_mb, (unsigned long long)s->min_free_mb,
		(long long)cost, n ? "the mean of yours running" : "measured on a lean desktop",
		band_free, by_user, cap, mine, by_ino);
	line(r, true, "capacity", detail, NULL);
}

static unsigned check_band(const struct settings *s, struct report *r)
{
	unsigned used = display_band_used(s), total = s->band_hi - s->band_lo + 1;
	char detail[128];
	snprintf(detail, sizeof(detail), "%u-%u: %u of %u numbers in use", s->band_lo, s->band_hi,
		 used, total);
	line(r, used < total, "display band", detail,
	     "stop desktops no longer needed, or widen BOTDESK_DISPLAY_BAND");
	return total - used;
}

/* The host's policy in force: what bounds this user's settings here. */
static void check_policy(const struct settings *s, struct report *r)
{
	const struct hostpolicy *hp = &s->policy;
	if (hp->warning[0]) {
		line(r, false, "host policy", hp->warning, "");
	} else {
		line(r, true, "host policy",
		     hp->loaded ? hp->path : "none (no " HOSTPOLICY_PATH "): the defaults", NULL);
	}
	char band[64] = "any", geometry[64] = "any", idle[64] = "any";
	if (hp->has_band) {
		snprintf(band, sizeof(band), "%u-%u", hp->band_lo, hp->band_hi);
	}
	if (hp->max_width) {
		snprintf(geometry, sizeof(geometry), "%ux%u", hp->max_width, hp->max_height);
	}
	if (hp->max_idle_stop_minutes) {
		snprintf(idle, sizeof(idle), "%llu min",
			 (unsigned long long)hp->max_idle_stop_minutes);
	}
	fprintf(r->out,
		"     %-18s band %s, %u desktops per user, memory floor at least %llu MB, idle stop at most %s, geometry at most %s, admin group %s\n",
		"", band, hp->max_desktops, (unsigned long long)hp->min_free_mb, idle, geometry,
		hp->admin_group[0] ? hp->admin_group : "none");
	fprintf(r->out, "     %-18s yours: band %u-%u, floor %llu MB, geometry %s\n", "",
		s->band_lo, s->band_hi, (unsigned long long)s->min_free_mb, s->geometry);
}

/* Per-desktop cgroups: where the caller has a delegated subtree. Missing one is a problem only
 * when a limit was asked for. */
static void check_delegation(const struct settings *s, struct report *r)
{
	struct deskcg_base b;
	deskcg_find(s, false, &b);
	char detail[3 * CGROUP_PATH_MAX];
	if (b.ok) {
		snprintf(detail, sizeof(detail),
			 "delegated: %s; each desktop gets a cgroup of its own under %s%s",
			 b.delegated, b.dir, s->max_memory_mb ? "" : " when max_memory_mb is set");
		line(r, true, "desktop cgroups", detail, NULL);
		return;
	}
	snprintf(detail, sizeof(detail), "none: %s%s", b.why,
		 s->max_memory_mb ? "; max_memory_mb is not enforced" : "");
	line(r, s->max_memory_mb == 0, "desktop cgroups", detail, b.fix);
	if (s->max_memory_mb == 0) {
		fprintf(r->out, "     %-18s -> to have them: %s\n", "", b.fix);
	}
}

/* The international fonts are an optional set: without them CJK text and emoji are empty boxes,
 * but the desktop works, so their absence is a note with the command that fixes it, never a
 * problem (botdesk's image, which leaves them out, has nothing to fix). */
static void check_fonts(const struct settings *s, struct install_facts *f, struct report *r)
{
	install_facts_fonts(s, f);
	char detail[600], fix[2200];
	if (f->fonts_probe_error < 0) {
		snprintf(detail, sizeof(detail), "cannot tell: %s failed (%s)", s->fc_list,
			 strerror(-f->fonts_probe_error));
	} else if (f->fonts_missing == 0) {
		line(r, true, "fonts", "CJK and colour emoji: international text renders", NULL);
		return;
	} else {
		bool cjk = f->fonts_missing & FONTS_MISSING_CJK,
		     emoji = f->fonts_missing & FONTS_MISSING_EMOJI;
		snprintf(detail, sizeof(detail),
			 "no font for %s%s%s: such text shows as empty boxes on the desktop",
			 cjk ? "CJK (Chinese, Japanese, Korean)" : "", cjk && emoji ? " or " : "",
			 emoji ? "emoji" : "");
	}
	struct install_decision d;
	install_decide_from(f, POLICY_SET_FONTS, NULL, &d);
	if (d.verdict == INSTALL_CAN_RUN) {
		snprintf(fix, sizeof(fix), "%s (runs: %s)", install_command(POLICY_SET_FONTS),
			 d.command);
	} else {
		/* Who must do what instead: an administrator's command, the Dockerfile line. */
		snprintf(fix, sizeof(fix), "%s", d.message);
	}
	note(r, "fonts", detail, fix);
}

int doctor_run(const struct settings *s, FILE *out)
{
	struct report r = {.out = out};
	fprintf(out, "botdesk doctor: uid %u, state in %s\n", (unsigned)getuid(), s->state_root);
	/* One look at the host, for every check that depends on it. */
	struct install_facts f;
	install_facts_gather(s, &f);
	size_t missing = check_programs(s, &f, &r);
	if (f.in_image) {
		check_image(&f, &r);
	} else {
		check_helper(s, &f, missing > 0, &r);
	}
	check_memory(s, &r);
	check_proc(&r);
	check_x_socket_dir(s, &r);
	unsigned band_free = check_band(s, &r);
	check_policy(s, &r);
	check_capacity(s, band_free, &r);
	check_delegation(s, &r);
	check_fonts(s, &f, &r);
	fprintf(out, r.problems ? "%d thing(s) to fix\n" : "nothing to fix\n", r.problems);
	return r.problems;
}
