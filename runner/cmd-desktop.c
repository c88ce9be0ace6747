/* The desktop's commands: start, stop, status, list, run, install, doctor (cli.h). */
#include "cli.h"

#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "actargs.h"
#include "actions.h"
#include "acttable.h"
#include "adminstop.h"
#include "base64.h"
#include "config.h"
#include "control.h"
#include "desktop.h"
#include "doctor.h"
#include "error.h"
#include "exitstatus.h"
#include "fileio.h"
#include "foreground.h"
#include "install.h"
#include "jsonout.h"
#include "launcher.h"
#include "list.h"
#include "log.h"
#include "parse.h"
#include "picture.h"
#include "profile.h"
#include "settings.h"
#include "status.h"
#include "thumbnailer.h"
#include "webexec.h"

extern char **environ;

int cmd_start(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "start", OPT_WAIT, &o);
	if (r || (r = setup(c, true))) {
		return r;
	}
	/* The status of the desktop this start saw running, even if a stop takes it down the
	 * moment the start lets go of the profile. */
	struct desktop_probe probe;
	r = desktop_start(&c->settings, &c->p, o.wait_ms, &probe, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	print_probe(c, &probe, o.json);
	return 0;
}

/* stop --user U [--profile P]: root ends another user's desktop (runner/adminstop.c). */
static int cmd_stop_user(struct cli *c, const char *user, bool json)
{
	int r = load_settings(c);
	if (r) {
		return r;
	}
	unsigned stopped = 0;
	r = adminstop_run(&c->settings, user, c->profile, &stopped, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	if (json) {
		struct jsonout j;
		jsonout_begin(&j, stdout);
		jsonout_string(&j, "user", user);
		jsonout_string(&j, "profile", c->profile);
		jsonout_bool(&j, "stopped", stopped > 0);
		jsonout_end(&j);
	} else {
		printf(stopped ? "stopped the desktop of profile '%s' of user %s\n"
			       : "no desktop of profile '%s' of user %s was running\n",
		       c->profile, user);
	}
	return stopped ? 0 : EXIT_NOT_RUNNING;
}

int cmd_stop(struct cli *c, int argc, char **argv)
{
	/* --user, and --profile after the command too, as an administrator writes it. */
	struct opts o;
	int r = parse_opts(argc, argv, "stop", OPT_USER | OPT_PROFILE, &o);
	if (r) {
		return r;
	}
	if (o.profile) {
		c->profile = o.profile;
	}
	if (o.user) {
		return cmd_stop_user(c, o.user, o.json);
	}
	if ((r = setup(c, false))) {
		return r;
	}
	bool stopped;
	r = desktop_stop(&c->settings, &c->p, &stopped, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	/* Nothing is left to hold: the next desktop starts in the agent's hands. Only after a
	 * successful stop, so a failed one never takes control from a human. */
	struct lease l;
	bool changed;
	if (c->p.dirfd >= 0 &&
	    (r = lease_set_at(c->p.dirfd, LEASE_AGENT, NULL, time(NULL), &l, &changed)) < 0) {
		log_warn("cannot hand the lease of profile '%s' back to the agent: %s", c->p.name,
			 strerror(-r));
	}
	/* The confirmation of a gate that is gone confirms nothing for the next desktop. */
	if (c->p.dirfd >= 0) {
		(void)unlink_at_if_exists(c->p.dirfd, LEASE_APPLIED_FILE);
	}
	if (o.json) {
		struct jsonout j;
		jsonout_begin(&j, stdout);
		jsonout_string(&j, "profile", c->p.name);
		jsonout_bool(&j, "stopped", stopped);
		jsonout_end(&j);
	} else {
		printf(stopped ? "stopped the desktop of profile '%s'\n"
			       : "profile '%s' had no desktop running\n",
		       c->p.name);
	}
	return stopped ? 0 : EXIT_NOT_RUNNING;
}

int cmd_list(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "list", OPT_ALL, &o);
	if (r || (r = load_settings(c))) {
		return r;
	}
	struct list l;
	r = o.all ? list_gather_all(&c->settings, &l, &c->err)
		  : list_gather(&c->settings, &l, &c->err);
	if (r < 0) {
		return fail(c, r);
	}
	if (o.json) {
		list_print_json(&l, stdout);
	} else {
		list_print_text(&l, stdout);
	}
	list_free(&l);
	return 0;
}

int cmd_status(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "status", 0, &o);
	if (r || (r = setup(c, false))) {
		return r;
	}
	print_status(c, o.json);
	return 0;
}

