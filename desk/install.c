/* `botdesk install [--web|--fonts] [--dry-run]`: decide, drive the helper, and tell the user the
 * outcome in words that name the next step. The runner never installs anything itself and never
 * asks for a password; it either drives the helper or says exactly who must do what. */
#include "install.h"

#include <string.h>
#include <unistd.h>

#include "config.h"
#include "helperclient.h"
#include "installrelay.h"
#include "programs.h"
#include "util.h"

static int refusal(const struct install_facts *f, enum policy_set set, enum install_verdict v,
		   const char *reason, struct error *err)
{
	struct install_decision d;
	install_words(f, set, NULL, v, reason, &d);
	return error_set(err, v == INSTALL_NO_MANAGER ? -ENOPKG : -EPERM, "%s", d.message);
}

static int outcome_error(const struct install_facts *f, enum policy_set set,
			 const struct helperclient_outcome *o, const char *helper,
			 struct error *err)
{
	const char *again = install_command(set);
	switch (o->outcome) {
	case PROTO_OK:
	case PROTO_ALREADY_INSTALLED:
		return 0;
	case PROTO_NO_MANAGER:
		return refusal(f, set, INSTALL_NO_MANAGER, NULL, err);
	case PROTO_NOT_PRIVILEGED:
		if (f->no_new_privs || f->nosuid) {
			return refusal(f, set, INSTALL_BAKE_IMAGE, NULL, err);
		}
		return refusal(
			f, set, INSTALL_ASK_ADMIN,
			"botdesk-helper is not running as root (is it installed setuid root?)",
			err);
	case PROTO_NOT_PERMITTED:
		return refusal(f, set, INSTALL_ASK_ADMIN, NULL, err);
	case PROTO_BUSY:
		return error_set(
			err, -EBUSY,
			"another botdesk install is running on this host; run '%s' again when it has finished",
			again);
	case PROTO_NOT_IN_REPOS:
		return error_set(
			err, -ENOPKG,
			"a package is not in the configured repositories (see the package manager's output above): check the sources the package manager uses, then run '%s' again",
			again);
	case PROTO_LOCKED:
		return error_set(
			err, -EBUSY,
			"the package database is locked by another process (another package manager, or automatic updates); wait for it to finish and run '%s' again",
			again);
	case PROTO_DOWNLOAD_FAILED:
		return error_set(
			err, -EIO,
			"the packages could not be downloaded: check the network and the package sources, then run '%s' again",
			again);
	case PROTO_FAILED:
		return error_set(
			err, -EIO,
			"the package manager failed (exit status %d; its output is above): fix what it reports and run '%s' again",
			(int)o->detail, again);
	case PROTO_TIMEOUT:
		return error_set(
			err, -ETIMEDOUT,
			"the install did not finish in time and was stopped; run '%s' again (the package manager resumes where it stopped)",
			again);
	case PROTO_LIMITS:
		return error_set(
			err, -EPERM,
			"botdesk-helper cannot undo the resource limits or the OOM score this session set (root lacks CAP_SYS_RESOURCE here, as in a container with the default capabilities): run '%s' as root, or from a session whose hard limits are not lowered",
			again);
	case PROTO_TOO_SOON:
		return error_set(
			err, -EAGAIN,
			"%s started an install less than %d seconds ago, and the helper starts at most one for each user in that time; run '%s' again in %d seconds",
			f->user, PROTO_INSTALL_INTERVAL_S, again, (int)o->detail);
	case PROTO_BAD_REQUEST:
	case PROTO_REQUEST_TIMEOUT:
	case PROTO_INTERNAL:
	default:
		return error_set(
			err, -EPROTO,
			"%s failed (%s, detail %d): is it the helper of this botdesk version (%s)?",
			helper, proto_outcome_name(o->outcome), (int)o->detail, BOTDESK_VERSION);
	}
}

static void say_nothing_to_do(const struct install_facts *f, enum policy_set set,
			      enum install_verdict v, FILE *out)
{
	if (set == POLICY_SET_WEB) {
		fprintf(out, "noVNC is installed (%s): nothing to install.\n", f->novnc);
	} else if (set == POLICY_SET_FONTS) {
		fprintf(out,
			"Fonts for CJK text and colour emoji are installed: nothing to install.\n");
	} else if (f->in_image) {
		fprintf(out,
			"The desktop's programs are baked into this image (botdesk's container image, %s): nothing to install.\n",
			f->image_marker);
	} else if (v == INSTALL_ASK_ADMIN && f->helper_exists && f->helper_setuid_root &&
		   !f->helper_usable) {
		fprintf(out,
			"The desktop's programs are all installed: nothing to install. (Starting desktops needs no group: membership of group %s is needed only to install packages through %s.)\n",
			f->group, f->helper);
	} else {
		fprintf(out, "The desktop's programs are all installed: nothing to install.\n");
	}
}

