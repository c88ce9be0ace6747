/* The runner's side of installing the desktop: what the user is told, and the client of
 * botdesk-helper. The runner never installs anything itself and never asks for a password; it
 * either drives the helper or says exactly who must do what. */
#include "install.h"

#include <fcntl.h>
#include <grp.h>
#include <langinfo.h>
#include <locale.h>
#include <pwd.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "envfile.h"
#include "fileio.h"
#include "parse.h"
#include "programs.h"
#include "util.h"

#ifndef BOTDESK_HELPER_GROUP
#define BOTDESK_HELPER_GROUP "botdesk"
#endif

/* ---- facts ---- */

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

int install_facts_gather(const struct settings *s, struct install_facts *ret)
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
	*ret = f;
	return 0;
}

/* ---- words ---- */

struct buf {
	char *p;
	size_t size, len;
};

static void put(struct buf *b, const char *fmt, ...) _printf_(2, 3);
static void put(struct buf *b, const char *fmt, ...)
{
	if (b->len >= b->size) {
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->p + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	if (n > 0) {
		b->len += (size_t)n;
	}
	if (b->len >= b->size) {
		b->len = b->size - 1;
	}
}

static void put_packages(struct buf *b, enum policy_manager m)
{
	for (const char *const *p = policy_packages[m]; *p; p++) {
		put(b, " %s", *p);
	}
}

static void put_programs(struct buf *b, const char *const *missing)
{
	if (missing && missing[0]) {
		for (size_t i = 0; missing[i]; i++) {
			put(b, "%s%s", i ? ", " : "", missing[i]);
		}
		return;
	}
	for (size_t i = 0; i < POLICY_PROGRAM_COUNT; i++) {
		put(b, "%s%s", i ? ", " : "", programs_display_name(&policy_programs[i]));
	}
}

/* "The desktop programs X, Y are missing" when start found them missing, else nothing. */
static bool put_missing(struct buf *b, const char *const *missing)
{
	if (!(missing && missing[0])) {
		return false;
	}
	put(b, "The desktop programs ");
	put_programs(b, missing);
	put(b, " are missing");
	return true;
}

static void root_command(enum policy_manager m, struct buf *b)
{
	static const char *const prefix[] = {
		[POLICY_APT] = "apt-get install -y --no-install-recommends",
		[POLICY_DNF] = "dnf install -y --setopt=install_weak_deps=False",
		[POLICY_PACMAN] = "pacman -S --needed --noconfirm",
	};
	put(b, "%s", prefix[m]);
	put_packages(b, m);
}

static void dockerfile_line(enum policy_manager m, struct buf *b)
{
	if (m == POLICY_APT) {
		put(b, "RUN apt-get update && apt-get install -y --no-install-recommends");
		put_packages(b, m);
		put(b, " && rm -rf /var/lib/apt/lists/*");
	} else if (m == POLICY_DNF) {
		put(b, "RUN dnf install -y --setopt=install_weak_deps=False");
		put_packages(b, m);
		put(b, " && dnf clean all");
	} else {
		put(b, "RUN pacman -Syu --needed --noconfirm");
		put_packages(b, m);
		put(b, " && pacman -Scc --noconfirm");
	}
}

static void say_no_manager(const struct install_facts *f, const char *const *missing, struct buf *b)
{
	/* No word of privilege here: there is nothing anybody could run for us. */
	if (put_missing(b, missing)) {
		put(b,
		    ", and no package manager botdesk can use (apt-get or dnf) was found: install "
		    "them with your distribution's own tools");
	} else {
		put(b, "No package manager botdesk can use (apt-get or dnf) was found: install the "
		       "desktop programs (");
		put_programs(b, NULL);
		put(b, ") with your distribution's own tools");
	}
	if (f->have_manager && f->manager == POLICY_PACMAN) {
		put(b, "; with pacman they come from the packages");
		put_packages(b, POLICY_PACMAN);
	}
	put(b, ".");
}

static void say_can_run(const struct install_facts *f, const char *const *missing, struct buf *b,
			const char *command)
{
	const char *how = f->root ? "as root" : "through botdesk-helper, as root";
	if (put_missing(b, missing)) {
		put(b, ". Install them with 'botdesk install', which runs %s: %s", how, command);
	} else {
		put(b, "'botdesk install' runs %s: %s", how, command);
	}
}

/* botdesk's own image: nothing is installed at run time, and no helper is to be fixed. */
static void say_bake_our_image(const struct install_facts *f, const char *const *missing,
			       struct buf *b)
{
	if (!put_missing(b, missing)) {
		put(b, "The desktop's packages are not all installed");
	}
	put(b,
	    ", and this is botdesk's container image (%s says so), whose packages are baked in "
	    "when it is built, never installed while it runs. ",
	    f->image_marker);
	if (f->image_without_desktop) {
		put(b,
		    "It was built with --build-arg BOTDESK_DESKTOP=0 (no desktop layer): build it "
		    "again without that argument (docker build -t botdesk .).");
	} else {
		put(b, "Build the image again from botdesk's Dockerfile (scripts/sync-dockerfile "
		       "writes its desktop layer), or add this line to the Dockerfile you build "
		       "from:\n  ");
		dockerfile_line(f->manager, b);
	}
}

static void say_bake(const struct install_facts *f, const char *const *missing, struct buf *b)
{
	if (f->in_image) {
		say_bake_our_image(f, missing, b);
		return;
	}
	const char *why = f->no_new_privs
				  ? "no_new_privs is set, so a setuid program cannot gain privilege"
				  : "the helper's filesystem is mounted nosuid";
	if (put_missing(b, missing)) {
		put(b, ", and this process cannot become root to install them (%s)", why);
	} else {
		put(b, "This process cannot become root to install the desktop's packages (%s)",
		    why);
	}
	put(b, ", as inside a container. The packages must be baked into the image; add this line "
	       "to its Dockerfile:\n  ");
	dockerfile_line(f->manager, b);
}

static void say_ask_admin(const struct install_facts *f, const char *const *missing, struct buf *b,
			  const char *command, const char *reason)
{
	if (put_missing(b, missing)) {
		put(b, ", and %s may not install them: ", f->user);
	} else {
		put(b, "%s may not install the desktop's packages: ", f->user);
	}
	if (reason) {
		put(b, "%s", reason);
	} else if (!f->helper_exists) {
		put(b, "%s is not installed", f->helper);
	} else if (!f->helper_setuid_root) {
		put(b, "%s is not installed setuid root", f->helper);
	} else {
		put(b, "%s is not in group %s", f->user, f->group);
	}
	put(b,
	    ". An administrator can install them with:\n  %s\nor let %s install them with "
	    "'botdesk install': usermod -aG %s %s (it takes effect at the next login), with "
	    "the helper installed root:%s mode 4750 (chown root:%s %s && chmod 4750 %s).",
	    command, f->user, f->group, f->user, f->group, f->group, f->helper, f->helper);
}

static void decide_words(const struct install_facts *f, const char *const *missing,
			 enum install_verdict v, const char *reason, struct install_decision *d)
{
	struct buf cmd = {d->command, sizeof(d->command), 0};
	struct buf msg = {d->message, sizeof(d->message), 0};
	d->verdict = v;
	d->manager = f->have_manager ? f->manager : POLICY_APT;
	d->command[0] = d->message[0] = '\0';
	if (v != INSTALL_NO_MANAGER) {
		root_command(f->manager, &cmd);
	}
	switch (v) {
	case INSTALL_NO_MANAGER:
		say_no_manager(f, missing, &msg);
		break;
	case INSTALL_CAN_RUN:
		say_can_run(f, missing, &msg, d->command);
		break;
	case INSTALL_BAKE_IMAGE:
		say_bake(f, missing, &msg);
		break;
	case INSTALL_ASK_ADMIN:
		say_ask_admin(f, missing, &msg, d->command, reason);
		break;
	}
}

void install_decide_from(const struct install_facts *f, const char *const *missing,
			 struct install_decision *ret)
{
	enum install_verdict v;
	if (f->in_image) {
		/* Whoever asks, and whatever the helper looks like: the image is where the
		 * packages come from. */
		v = INSTALL_BAKE_IMAGE;
	} else if (!f->have_manager || f->manager == POLICY_PACMAN) {
		v = INSTALL_NO_MANAGER;
	} else if (f->root) {
		v = INSTALL_CAN_RUN;
	} else if (f->no_new_privs || f->nosuid) {
		/* Even a perfect helper cannot gain root here: a setuid bit is inert. */
		v = INSTALL_BAKE_IMAGE;
	} else if (!f->helper_exists || !f->helper_setuid_root || !f->helper_usable) {
		v = INSTALL_ASK_ADMIN;
	} else {
		v = INSTALL_CAN_RUN;
	}
	decide_words(f, missing, v, NULL, ret);
}

int install_decide(const struct settings *s, const char *const *missing,
		   struct install_decision *ret, struct error *err)
{
	struct install_facts f;
	int r = install_facts_gather(s, &f);
	if (r < 0) {
		return error_set(err, r, "cannot tell how to install the desktop: %s",
				 strerror(-r));
	}
	install_decide_from(&f, missing, ret);
	return 0;
}

/* ---- the helper client ---- */

_noreturn_ static void exec_helper(const char *path, int sock, int errfd)
{
	/* The socket goes on the helper's fixed fd; everything else we hold is O_CLOEXEC. Move our
	 * two fds out of the way first, should either be fd 3 already. */
	int s = fcntl(sock, F_DUPFD_CLOEXEC, 10), e = fcntl(errfd, F_DUPFD_CLOEXEC, 10);
	if (s >= 0 && e >= 0 && dup2(s, PROTO_HELPER_FD) == PROTO_HELPER_FD) {
		char name[] = "botdesk-helper";
		char *const argv[] = {name, NULL};
		extern char **environ;
		/* The helper clears the environment itself; it has to withstand any we give it. */
		execve(path, argv, environ);
	}
	int saved = errno;
	(void)!write(e >= 0 ? e : errfd, &saved, sizeof(saved));
	_exit(127);
}

static int spawn_helper(const char *path, int *ret_sock, pid_t *ret_pid)
{
	int sv[2], ep[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		return negative_errno();
	}
	if (pipe2(ep, O_CLOEXEC) < 0) {
		int r = negative_errno();
		close(sv[0]);
		close(sv[1]);
		return r;
	}
	pid_t pid = fork();
	if (pid == 0) {
		exec_helper(path, sv[1], ep[1]);
	}
	int r = pid < 0 ? negative_errno() : 0;
	close(sv[1]);
	close(ep[1]);
	if (r == 0) {
		/* The exec either happened (EOF on the CLOEXEC pipe) or failed with an errno. */
		int child_errno = 0;
		ssize_t n = read_all(ep[0], &child_errno, sizeof(child_errno));
		if (n == (ssize_t)sizeof(child_errno)) {
			r = child_errno > 0 ? -child_errno : -EIO;
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
			}
		}
	}
	close(ep[0]);
	if (r < 0) {
		close(sv[0]);
		return r;
	}
	*ret_sock = sv[0];
	*ret_pid = pid;
	return 0;
}

