/* What the user is told about installing a package set: the verdict for the facts gathered, and
 * the words for it — the exact root command, the Dockerfile line, the group to join — so that
 * every refusal names who must do what next. */
#include <stdarg.h>
#include <string.h>

#include "install.h"
#include "programs.h"
#include "util.h"

/* How the messages name each set. */
static const struct {
	const char *packages;      /* after a verb: "may not install ..." */
	const char *not_installed; /* a sentence's start */
	const char *command;       /* what the user runs */
} words[POLICY_SET_COUNT] = {
	[POLICY_SET_DESKTOP] = {"the desktop's packages",
				"The desktop's packages are not all installed", "botdesk install"},
	[POLICY_SET_WEB] = {"the web viewer's package (noVNC)",
			    "The web viewer's package (noVNC) is not installed",
			    "botdesk install --web"},
	[POLICY_SET_FONTS] = {"the international fonts (CJK, colour emoji)",
			      "The international fonts (CJK, colour emoji) are not installed",
			      "botdesk install --fonts"},
};

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

static void put_packages(struct buf *b, enum policy_set set, enum policy_manager m)
{
	for (const char *const *p = policy_sets[set][m]; *p; p++) {
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

static void root_command(enum policy_set set, enum policy_manager m, struct buf *b)
{
	static const char *const prefix[] = {
		[POLICY_APT] = "apt-get install -y --no-install-recommends",
		[POLICY_DNF] = "dnf install -y --setopt=install_weak_deps=False",
		[POLICY_PACMAN] = "pacman -S --needed --noconfirm",
	};
	put(b, "%s", prefix[m]);
	put_packages(b, set, m);
}

static void dockerfile_line(enum policy_set set, enum policy_manager m, struct buf *b)
{
	if (m == POLICY_APT) {
		put(b, "RUN apt-get update && apt-get install -y --no-install-recommends");
		put_packages(b, set, m);
		put(b, " && rm -rf /var/lib/apt/lists/*");
	} else if (m == POLICY_DNF) {
		put(b, "RUN dnf install -y --setopt=install_weak_deps=False");
		put_packages(b, set, m);
		put(b, " && dnf clean all");
	} else {
		put(b, "RUN pacman -Syu --needed --noconfirm");
		put_packages(b, set, m);
		put(b, " && pacman -Scc --noconfirm");
	}
}

static void say_no_manager(const struct install_facts *f, enum policy_set set,
			   const char *const *missing, struct buf *b)
{
	/* No word of privilege here: there is nothing anybody could run for us. */
	if (set == POLICY_SET_WEB) {
		put(b,
		    "No package manager botdesk can use (apt-get or dnf) was found: install noVNC (%s) with your distribution's own tools",
		    f->novnc);
	} else if (set == POLICY_SET_FONTS) {
		put(b,
		    "No package manager botdesk can use (apt-get or dnf) was found: install fonts for CJK text and colour emoji with your distribution's own tools");
	} else if (put_missing(b, missing)) {
		put(b,
		    ", and no package manager botdesk can use (apt-get or dnf) was found: install them with your distribution's own tools");
	} else {
		put(b,
		    "No package manager botdesk can use (apt-get or dnf) was found: install the desktop programs (");
		put_programs(b, NULL);
		put(b, ") with your distribution's own tools");
	}
	if (f->have_manager && f->manager == POLICY_PACMAN) {
		put(b, "; with pacman they come from the packages");
		put_packages(b, set, POLICY_PACMAN);
	}
	put(b, ".");
}

static void say_can_run(const struct install_facts *f, enum policy_set set,
			const char *const *missing, struct buf *b, const char *command)
{
	const char *how = f->root ? "as root" : "through botdesk-helper, as root";
	if (put_missing(b, missing)) {
		put(b, ". Install them with '%s', which runs %s: %s", words[set].command, how,
		    command);
	} else {
		put(b, "'%s' runs %s: %s", words[set].command, how, command);
	}
}

/* botdesk's own image: nothing is installed at run time, and no helper is to be fixed. */
static void say_bake_our_image(const struct install_facts *f, enum policy_set set,
			       const char *const *missing, struct buf *b)
{
	if (!put_missing(b, missing)) {
		put(b, "%s", words[set].not_installed);
	}
	put(b,
	    ", and this is botdesk's container image (%s says so), whose packages are baked in when it is built, never installed while it runs. ",
	    f->image_marker);
	if (f->image_without_desktop) {
		put(b,
		    "It was built with --build-arg BOTDESK_DESKTOP=0 (no desktop layer): build it again without that argument (docker build -t botdesk .).");
	} else {
		put(b,
		    "Build the image again from botdesk's Dockerfile (scripts/sync-dockerfile writes its desktop layer), or add this line to the Dockerfile you build from:\n  ");
		dockerfile_line(set, f->manager, b);
	}
}

static void say_bake(const struct install_facts *f, enum policy_set set, const char *const *missing,
		     struct buf *b)
{
	if (f->in_image) {
		say_bake_our_image(f, set, missing, b);
		return;
	}
	const char *why = f->no_new_privs
				  ? "no_new_privs is set, so a setuid program cannot gain privilege"
				  : "the helper's filesystem is mounted nosuid";
	if (put_missing(b, missing)) {
		put(b, ", and this process cannot become root to install them (%s)", why);
	} else {
		put(b, "This process cannot become root to install %s (%s)", words[set].packages,
		    why);
	}
	put(b,
	    ", as inside a container. The packages must be baked into the image; add this line to its Dockerfile:\n  ");
	dockerfile_line(set, f->manager, b);
}

static void say_ask_admin(const struct install_facts *f, enum policy_set set,
			  const char *const *missing, struct buf *b, const char *command,
			  const char *reason)
{
	if (put_missing(b, missing)) {
		put(b, ", and %s may not install them: ", f->user);
	} else {
		put(b, "%s may not install %s: ", f->user, words[set].packages);
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
	    ". An administrator can install them with:\n  %s\nor let %s install them with '%s': usermod -aG %s %s (it takes effect at the next login), with the helper installed root:%s mode 4750 (chown root:%s %s && chmod 4750 %s).",
	    command, f->user, words[set].command, f->group, f->user, f->group, f->group, f->helper,
	    f->helper);
}

void install_words(const struct install_facts *f, enum policy_set set, const char *const *missing,
		   enum install_verdict v, const char *reason, struct install_decision *d)
{
	struct buf cmd = {d->command, sizeof(d->command), 0};
	struct buf msg = {d->message, sizeof(d->message), 0};
	d->verdict = v;
	d->manager = f->have_manager ? f->manager : POLICY_APT;
	d->command[0] = d->message[0] = '\0';
	if (v != INSTALL_NO_MANAGER) {
		root_command(set, f->manager, &cmd);
	}
	switch (v) {
	case INSTALL_NO_MANAGER:
		say_no_manager(f, set, missing, &msg);
		break;
	case INSTALL_CAN_RUN:
		say_can_run(f, set, missing, &msg, d->command);
		break;
	case INSTALL_BAKE_IMAGE:
		say_bake(f, set, missing, &msg);
		break;
	case INSTALL_ASK_ADMIN:
		say_ask_admin(f, set, missing, &msg, d->command, reason);
		break;
	}
}

void install_decide_from(const struct install_facts *f, enum policy_set set,
			 const char *const *missing, struct install_decision *ret)
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
	install_words(f, set, missing, v, NULL, ret);
}

void install_decide(const struct settings *s, const char *const *missing,
		    struct install_decision *ret)
{
	struct install_facts f;
	install_facts_gather(s, &f);
	install_decide_from(&f, POLICY_SET_DESKTOP, missing, ret);
}

const char *install_command(enum policy_set set)
{
	return words[set].command;
}