/* Whether what set provides is here already, so that a caller who may not install has nothing to
 * ask for. */
static bool present(const struct settings *s, const struct install_facts *f, enum policy_set set,
		    const char *missing[POLICY_PROGRAM_COUNT + 1])
{
	if (set == POLICY_SET_WEB) {
		missing[0] = NULL;
		return f->web_present;
	}
	if (set == POLICY_SET_FONTS) {
		missing[0] = NULL;
		return f->fonts_missing == 0;
	}
	return programs_missing(s->search_path, missing) == 0;
}

static void say_done(const struct settings *s, enum policy_set set, bool dry_run,
		     const struct helperclient_outcome *o, const char *command, FILE *out)
{
	static const char *const what[POLICY_SET_COUNT] = {
		[POLICY_SET_DESKTOP] = "The desktop's packages are",
		[POLICY_SET_WEB] = "The web viewer's package (noVNC) is",
		[POLICY_SET_FONTS] = "The international fonts are",
	};
	if (dry_run) {
		fprintf(out, "%s would run, as root through %s (%s):\n  %s\n", install_command(set),
			s->helper, proto_manager_name(o->manager), command);
	} else if (o->outcome == PROTO_ALREADY_INSTALLED) {
		/* The helper ran nothing and took no lock: say so, it is no failure. */
		fprintf(out, "%s already installed; nothing to do.\n", what[set]);
	} else if (set == POLICY_SET_WEB) {
		fprintf(out,
			"The web viewer's package (noVNC) is installed: 'botdesk web' serves the desktop in a browser now.\n");
	} else if (set == POLICY_SET_FONTS) {
		fprintf(out,
			"The international fonts are installed: programs started from now on draw CJK text and emoji (a running browser or terminal picks them up when restarted).\n");
	} else {
		fprintf(out, "The desktop's packages are installed.\n");
	}
}

int install_run(const struct settings *s, enum policy_set set, bool dry_run, FILE *out,
		struct error *err)
{
	struct install_facts f;
	struct install_decision d;
	install_facts_gather(s, &f);
	if (set == POLICY_SET_FONTS) {
		install_facts_fonts(s, &f);
	}
	install_decide_from(&f, set, NULL, &d);
	if (d.verdict != INSTALL_CAN_RUN) {
		/* Nobody may install here, but maybe nobody needs to: with everything present,
		 * that is success, whoever asks. */
		const char *missing[POLICY_PROGRAM_COUNT + 1];
		if (present(s, &f, set, missing)) {
			say_nothing_to_do(&f, set, d.verdict, out);
			return 0;
		}
		install_decide_from(&f, set, missing, &d);
		return error_set(err, d.verdict == INSTALL_NO_MANAGER ? -ENOPKG : -EPERM, "%s",
				 d.message);
	}
	/* Even when we think it would work, the helper has the last word: it is the one that
	 * knows whether it really runs as root and what it would run. */
	struct install_relay rl = {.out = out,
				   .tty = !dry_run && isatty(fileno(out)),
				   .quiet = dry_run,
				   .utf8 = install_relay_locale_utf8()};
	static const enum proto_op ops[POLICY_SET_COUNT][2] = {
		[POLICY_SET_DESKTOP] = {PROTO_OP_INSTALL, PROTO_OP_DECIDE},
		[POLICY_SET_WEB] = {PROTO_OP_INSTALL_WEB, PROTO_OP_DECIDE_WEB},
		[POLICY_SET_FONTS] = {PROTO_OP_INSTALL_FONTS, PROTO_OP_DECIDE_FONTS},
	};
	struct helperclient_outcome o;
	int r = helperclient_call(s->helper, ops[set][dry_run], install_relay_line, &rl, &o);
	if (r == -EACCES || r == -EPERM) {
		return refusal(&f, set, INSTALL_ASK_ADMIN,
			       "the helper may not be executed by this user", err);
	}
	if (r == -ENOENT) {
		f.helper_exists = false;
		return refusal(&f, set, INSTALL_ASK_ADMIN, NULL, err);
	}
	if (r < 0) {
		return error_set(err, r, "cannot run %s: %s", s->helper, strerror(-r));
	}
	install_relay_end(&rl, o.outcome != PROTO_OK && o.outcome != PROTO_ALREADY_INSTALLED);
	if ((r = outcome_error(&f, set, &o, s->helper, err)) < 0) {
		return r;
	}
	say_done(s, set, dry_run, &o, rl.command, out);
	return 0;
}
