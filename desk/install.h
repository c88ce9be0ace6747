/* What it takes to get a package set (the desktop's, or the web viewer's) onto this host, and doing
 * it through the helper. The runner's side of the privilege boundary: it never installs anything
 * itself. installfacts.c gathers, installwords.c decides and words, install.c is the command;
 * helperclient.c and installrelay.c are the wire and the output. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "policy.h"
#include "proto.h"
#include "settings.h"

enum install_verdict {
	INSTALL_NO_MANAGER, /* no apt-get/dnf: the distro's own tools, no word of sudo or privilege
			     */
	INSTALL_CAN_RUN, /* root, or the setuid helper will act for us: `botdesk install` works */
	INSTALL_BAKE_IMAGE, /* no route to root (no_new_privs, nosuid mount), or botdesk's own
			       image, whose packages are baked in when it is built */
	INSTALL_ASK_ADMIN, /* not allowed to use the helper (not in group botdesk, or not setuid) */
};

struct install_decision {
	enum install_verdict verdict;
	enum policy_manager manager; /* meaningful unless INSTALL_NO_MANAGER */
	/* The exact root command that installs the packages, e.g.
	 * "apt-get install -y --no-install-recommends tigervnc-standalone-server ..."; empty for
	 * INSTALL_NO_MANAGER. */
	char command[1024];
	/* One paragraph for the user: the truth about who must do what, naming the command, the
	 * packages, the Dockerfile line or the group, as the verdict requires. No trailing newline.
	 */
	char message[2048];
};

/* Decides, for the desktop's set, without installing anything. missing lists the required programs
 * that are absent (NULL-terminated, may be empty), so the message can name them. */
void install_decide(const struct settings *s, const char *const *missing,
		    struct install_decision *ret);

/* `botdesk install [--web|--fonts] [--dry-run]`: decides, then (unless dry_run) runs the install of
 * set through the helper, relaying its output to out. Returns 0 when the packages are installed
 * (or, for a dry run, when an install could run), else -errno with err saying why and what to do
 * next. When what set provides is here already (the desktop's programs, noVNC) and the helper
 * cannot run for this caller (not in its group, in botdesk's image, ...), there is nothing to do:
 * 0, and out says so. */
int install_run(const struct settings *s, enum policy_set set, bool dry_run, FILE *out,
		struct error *err);

/* What install_decide() looks at, gathered once, so the table of verdicts can be tested on its
 * own. */
struct install_facts {
	bool root;         /* real uid 0 */
	bool have_manager; /* apt-get, dnf or pacman (pacman only for the words) */
	enum policy_manager manager;
	bool helper_exists;
	bool helper_setuid_root; /* owned by root, S_ISUID */
	bool helper_usable;      /* the caller is in its group and may execute it */
	bool no_new_privs;       /* /proc/self/status NoNewPrivs: 1 */
	bool nosuid;             /* the helper's filesystem is mounted nosuid */
	char user[64];           /* the caller's name (or uid) */
	char group[64];          /* the helper's group, or the default one */
	char helper[512];        /* the helper's path */
	/* botdesk's container image (its Dockerfile writes the marker): packages are baked in
	 * when the image is built, never installed at run time, and the helper is no setuid
	 * program there. */
	bool in_image;
	bool image_without_desktop; /* built with BOTDESK_DESKTOP=0 (the marker says desktop=0) */
	char image_marker[512];
	bool web_present; /* noVNC's core/rfb.js is readable under novnc */
	char novnc[512];  /* BOTDESK_NOVNC */
	/* The international fonts: FONTS_MISSING_* bits (fontprobe.h), and whether fc-list could
	 * not tell (then both bits). Only install_facts_fonts() fills them. */
	unsigned fonts_missing;
	int fonts_probe_error;
};

/* Never fails: a fact that cannot be read is the cautious answer (no group, no image, ...). */
void install_facts_gather(const struct settings *s, struct install_facts *ret);
/* Adds the fonts facts (runs BOTDESK_FC_LIST); never fails. */
void install_facts_fonts(const struct settings *s, struct install_facts *f);
/* The verdict and the words for it, for set; never fails. */
void install_decide_from(const struct install_facts *f, enum policy_set set,
			 const char *const *missing, struct install_decision *ret);
/* The words for a verdict already reached (a refusal the helper answered with); reason, when set,
 * replaces the words' own account of why the caller may not install. */
void install_words(const struct install_facts *f, enum policy_set set, const char *const *missing,
		   enum install_verdict v, const char *reason, struct install_decision *ret);
/* What the user runs to install set: "botdesk install", "botdesk install --web" or
 * "botdesk install --fonts". */
const char *install_command(enum policy_set set);