int install_helper_call(const char *path, enum proto_op op, install_line_fn on_line, void *userdata,
			struct install_outcome *ret)
{
	uint8_t req[PROTO_REQUEST_SIZE];
	struct proto_request rq = {.op = op};
	int r = proto_request_encode(&rq, req);
	if (r < 0) {
		return r;
	}
	int sock;
	pid_t pid;
	if ((r = spawn_helper(path, &sock, &pid)) < 0) {
		return r;
	}
	/* One request, then the end of our side: the helper refuses anything after it. A helper
	 * that answered without reading (not privileged, not permitted) may be gone already; its
	 * reply is still there to read. */
	(void)!send(sock, req, sizeof(req), MSG_NOSIGNAL);
	shutdown(sock, SHUT_WR);
	struct install_outcome o = {.outcome = PROTO_INTERNAL};
	bool have_result = false;
	for (;;) {
		uint8_t buf[PROTO_REPLY_SIZE + 1];
		ssize_t n = recv(sock, buf, sizeof(buf), 0);
		/* A helper that answered without reading our request closes with it unread: the
		 * kernel reports ECONNRESET once, then hands over the replies still queued. */
		if (n < 0 && (errno == EINTR || errno == ECONNRESET)) {
			continue;
		}
		if (n <= 0) {
			break;
		}
		struct proto_reply rep;
		if (proto_reply_decode(buf, (size_t)n, &rep) < 0 || have_result) {
			continue;
		}
		if (rep.kind == PROTO_REPLY_LINE) {
			if (on_line) {
				on_line(rep.text, userdata);
			}
		} else {
			o.outcome = rep.outcome;
			o.manager = rep.manager;
			o.detail = rep.detail;
			have_result = true;
		}
	}
	close(sock);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = 0;
			break;
		}
	}
	o.wait_status = status;
	if (!have_result) {
		/* The exit status is the outcome when the helper could not reply (usage, bad
		 * socket, a failed start-up step). */
		o.detail = status;
		if (WIFEXITED(status) && WEXITSTATUS(status) < PROTO_OUTCOME_COUNT) {
			o.outcome = (enum proto_outcome)WEXITSTATUS(status);
		}
	}
	*ret = o;
	return 0;
}

