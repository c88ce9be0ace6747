#include "webexec.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "viewdoor.h"
#include "webargs.h"

int webexec_check_args(int argc, char **argv, bool *ret_ticket, struct error *err)
{
	static const struct option longopts[] = {WEBARGS_USER, {NULL, 0, NULL, 0}};
	bool ticket = false;
	optind = 1;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch == '?' || ch == ':') {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"web takes no option '%s' (its options: --listen ADDR:PORT, --tls-cert FILE, --tls-key FILE, --open, --ticket, --novnc DIR)",
				argv[optind - 1]);
		}
		ticket |= ch == 't';
	}
	if (optind < argc) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL, "web takes no argument '%s'",
				      argv[optind]);
	}
	*ret_ticket = ticket;
	return 0;
}

/* Where the probed desktop's X cookie is: its XAUTHORITY, else the profile's own file. */
static int desktop_x(const struct profile *p, const struct desktop_probe *probe,
		     const char **ret_display, char **ret_xauth)
{
	const char *display = envfile_get(&probe->env, "DISPLAY");
	const char *xauth = envfile_get(&probe->env, "XAUTHORITY");
	char *x = xauth ? strdup(xauth) : profile_path(p, STATE_XAUTHORITY);
	if (!display || !x) {
		free(x);
		return display ? -ENOMEM : -EINVAL;
	}
	*ret_display = display;
	*ret_xauth = x;
	return 0;
}

/* botdesk-web's argv (common/webargs.h): the profile, its directory, the page's files, noVNC,
 * the watchers' door when the view_dir setting puts it elsewhere (into view, which the argv
 * points to), what a take needs (the probed desktop's X, into xauth, which the caller frees),
 * then argv's options (a --novnc there still wins: getopt takes the last). */
static char **web_args(const struct settings *s, const struct profile *p,
		       const struct desktop_probe *probe, int argc, char **argv, char *view,
		       size_t view_size, char **xauth)
{
	if (s->view_dir && view_door_path(s->view_dir, p->dir, p->name, view, view_size) < 0) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	const char *display = NULL;
	if (probe && probe->running) {
		int r = desktop_x(p, probe, &display, xauth);
		if (r < 0) {
			errno = -r;
			return NULL;
		}
	}
	char **args = calloc((size_t)argc + 18, sizeof(char *));
	if (!args) {
		return NULL;
	}
	size_t n = 0;
	static char o_profile[] = "--" WEBARG_PROFILE, o_state[] = "--" WEBARG_STATE,
		    o_data[] = "--" WEBARG_DATA, o_novnc[] = "--" WEBARG_NOVNC;
	args[n++] = s->web;
	args[n++] = o_profile;
	args[n++] = (char *)(uintptr_t)p->name;
	args[n++] = o_state;
	args[n++] = (char *)(uintptr_t)p->dir;
	args[n++] = o_data;
	args[n++] = s->web_data;
	args[n++] = o_novnc;
	args[n++] = s->novnc;
	if (s->view_dir) {
		static char o_view[] = "--" WEBARG_VIEW_SOCKET;
		args[n++] = o_view;
		args[n++] = view;
	}
	if (display) {
		static char o_act[] = "--" WEBARG_ACT_POINTER, o_display[] = "--" WEBARG_DISPLAY,
			    o_xauth[] = "--" WEBARG_XAUTHORITY;
		args[n++] = o_act;
		args[n++] = s->act_pointer;
		args[n++] = o_display;
		args[n++] = (char *)(uintptr_t)display;
		args[n++] = o_xauth;
		args[n++] = *xauth;
	}
	for (int i = 1; i < argc; i++) {
		args[n++] = argv[i];
	}
	args[n] = NULL;
	return args;
}

/* botdesk-web's command line and the strings it points into. */
struct webcmd {
	char view[PATH_MAX];
	char *xauth;
	char **args;
};

static void webcmd_done(struct webcmd *cmd)
{
	free(cmd->args);
	free(cmd->xauth);
}

/* web_args() into cmd, or -errno with the message. */
static int web_argv(const struct settings *s, const struct profile *p,
		    const struct desktop_probe *probe, int argc, char **argv, struct webcmd *cmd,
		    struct error *err)
{
	cmd->args = web_args(s, p, probe, argc, argv, cmd->view, sizeof(cmd->view), &cmd->xauth);
	if (!cmd->args) {
		return error_set(
			err, negative_errno(),
			"cannot build botdesk-web's command line: %s (is view_dir too long? did the desktop publish its DISPLAY?)",
			strerror(errno));
	}
	return 0;
}

int webexec_run(const struct settings *s, const struct profile *p,
		const struct desktop_probe *probe, int argc, char **argv, struct error *err)
{
	_cleanup_(webcmd_done) struct webcmd cmd = {.xauth = NULL};
	int r = web_argv(s, p, probe, argc, argv, &cmd, err);
	if (r < 0) {
		return r;
	}
	execv(s->web, cmd.args);
	r = negative_errno();
	return error_set(
		err, r,
		"cannot run %s: %s; botdesk web needs botdesk built with libwebsockets (libwebsockets-dev) and installed completely",
		s->web, strerror(-r));
}

int webexec_spawn(const struct settings *s, const struct profile *p,
		  const struct desktop_probe *probe, int argc, char **argv, pid_t *ret_pid,
		  struct error *err)
{
	_cleanup_(webcmd_done) struct webcmd cmd = {.xauth = NULL};
	int r = web_argv(s, p, probe, argc, argv, &cmd, err);
	if (r < 0) {
		return r;
	}
	/* `run` blocks the signals it reads through a signalfd; the server must get its own. */
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	sigset_t none;
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	extern char **environ;
	r = posix_spawn(ret_pid, s->web, NULL, &attr, cmd.args, environ);
	posix_spawnattr_destroy(&attr);
	if (r != 0) {
		return error_set(
			err, -r,
			"cannot run %s: %s; botdesk run --web needs botdesk built with libwebsockets (libwebsockets-dev) and installed completely",
			s->web, strerror(r));
	}
	return 0;
}
