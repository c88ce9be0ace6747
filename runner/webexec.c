#include "webexec.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "viewdoor.h"

/* botdesk-web's argv: the profile, its directory, the page's files, noVNC, the watchers' door
 * when the view_dir setting puts it elsewhere (into view, which the argv points to), then argv's
 * options (a --novnc there still wins: getopt takes the last). */
static char **web_args(const struct settings *s, const struct profile *p, int argc, char **argv,
		       char *view, size_t view_size)
{
	if (s->view_dir && view_door_path(s->view_dir, p->dir, p->name, view, view_size) < 0) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	char **args = calloc((size_t)argc + 12, sizeof(char *));
	if (!args) {
		return NULL;
	}
	size_t n = 0;
	static char o_profile[] = "--profile", o_state[] = "--state", o_data[] = "--data",
		    o_novnc[] = "--novnc";
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
		static char o_view[] = "--view-socket";
		args[n++] = o_view;
		args[n++] = view;
	}
	for (int i = 1; i < argc; i++) {
		args[n++] = argv[i];
	}
	args[n] = NULL;
	return args;
}

/* web_args(), or -errno with the message. */
static int web_argv(const struct settings *s, const struct profile *p, int argc, char **argv,
		    char *view, size_t size, char ***ret, struct error *err)
{
	*ret = web_args(s, p, argc, argv, view, size);
	if (!*ret) {
		return error_set(
			err, negative_errno(),
			"cannot build botdesk-web's command line: %s (is view_dir too long?)",
			strerror(errno));
	}
	return 0;
}

int webexec_run(const struct settings *s, const struct profile *p, int argc, char **argv,
		struct error *err)
{
	char view[PATH_MAX];
	_cleanup_free_ char **args = NULL;
	int r = web_argv(s, p, argc, argv, view, sizeof(view), &args, err);
	if (r < 0) {
		return r;
	}
	execv(s->web, args);
	r = negative_errno();
	return error_set(
		err, r,
		"cannot run %s: %s; botdesk web needs botdesk built with libwebsockets (libwebsockets-dev) and installed completely",
		s->web, strerror(-r));
}

int webexec_spawn(const struct settings *s, const struct profile *p, int argc, char **argv,
		  pid_t *ret_pid, struct error *err)
{
	char view[PATH_MAX];
	_cleanup_free_ char **args = NULL;
	int r = web_argv(s, p, argc, argv, view, sizeof(view), &args, err);
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
	r = posix_spawn(ret_pid, s->web, NULL, &attr, args, environ);
	posix_spawnattr_destroy(&attr);
	if (r != 0) {
		return error_set(
			err, -r,
			"cannot run %s: %s; botdesk run --web needs botdesk built with libwebsockets (libwebsockets-dev) and installed completely",
			s->web, strerror(r));
	}
	return 0;
}
