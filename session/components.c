/* Finding and starting the desktop's parts: Xvnc on the claimed sockets, the private bus, the
 * Xfce components; their environment; the env file. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "busconf.h"
#include "childenv.h"
#include "log.h"
#include "pathsearch.h"
#include "policy.h"
#include "run.h"
#include "spawnproc.h"
#include "timeutil.h"
#include "util.h"
#include "xkbsafe.h"
#include "xserver.h"

const char *const components_names[PROG_COUNT] = {
	[PROG_DBUS] = "dbus-run-session", [PROG_XFSETTINGSD] = "xfsettingsd",
	[PROG_XFWM4] = "xfwm4",           [PROG_XFDESKTOP] = "xfdesktop",
	[PROG_PANEL] = "xfce4-panel",
};

/* Whether the configured desktop runs p at all; components_start of a program it does not run
 * does nothing. */
static bool components_wanted(const struct session_config *cfg, enum program p)
{
	/* The lean desktop paints the root itself (xsetup.c) instead of running xfdesktop, and
	 * seeds GTK's settings.ini instead of running an XSETTINGS daemon (see docs/session.md,
	 * "The lean desktop"). */
	return cfg->full || (p != PROG_XFSETTINGSD && p != PROG_XFDESKTOP);
}

/* The message for a program that is not installed names the package of each manager, from the
 * same policy table the runner's check uses. */
static int missing_program(const char *name, struct error *err)
{
	for (size_t i = 0; i < POLICY_PROGRAM_COUNT; i++) {
		for (size_t j = 0; policy_programs[i].names[j]; j++) {
			if (streq(policy_programs[i].names[j], name)) {
				const char *const *pkg = policy_programs[i].package;
				return error_set(
					err, -ENOENT,
					"%s is not installed: install %s (apt), %s (dnf) or %s (pacman)",
					name, pkg[POLICY_APT], pkg[POLICY_DNF], pkg[POLICY_PACMAN]);
			}
		}
	}
	return error_set(err, -ENOENT, "%s is not installed", name);
}

int components_log_fd(struct run *run)
{
	int fd;
	return logrelay_source(&run->log, &fd) < 0 ? -1 : fd;
}

/* fds[*n] and fds[*n + 1]: log as the part's stdout and stderr, unless it is -1. */
static void place_log(int log, struct spawn_fd *fds, size_t *n)
{
	if (log >= 0) {
		fds[(*n)++] = (struct spawn_fd){log, STDOUT_FILENO};
		fds[(*n)++] = (struct spawn_fd){log, STDERR_FILENO};
	}
}

/* Every program is looked up before anything is claimed or started: a missing one fails the
 * start with its name and leaves nothing behind. */
int components_find(struct run *run, struct error *err)
{
	int r = xserver_find(run->cfg->search_path, &run->xvnc, err);
	for (size_t i = 0; i < PROG_COUNT && r == 0; i++) {
		if (!components_wanted(run->cfg, (enum program)i)) {
			continue;
		}
		r = path_find(run->cfg->search_path, components_names[i], &run->programs[i]);
		if (r == -ENOENT) {
			return missing_program(components_names[i], err);
		}
	}
	return r;
}

int components_start_xvnc(struct run *run, struct error *err)
{
	const struct session_config *cfg = run->cfg;
	int r = claim_sockets(&run->claim, cfg->x_socket_dir, cfg->display, err);
	if (r == 0) {
		r = claim_keymap(&run->claim, cfg->x_lock_dir, err);
	}
	if (r < 0) {
		return r;
	}
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		return error_set(err, negative_errno(), "pipe: %s", strerror(errno));
	}
	run->displayfd = pipefd[0];
	_cleanup_close_ int displayfd_w = pipefd[1];
	/* Without the copy the desktop still runs, and the agent's tools still refuse the zap's
	 * keysym; a client of the desktop could end it by one. */
	char xkb_dir[CONTRACT_SOCKET_PATH_MAX + 8];
	int x = xkbsafe_prepare(cfg->state_dir, XKBSAFE_SYSTEM_DIR, xkb_dir, sizeof(xkb_dir));
	if (x < 0) {
		log_warn(
			"cannot prepare the keyboard data without the server-ending key in %s/%s (%s); Xvnc uses the system's",
			cfg->state_dir, XKBSAFE_DIR, strerror(-x));
	}
	struct xserver_args a = {
		.xkb_dir = x == 0 ? xkb_dir : NULL,
		.server = run->xvnc,
		.profile = cfg->profile,
		.display = cfg->display,
		.displayfd = 4,
		.xauth_path = cfg->xauth_path,
		.socket_path = cfg->xvnc_socket_path,
		.width = cfg->width,
		.height = cfg->height,
		.glx = cfg->full,
	};
	struct strv argv = {0};
	struct strv env = {0};
	struct desktop_vars none = {.pass = cfg->pass_env};
	r = xserver_argv(&a, &argv);
	if (r == 0) {
		r = childenv_build(run->environ_base, &none, &env);
	}
	/* The path socket becomes fd 3 with LISTEN_FDS=1: Xvnc adopts it instead of binding its
	 * own. The abstract claim stays with us, never listening (see claim.h). */
	_cleanup_close_ int log = components_log_fd(run);
	struct spawn_fd fds[4] = {{run->claim.path_fd, 3}, {displayfd_w, 4}};
	size_t n_fds = 2;
	place_log(log, fds, &n_fds);
	struct spawn_opts o = {.fds = fds,
			       .n_fds = n_fds,
			       .listen_fds = 1,
			       .parent_death_signal = SESSION_CHILD_DEATH_SIGNAL};
	pid_t pid = 0;
	/* Xvnc makes files in the shared X directory (its compiled keymap server-<n>.xkm): under
	 * a caller's umask 000 another user could write them. Only we need to read them. */
	mode_t old_mask = umask(077);
	if (r == 0) {
		r = spawn_program(run->xvnc, argv.v, env.v, &o, &pid);
	}
	umask(old_mask);
	strv_free(&argv);
	strv_free(&env);
	if (r < 0) {
		return error_set(err, r, "cannot start %s: %s", run->xvnc, strerror(-r));
	}
	r = supervisor_watch(&run->sv, "Xvnc", pid, true);
	if (r < 0) {
		return error_set(err, r, "cannot watch Xvnc: %s", strerror(-r));
	}
	/* Xvnc writes no lock with -displayfd; ours names it, so the runner's allocation lock is
	 * released now instead of after the server's start-up. */
	r = claim_lock(&run->claim, cfg->x_lock_dir, pid, err);
	claim_close_sockets(&run->claim);
	return r;
}