/* ---- showing the helper's output ---- */

#define TAIL_LINES 15

struct relay {
	FILE *out;
	bool tty, bar, quiet, utf8;
	char tail[TAIL_LINES][PROTO_LINE_MAX + 1];
	size_t tail_next;
	char command[PROTO_LINE_MAX + 1]; /* the decide reply */
};

/* The length of the valid UTF-8 sequence of 2 to 4 bytes at s, else 0. Overlong forms,
 * surrogates and the C1 controls U+0080-U+009F (which terminals act on in UTF-8 too) are not
 * valid here. */
static size_t utf8_len(const unsigned char *s)
{
	static const uint32_t lowest[] = {0, 0, 0xa0, 0x800, 0x10000};
	size_t n;
	uint32_t cp;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2, cp = s[0] & 0x1fu;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3, cp = s[0] & 0x0fu;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4, cp = s[0] & 0x07u;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		/* The terminating NUL is no continuation byte: never reads past it. */
		if ((s[i] & 0xc0) != 0x80) {
			return 0;
		}
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if (cp < lowest[n] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
		return 0;
	}
	return n;
}

void install_sanitize(char *line, bool utf8)
{
	unsigned char *s = (unsigned char *)line;
	while (*s) {
		size_t n = utf8 ? utf8_len(s) : 0;
		if (n > 0) {
			s += n;
			continue;
		}
		/* C0 controls, DEL, and any other byte >= 0x80: a lone 0x9b is CSI to a terminal
		 * that is not in UTF-8 mode. */
		if ((*s < 0x20 && *s != '\t') || *s >= 0x7f) {
			*s = '?';
		}
		s++;
	}
}