/* run's first line, for `docker logs` and the journal: the desktop is usable, where, and how to
 * look at it. */
static void print_run_up(const struct cli *c, const struct desktop_probe *probe)
{
	_cleanup_free_ char *sock = profile_path(&c->p, STATE_SOCKET);
	printf("desktop of profile '%s' running on display %s (launcher pid %d); view it with 'vncviewer %s', or take a picture with 'botdesk%s%s thumbnail --output desktop.png'\n",
	       c->p.name, envfile_get(&probe->env, "DISPLAY"), (int)probe->launcher.pid,
	       sock ? sock : STATE_SOCKET, profile_flag(c), profile_arg(c));
	fflush(stdout);
}

/* run's last line when the desktop ended because somebody asked: who. */
static void print_run_end(const struct cli *c, const struct foreground_result *res)
{
	if (res->end == FOREGROUND_STOPPED) {
		struct passwd *pw = getpwuid(res->by.by_uid);
		char uid[16];
		snprintf(uid, sizeof(uid), "%u", (unsigned)res->by.by_uid);
		printf("desktop of profile '%s' stopped by 'botdesk stop' (pid %d, user %s)\n",
		       c->p.name, (int)res->by.by_pid, pw ? pw->pw_name : uid);
	} else {
		const char *name = sigabbrev_np(res->signo);
		printf("desktop of profile '%s' stopped on SIG%s\n", c->p.name,
		       name ? name : "(unknown)");
	}
	fflush(stdout);
}

/* Ends the web server `run --web` started, and waits for it (bounded by its own clean stop). */
static void stop_web(pid_t pid)
{
	if (pid > 0 && kill(pid, SIGTERM) == 0) {
		(void)waitpid(pid, NULL, 0);
	}
}

int cmd_run(struct cli *c, int argc, char **argv)
{
	/* Everything from --web on is botdesk web's. */
	int web = 0;
	for (int i = 1; i < argc && !web; i++) {
		web = streq(argv[i], "--web") ? i : 0;
	}
	struct opts o;
	int r = parse_opts(web ? web : argc, argv, "run", OPT_WAIT, &o);
	bool ticket = false;
	if (!r && web && webexec_check_args(argc - web, argv + web, &ticket, &c->err) < 0) {
		return usage_error("%s", c->err.msg);
	}
	if (r || (r = setup(c, true))) {
		return r;
	}
	struct foreground fg = FOREGROUND_INIT;
	r = foreground_start(&c->settings, &c->p, o.wait_ms, &fg, &c->err);
	if (r == -EINTR) {
		/* Told to stop while starting (a container stopped early): a clean stop. */
		foreground_close(&fg);
		printf("desktop of profile '%s' stopped on a signal while it was starting; nothing of it is left running\n",
		       c->p.name);
		return 0;
	}
	if (r < 0) {
		foreground_close(&fg);
		return fail(c, r);
	}
	print_run_up(c, &fg.probe);
	pid_t web_pid = 0;
	if (web) {
		fflush(stdout);
		if ((r = webexec_spawn(&c->settings, &c->p, &fg.probe, argc - web, argv + web,
				       &web_pid, &c->err)) < 0) {
			log_warn("%s; the desktop runs without its web page", c->err.msg);
			c->err = (struct error){{0}};
		}
	}
	struct foreground_result res;
	r = foreground_wait(&c->settings, &c->p, &fg, &res, &c->err);
	stop_web(web_pid);
	foreground_close(&fg);
	if (r < 0) {
		return fail(c, r);
	}
	print_run_end(c, &res);
	return 0;
}

int cmd_doctor(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "doctor", 0, &o);
	if (r || (r = load_settings(c))) {
		return r;
	}
	return doctor_run(&c->settings, stdout) == 0 ? 0 : EXIT_FAILURE;
}

int cmd_install(struct cli *c, int argc, char **argv)
{
	struct opts o;
	int r = parse_opts(argc, argv, "install", OPT_DRY_RUN | OPT_WEB | OPT_FONTS, &o);
	if (r) {
		return r;
	}
	if (o.web && o.fonts) {
		return usage_error("install takes one of --web and --fonts");
	}
	if ((r = load_settings(c))) {
		return r;
	}
	enum policy_set set = POLICY_SET_DESKTOP;
	if (o.web) {
		set = POLICY_SET_WEB;
	} else if (o.fonts) {
		set = POLICY_SET_FONTS;
	}
	r = install_run(&c->settings, set, o.dry_run, stdout, &c->err);
	return r < 0 ? fail(c, r) : 0;
}