int components_start_bus(struct run *run, struct error *err)
{
	/* Ours: addr's reading end and life's writing end; the relay's ends close at return. */
	_cleanup_close_pair_ int addr[2] = {-1, -1};
	_cleanup_close_pair_ int life[2] = {-1, -1};
	if (pipe2(addr, O_CLOEXEC) < 0 || pipe2(life, O_CLOEXEC) < 0) {
		return error_set(err, negative_errno(), "pipe: %s", strerror(errno));
	}
	run->bus_fd = TAKE_FD(addr[0]);
	run->lifeline = TAKE_FD(life[1]);
	/* Our configuration, not the system's: that one listens in shared /tmp. */
	char conf[CONTRACT_SOCKET_PATH_MAX + 16], conf_opt[sizeof(conf) + 16];
	int r = busconf_write(run->cfg->state_dir, conf, sizeof(conf), err);
	if (r < 0) {
		return r;
	}
	snprintf(conf_opt, sizeof(conf_opt), "--config-file=%s", conf);
	struct strv argv = {0};
	r = strv_push(&argv, run->programs[PROG_DBUS]);
	r = r < 0 ? r : strv_push(&argv, conf_opt);
	r = r < 0 ? r : strv_push(&argv, "--");
	r = r < 0 ? r : strv_push(&argv, run->self);
	r = r < 0 ? r : strv_push(&argv, "--bus-relay");
	_cleanup_close_ int log = components_log_fd(run);
	struct spawn_fd fds[4] = {{addr[1], 3}, {life[0], 4}};
	size_t n_fds = 2;
	place_log(log, fds, &n_fds);
	struct spawn_opts o = {.fds = fds, .n_fds = n_fds};
	pid_t pid;
	if (r == 0) {
		r = spawn_program(argv.v[0], argv.v, run->env.v, &o, &pid);
	}
	strv_free(&argv);
	if (r < 0) {
		return error_set(err, r, "cannot start %s: %s", run->programs[PROG_DBUS],
				 strerror(-r));
	}
	return supervisor_watch(&run->sv, "dbus-run-session", pid, true);
}

int components_start(struct run *run, enum program p, const char *const *args, bool essential,
		     struct error *err)
{
	if (!components_wanted(run->cfg, p)) {
		return 0;
	}
	struct strv argv = {0};
	int r = strv_push(&argv, run->programs[p]);
	for (size_t i = 0; args[i] && r == 0; i++) {
		r = strv_push(&argv, args[i]);
	}
	pid_t pid;
	if (r == 0) {
		_cleanup_close_ int log = components_log_fd(run);
		struct spawn_fd fds[2];
		size_t n_fds = 0;
		place_log(log, fds, &n_fds);
		struct spawn_opts o = {.fds = fds,
				       .n_fds = n_fds,
				       .parent_death_signal = SESSION_CHILD_DEATH_SIGNAL};
		r = spawn_program(run->programs[p], argv.v, run->env.v, &o, &pid);
	}
	strv_free(&argv);
	if (r < 0) {
		return error_set(err, r, "cannot start %s: %s", components_names[p], strerror(-r));
	}
	log_debug("started %s (pid %ld) at %llu ms", components_names[p], (long)pid,
		  (unsigned long long)(now_ms() - run->t0));
	r = supervisor_watch(&run->sv, components_names[p], pid, essential);
	return r < 0 ? error_set(err, r, "cannot watch %s", components_names[p]) : 0;
}

/* The desktop's environment, once the bus address is known. */
int components_build_env(struct run *run, bool with_bus)
{
	struct desktop_vars v = {
		.display = run->display,
		.xauthority = run->cfg->xauth_path,
		.dbus = with_bus ? run->bus_addr : NULL,
		.config_home = run->cfg->config_home,
		.cache_home = run->cache_home,
		.data_home = run->data_home,
		.pass = run->cfg->pass_env,
	};
	strv_free(&run->env);
	return childenv_build(run->environ_base, &v, &run->env);
}

int components_publish(struct run *run, struct error *err)
{
	struct desktop_vars v = {
		.display = run->display,
		.xauthority = run->cfg->xauth_path,
		.dbus = run->bus_addr,
		.config_home = run->cfg->config_home,
		.cache_home = run->cache_home,
		.data_home = run->data_home,
	};
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r = childenv_format_file(&v, &text, &len);
	if (r == 0) {
		r = childenv_publish(run->cfg->env_path, text, len);
	}
	if (r < 0) {
		return error_set(err, r, "cannot publish %s: %s", run->cfg->env_path, strerror(-r));
	}
	run->published = true;
	return 0;
}