/* Whether the user's terminal takes UTF-8, as far as the locale says. Without it, every byte
 * >= 0x80 is replaced: the continuation bytes of valid UTF-8 include C1 controls. */
static bool locale_utf8(void)
{
	locale_t l = newlocale(LC_CTYPE_MASK, "", (locale_t)0);
	if (!l) {
		return false;
	}
	bool yes = streq(nl_langinfo_l(CODESET, l), "UTF-8");
	freelocale(l);
	return yes;
}

static void draw_bar(struct relay *rl, unsigned percent, const char *what, const char *desc)
{
	char bar[21];
	unsigned filled = percent * 20 / 100;
	for (unsigned i = 0; i < 20; i++) {
		bar[i] = i < filled ? '#' : '.';
	}
	bar[20] = '\0';
	fprintf(rl->out, "\r\033[K[%s] %3u%% %s %.40s", bar, percent, what, desc);
	fflush(rl->out);
	rl->bar = true;
}

/* apt's APT::Status-Fd lines: "pmstatus:PKG:PERCENT:DESCRIPTION" (dlstatus while downloading). */
static bool status_line(struct relay *rl, const char *line)
{
	bool dl = startswith(line, "dlstatus:");
	if (!dl && !startswith(line, "pmstatus:")) {
		return false;
	}
	if (!rl->tty) {
		return true;
	}
	const char *pct = strchr(line + 9, ':');
	if (!pct) {
		return true;
	}
	pct++;
	size_t digits = strspn(pct, "0123456789");
	uint64_t v;
	if (parse_u64_n(pct, digits, 100, &v) < 0) {
		return true;
	}
	const char *desc = strchr(pct, ':');
	draw_bar(rl, (unsigned)v, dl ? "downloading" : "installing", desc ? desc + 1 : "");
	return true;
}

static void relay_line(const char *text, void *userdata)
{
	struct relay *rl = userdata;
	char line[PROTO_LINE_MAX + 1];
	snprintf(line, sizeof(line), "%s", text);
	install_sanitize(line, rl->utf8);
	if (status_line(rl, line)) {
		return;
	}
	if (!rl->command[0]) {
		snprintf(rl->command, sizeof(rl->command), "%s", line);
	}
	snprintf(rl->tail[rl->tail_next], sizeof(rl->tail[0]), "%s", line);
	rl->tail_next = (rl->tail_next + 1) % TAIL_LINES;
	if (!rl->tty && !rl->quiet) {
		fprintf(rl->out, "%s\n", line);
	}
}

static void relay_end(struct relay *rl, bool failed)
{
	if (rl->bar) {
		fputs("\n", rl->out);
		rl->bar = false;
	}
	/* On a terminal only the bar was shown: a failure shows the lines that explain it. */
	if (rl->tty && failed) {
		for (size_t i = 0; i < TAIL_LINES; i++) {
			const char *l = rl->tail[(rl->tail_next + i) % TAIL_LINES];
			if (*l) {
				fprintf(rl->out, "%s\n", l);
			}
		}
	}
	fflush(rl->out);
}

/* ---- botdesk install ---- */

static int refusal(const struct install_facts *f, enum install_verdict v, const char *reason,
		   struct error *err)
{
	struct install_decision d;
	decide_words(f, NULL, v, reason, &d);
	return error_set(err, v == INSTALL_NO_MANAGER ? -ENOPKG : -EPERM, "%s", d.message);
}

static int outcome_error(const struct install_facts *f, const struct install_outcome *o,
			 const char *helper, struct error *err)
{
	switch (o->outcome) {
	case PROTO_OK:
	case PROTO_ALREADY_INSTALLED:
		return 0;
	case PROTO_NO_MANAGER:
		return refusal(f, INSTALL_NO_MANAGER, NULL, err);
	case PROTO_NOT_PRIVILEGED:
		if (f->no_new_privs || f->nosuid) {
			return refusal(f, INSTALL_BAKE_IMAGE, NULL, err);
		}
		return refusal(f, INSTALL_ASK_ADMIN,
			       "botdesk-helper is not running as root (is it "
			       "installed setuid root?)",
			       err);
	case PROTO_NOT_PERMITTED:
		return refusal(f, INSTALL_ASK_ADMIN, NULL, err);
	case PROTO_BUSY:
		return error_set(err, -EBUSY,
				 "another botdesk install is running on this host; run 'botdesk "
				 "install' again when it has finished");
	case PROTO_NOT_IN_REPOS:
		return error_set(err, -ENOPKG,
				 "a package is not in the configured repositories (see the "
				 "package manager's output above): check the sources the package "
				 "manager uses, then run 'botdesk install' again");
	case PROTO_LOCKED:
		return error_set(
			err, -EBUSY,
			"the package database is locked by another process (another "
			"package manager, or automatic updates); wait for it to finish and "
			"run 'botdesk install' again");
	case PROTO_DOWNLOAD_FAILED:
		return error_set(err, -EIO,
				 "the packages could not be downloaded: check the network and the "
				 "package sources, then run 'botdesk install' again");
	case PROTO_FAILED:
		return error_set(
			err, -EIO,
			"the package manager failed (exit status %d; its output is above): "
			"fix what it reports and run 'botdesk install' again",
			(int)o->detail);
	case PROTO_TIMEOUT:
		return error_set(err, -ETIMEDOUT,
				 "the install did not finish in time and was stopped; run 'botdesk "
				 "install' again (the package manager resumes where it stopped)");
	case PROTO_LIMITS:
		return error_set(err, -EPERM,
				 "botdesk-helper cannot undo the resource limits or the OOM score "
				 "this session set (root lacks CAP_SYS_RESOURCE here, as in a "
				 "container with the default capabilities): run 'botdesk install' "
				 "as root, or from a session whose hard limits are not lowered");
	case PROTO_TOO_SOON:
		return error_set(err, -EAGAIN,
				 "%s started an install less than %d seconds ago, and the helper "
				 "starts at most one for each user in that time; run 'botdesk "
				 "install' again in %d seconds",
				 f->user, PROTO_INSTALL_INTERVAL_S, (int)o->detail);
	case PROTO_BAD_REQUEST:
	case PROTO_REQUEST_TIMEOUT:
	case PROTO_INTERNAL:
	default:
		return error_set(err, -EPROTO,
				 "%s failed (%s, detail %d): is it the helper of this botdesk "
				 "version (%s)?",
				 helper, proto_outcome_name(o->outcome), (int)o->detail,
				 BOTDESK_VERSION);
	}
}

static void say_nothing_to_do(const struct install_facts *f, enum install_verdict v, FILE *out)
{
	if (f->in_image) {
		fprintf(out,
			"The desktop's programs are baked into this image (botdesk's container "
			"image, %s): nothing to install.\n",
			f->image_marker);
	} else if (v == INSTALL_ASK_ADMIN && f->helper_exists && f->helper_setuid_root &&
		   !f->helper_usable) {
		fprintf(out,
			"The desktop's programs are all installed: nothing to install. "
			"(Starting desktops needs no group: membership of group %s is needed "
			"only to install packages through %s.)\n",
			f->group, f->helper);
	} else {
		fprintf(out, "The desktop's programs are all installed: nothing to install.\n");
	}
}

int install_run(const struct settings *s, bool dry_run, FILE *out, struct error *err)
{
	struct install_facts f;
	struct install_decision d;
	int r = install_facts_gather(s, &f);
	if (r < 0) {
		return error_set(err, r, "cannot tell how to install the desktop: %s",
				 strerror(-r));
	}
	install_decide_from(&f, NULL, &d);
	if (d.verdict != INSTALL_CAN_RUN) {
		/* Nobody may install here, but maybe nobody needs to: with every program present,
		 * that is success, whoever asks. */
		const char *missing[POLICY_PROGRAM_COUNT + 1];
		if (programs_missing(s->search_path, missing) == 0) {
			say_nothing_to_do(&f, d.verdict, out);
			return 0;
		}
		install_decide_from(&f, missing, &d);
		return error_set(err, d.verdict == INSTALL_NO_MANAGER ? -ENOPKG : -EPERM, "%s",
				 d.message);
	}
	/* Even when we think it would work, the helper has the last word: it is the one that
	 * knows whether it really runs as root and what it would run. */
	struct relay rl = {.out = out,
			   .tty = !dry_run && isatty(fileno(out)),
			   .quiet = dry_run,
			   .utf8 = locale_utf8()};
	struct install_outcome o;
	r = install_helper_call(s->helper, dry_run ? PROTO_OP_DECIDE : PROTO_OP_INSTALL, relay_line,
				&rl, &o);
	if (r == -EACCES || r == -EPERM) {
		return refusal(&f, INSTALL_ASK_ADMIN, "the helper may not be executed by this user",
			       err);
	}
	if (r == -ENOENT) {
		f.helper_exists = false;
		return refusal(&f, INSTALL_ASK_ADMIN, NULL, err);
	}
	if (r < 0) {
		return error_set(err, r, "cannot run %s: %s", s->helper, strerror(-r));
	}
	relay_end(&rl, o.outcome != PROTO_OK && o.outcome != PROTO_ALREADY_INSTALLED);
	if ((r = outcome_error(&f, &o, s->helper, err)) < 0) {
		return r;
	}
	if (dry_run) {
		fprintf(out, "botdesk install would run, as root through %s (%s):\n  %s\n",
			s->helper, proto_manager_name(o.manager), rl.command);
	} else if (o.outcome == PROTO_ALREADY_INSTALLED) {
		/* The helper ran nothing and took no lock: say so, it is no failure. */
		fprintf(out, "The desktop's packages are already installed; nothing to do.\n");
	} else {
		fprintf(out, "The desktop's packages are installed.\n");
	}
	return 0;
}
