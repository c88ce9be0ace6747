#include "session.h"

#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "busconf.h"
#include "doors.h"
#include "exitstatus.h"
#include "idle.h"
#include "log.h"
#include "memfile.h"
#include "notify.h"
#include "parse.h"
#include "recstart.h"
#include "run.h"
#include "screensize.h"
#include "seed.h"
#include "timeutil.h"
#include "util.h"
#include "xsetup.h"
#include "xsocket.h"

/* How long a server that closed -displayfd gets to be reaped, for its status. */
#define XVNC_EXIT_WAIT_MS 2000
/* How long a part's end waits for Xvnc's, to name the cause: Xvnc's clients see their connection
 * close while it exits, a moment before it can be reaped. A part that failed on its own costs the
 * desktop's stop this much. */
#define XVNC_CAUSE_WAIT_MS 300

uint64_t session_deadline(uint64_t t0, uint64_t wait_ms)
{
	if (wait_ms == 0) {
		wait_ms = SESSION_DEFAULT_WAIT_MS;
	}
	uint64_t margin = wait_ms / 10;
	if (margin > SESSION_WAIT_MARGIN_MAX_MS) {
		margin = SESSION_WAIT_MARGIN_MAX_MS;
	}
	return t0 + wait_ms - margin;
}

/* Turns the end of a wait that did not deliver into a message. */
static int wait_failed(struct run *run, int r, const char *what, struct error *err)
{
	if (r == 0) {
		uint64_t spent = now_ms() - run->t0;
		return error_set(
			err, -ETIMEDOUT,
			"gave up after %llu.%01llu s waiting until %s: the start's deadline (%s) was reached",
			(unsigned long long)(spent / 1000),
			(unsigned long long)(spent % 1000 / 100), what,
			run->cfg->wait_ms ? "botdesk start --wait" : "30 s when run by hand");
	}
	if (r == -EINTR) {
		return error_set(err, -EINTR, "stopped by signal %d while waiting until %s",
				 run->sv.stop_signal, what);
	}
	if (r == -ECHILD) {
		char how[64];
		exit_status_describe(run->sv.ended->status, EXIT_STATUS_NOUN, how, sizeof(how));
		return error_set(err, -ECHILD, "%s ended (%s) while waiting until %s",
				 run->sv.ended->name, how, what);
	}
	return error_set(err, r, "waiting until %s failed: %s", what, strerror(-r));
}

/* Reads one line from fd, waiting on the supervisor's events in between, until the bring-up's
 * deadline. -EPIPE when the writer closed its end first. */
static int read_line(struct run *run, int fd, char *buf, size_t size, const char *what,
		     struct error *err)
{
	size_t len = 0;
	for (;;) {
		int r = supervisor_wait(&run->sv, fd, run->deadline);
		if (r != 1) {
			return wait_failed(run, r, what, err);
		}
		ssize_t n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			return error_set(err, -EPIPE,
					 "%s: the pipe closed before a whole line came", what);
		}
		len += (size_t)n;
		buf[len] = '\0';
		char *nl = strchr(buf, '\n');
		if (nl) {
			*nl = '\0';
			return 0;
		}
		if (len >= size - 1) {
			return error_set(err, -EFBIG, "%s: the line is too long", what);
		}
	}
}

/* Xvnc closed its end of -displayfd without a number: it is ending, and its wait status (the
 * cause a user needs: a signal, the OOM killer's KILL, an exit status) follows as SIGCHLD. */
static int xvnc_closed(struct run *run, struct error *err)
{
	uint64_t until = now_ms() + XVNC_EXIT_WAIT_MS;
	if (until > run->deadline) {
		until = run->deadline;
	}
	int w;
	while ((w = supervisor_wait(&run->sv, -1, until)) == 1) {
	}
	char how[96];
	if (w == -ECHILD) {
		exit_status_describe(run->sv.ended->status, EXIT_STATUS_SENTENCE, how, sizeof(how));
		if (streq(run->sv.ended->name, "Xvnc")) {
			return error_replace(
				err, -ECHILD,
				"Xvnc %s before it accepted clients on :%u; its own messages are above in this log",
				how, run->cfg->display);
		}
		return error_replace(err, -ECHILD, "%s %s before Xvnc accepted clients on :%u",
				     run->sv.ended->name, how, run->cfg->display);
	}
	if (w == -EINTR) {
		return error_replace(
			err, -EINTR,
			"stopped by signal %d while waiting until Xvnc accepts clients",
			run->sv.stop_signal);
	}
	return error_replace(
		err, -EPROTO,
		"Xvnc closed its -displayfd pipe without reporting its display number, and is still running after %d ms",
		XVNC_EXIT_WAIT_MS);
}

static int wait_xvnc(struct run *run, struct error *err)
{
	char line[32];
	int r = read_line(run, run->displayfd, line, sizeof(line), "Xvnc accepts clients", err);
	if (r == -EPIPE) {
		r = xvnc_closed(run, err);
	}
	uid_t owner;
	/* Another user may create the keymap file between our check and Xvnc's compile: then the
	 * number is theirs, and the runner tries another one. */
	if (r < 0 && geteuid() != 0 &&
	    xsocket_keymap_squatted(run->cfg->x_lock_dir, run->cfg->display, geteuid(), &owner)) {
		return error_replace(
			err, -EADDRINUSE,
			"Xvnc could not compile its keymap on :%u: %s/server-%u.xkm belongs to uid %u; this number counts as taken",
			run->cfg->display, run->cfg->x_lock_dir, run->cfg->display,
			(unsigned)owner);
	}
	if (r < 0) {
		return r;
	}
	unsigned n;
	if (parse_uint_range(line, 0, 65535, &n) < 0 || n != run->cfg->display) {
		return error_set(err, -EPROTO, "Xvnc reported display '%s', expected %u", line,
				 run->cfg->display);
	}
	return 0;
}

struct wm_wait {
	struct run *run;
	int r; /* the last wait's result */
};

static int wm_wait_fd(void *ctx, int fd)
{
	struct wm_wait *w = ctx;
	w->r = supervisor_wait(&w->run->sv, fd, w->run->deadline);
	return w->r;
}

static int wait_wm(struct run *run, struct error *err)
{
	struct wm_wait w = {.run = run, .r = 1};
	int r = xsetup_wait_wm(run->dpy, xsetup_wm_owns_screen, wm_wait_fd, &w);
	if (r == 1) {
		return 0;
	}
	if (w.r != 1) {
		return wait_failed(run, w.r, "the window manager owns the screen", err);
	}
	run->dpy = NULL; /* broken: never touched again */
	return error_set(err, r, "lost the connection to Xvnc");
}

static int setup_x(struct run *run, struct error *err)
{
	int r = xsetup_open(run->cfg->display, &run->cookie, &run->dpy);
	if (r < 0) {
		return error_set(err, r, "cannot connect to Xvnc on %s", run->display);
	}
	r = xsetup_desktop(run->dpy, SEED_ROOT_RGB);
	if (r == -ECONNRESET) {
		run->dpy = NULL;
		return error_set(err, r, "lost the connection to Xvnc");
	}
	if (r < 0) {
		log_warn("some X settings failed: %s", strerror(-r));
	}
	r = xsetup_watch_wm(run->dpy);
	if (r < 0) {
		run->dpy = NULL;
		return error_set(err, r, "lost the connection to Xvnc");
	}
	return 0;
}

/* The cookie, the claim and Xvnc, then (while Xvnc starts) the configuration, which must be in
 * place before anything can make the bus start xfconfd, and the bus. */
static int start_server_and_bus(struct run *run, struct error *err)
{
	const struct session_config *cfg = run->cfg;
	int r = xauth_cookie_new(&run->cookie);
	if (r < 0) {
		return error_set(err, r, "no random bytes for the X cookie: %s", strerror(-r));
	}
	r = xauth_write(cfg->xauth_path, cfg->display, &run->cookie, err);
	if (r == 0) {
		r = components_start_xvnc(run, err);
	}
	if (r < 0) {
		return r;
	}
	run->t_claimed = now_ms();
	/* The point the runner used to find by watching the X directory: the lock names Xvnc, so
	 * other starts may allocate now, not after our whole bring-up. */
	char claimed[LAUNCHER_NOTIFY_LINE_MAX];
	snprintf(claimed, sizeof(claimed), LAUNCHER_NOTIFY_CLAIMED "%u", cfg->display);
	notify_send(&run->notify_fd, claimed);
	struct seed_opts so = {.profile = cfg->profile, .dock = run->dock, .tray = cfg->full};
	r = seed_config(cfg->config_home, &so, err);
	if (r == 0 && (r = components_build_env(run, false)) < 0) {
		return error_set(err, r, "cannot build the environment");
	}
	if (r == 0) {
		r = components_start_bus(run, err);
	}
	if (r == 0) {
		r = read_line(run, run->bus_fd, run->bus_addr, sizeof(run->bus_addr),
			      "the session bus is up", err);
	}
	if (r == 0 && (r = components_build_env(run, true)) < 0) {
		return error_set(err, r, "cannot build the environment");
	}
	return r;
}

/* xfsettingsd and the window manager. They may start before Xvnc accepts clients: the X sockets
 * were listening from the claim on, so their connections wait in the socket's queue while
 * their own start-up overlaps the server's. */
static int start_wm(struct run *run, struct error *err)
{
	static const char *const settings_args[] = {"--sm-client-disable", NULL};
	static const char *const wm_args[] = {"--compositor=off", "--sm-client-disable", NULL};
	int r = components_start(run, PROG_XFSETTINGSD, settings_args, false, err);
	if (r == 0) {
		r = components_start(run, PROG_XFWM4, wm_args, true, err);
	}
	return r;
}

/* The connection stays, for the one event status needs: the screen's size changing (a viewer
 * resized it). The size is published before the env file, so a running desktop has one. */
static void watch_size(struct run *run)
{
	unsigned w, h;
	int r = xsetup_watch_size(run->dpy, &w, &h);
	if (r == 0) {
		run->width = w;
		run->height = h;
		r = screensize_publish(run->cfg->env_path, w, h);
	}
	if (r < 0) {
		/* Status then shows the configured size: no stale one of an earlier run. */
		screensize_remove(run->cfg->env_path);
		log_warn("not following the screen's size: %s", strerror(-r));
		if (r == -ECONNRESET) {
			run->dpy = NULL; /* broken: never touched again */
		} else {
			xsetup_close(run->dpy);
			run->dpy = NULL;
		}
	}
}

/* A resize (or the server going away) woke the connection. */
static void size_events(struct run *run)
{
	unsigned w = run->width, h = run->height;
	if (xsetup_size_events(run->dpy, &w, &h) < 0) {
		/* Xvnc is gone; the supervisor hears of it as its child. */
		run->dpy = NULL;
		screensize_remove(run->cfg->env_path);
		return;
	}
	if (w != run->width || h != run->height) {
		run->width = w;
		run->height = h;
		if (screensize_publish(run->cfg->env_path, w, h) < 0) {
			screensize_remove(run->cfg->env_path);
		}
	}
}

/* Once the window manager owns the screen: the rest of the desktop, then the env file,
 * published only now so that an agent acting the moment start returns finds a managed
 * screen. */
static int finish(struct run *run, struct error *err)
{
	int r = wait_wm(run, err);
	if (r < 0) {
		return r;
	}
	uint64_t t_wm = now_ms();
	watch_size(run);
	static const char *const args[] = {"--sm-client-disable", NULL};
	r = components_start(run, PROG_XFDESKTOP, args, false, err);
	if (r == 0) {
		r = components_start(run, PROG_PANEL, args, true, err);
	}
	if (r == 0) {
		r = components_publish(run, err);
	}
	if (r == 0) {
		/* The env file is the last thing published (rfb.sock, the gate's, came before): the
		 * runner's start may return now. */
		notify_finish(&run->notify_fd, LAUNCHER_NOTIFY_READY);
		log_info(
			"desktop %s is up: claimed in %llu ms, Xvnc ready at %llu ms, window manager at %llu ms",
			run->display, (unsigned long long)(run->t_claimed - run->t0),
			(unsigned long long)(run->t_xvnc - run->t0),
			(unsigned long long)(t_wm - run->t0));
	}
	return r;
}

static int bring_up(struct run *run, struct error *err)
{
	int r = components_find(run, err);
	if (r == 0) {
		r = start_server_and_bus(run, err);
	}
	if (r == 0) {
		r = start_wm(run, err);
	}
	if (r == 0) {
		r = wait_xvnc(run, err);
	}
	run->t_xvnc = now_ms();
	if (r == 0) {
		r = doors_start_gate(run, err);
	}
	if (r == 0) {
		/* The recorder's failure is its own, never the desktop's (recstart.c). */
		(void)recstart_spawn(run);
	}
	if (r == 0) {
		r = setup_x(run, err);
	}
	if (r == 0) {
		r = finish(run, err);
	}
	return r;
}

/* Runs until TERM, until an essential part ends, or until the desktop is idle; the exit
 * status. */
static int supervise(struct run *run, struct error *err)
{
	struct idle idle = IDLE_INIT;
	int r = idle_open(&idle, run->cfg->state_dir, run->cfg->idle_stop_ms);
	if (r < 0) {
		error_set(err, r, "cannot open %s for the idle stop: %s", run->cfg->state_dir,
			  strerror(-r));
		return 1;
	}
	/* One wait for everything: a component ending, TERM, the screen resized (the X
	 * connection), the idle deadline, and between events the desktop's memory figure for
	 * `botdesk list` (see memfile.h). */
	uint64_t next_mem = now_ms() + MEMFILE_FIRST_MS;
	struct memfile mem = MEMFILE_INIT;
	bool idle_due = false;
	for (;;) {
		uint64_t deadline;
		if (idle_check(&idle, &deadline) == 1) {
			idle_due = true;
			break;
		}
		if (now_ms() >= next_mem) {
			(void)memfile_renew(&mem, run->cfg->env_path);
			next_mem = now_ms() + MEMFILE_INTERVAL_MS;
		}
		uint64_t wake = deadline && deadline < next_mem ? deadline : next_mem;
		r = supervisor_wait(&run->sv, run->dpy ? ConnectionNumber(run->dpy) : -1, wake);
		if (r == 1) {
			size_events(run);
		} else if (r != 0) {
			break;
		}
	}
	idle_close(&idle);
	if (idle_due) {
		log_info("stopping the desktop: unused for %llu s (idle_stop_minutes)",
			 (unsigned long long)(run->cfg->idle_stop_ms / 1000));
		return 0;
	}
	if (r == -EINTR) {
		return 0;
	}
	if (r == -ECHILD) {
		const struct sv_child *c = supervisor_cause(&run->sv, "Xvnc", XVNC_CAUSE_WAIT_MS);
		char how[64];
		exit_status_describe(c->status, EXIT_STATUS_NOUN, how, sizeof(how));
		if (c != run->sv.ended) {
			char first[64];
			exit_status_describe(run->sv.ended->status, EXIT_STATUS_NOUN, first,
					     sizeof(first));
			error_set(err, -ECHILD,
				  "Xvnc ended (%s), and %s with it (%s); stopping the desktop", how,
				  run->sv.ended->name, first);
		} else {
			error_set(err, -ECHILD, "%s ended (%s); stopping the desktop", c->name,
				  how);
		}
		/* The panel quitting cleanly is a user ending the desktop, not a failure. */
		bool clean = streq(c->name, components_names[PROG_PANEL]) && WIFEXITED(c->status) &&
			     WEXITSTATUS(c->status) == 0;
		return clean ? 0 : 1;
	}
	error_set(err, r, "supervising failed: %s", strerror(-r));
	return 1;
}

static_assert(SESSION_STOP_GRACE_MS + SUPERVISOR_KILL_WAIT_MS <= LAUNCHER_TEARDOWN_MS,
	      "the teardown must end well inside the runner's grace");

void session_stop(struct supervisor *sv, struct claim *claim)
{
	supervisor_stop_all(sv, SESSION_STOP_GRACE_MS);
	claim_release(claim);
}

static void tear_down(struct run *run)
{
	if (run->dpy) {
		/* Without the round trip XCloseDisplay makes: Xvnc may be stopped or hung. */
		xsetup_abandon(run->dpy);
		run->dpy = NULL;
	}
	session_stop(&run->sv, &run->claim);
	run->sv.log = NULL;
	logrelay_done(&run->log);
	if (run->published) {
		(void)unlink(run->cfg->env_path);
		memfile_remove(run->cfg->env_path);
	}
	screensize_remove(run->cfg->env_path);
	/* Xvnc removes its RFB socket when it exits cleanly, not when it was killed. */
	(void)unlink(run->cfg->socket_path);
	doors_remove(run);
	busconf_remove(run->cfg->state_dir);
	run->displayfd = safe_close(run->displayfd);
	run->bus_fd = safe_close(run->bus_fd);
	run->lifeline = safe_close(run->lifeline);
	run->notify_fd = safe_close(run->notify_fd);
	supervisor_done(&run->sv);
	strv_free(&run->env);
	free(run->xvnc);
	for (size_t i = 0; i < PROG_COUNT; i++) {
		free(run->programs[i]);
	}
	free(run->cache_home);
	free(run->data_home);
	explicit_bzero(&run->cookie, sizeof(run->cookie));
}

int session_run(const struct session_config *cfg, const struct dock *dock, const char *self,
		char *const *environ_base, struct error *err)
{
	struct run run = {
		.cfg = cfg,
		.dock = dock,
		.self = self,
		.environ_base = environ_base,
		.sv = SUPERVISOR_INIT,
		.claim = CLAIM_INIT,
		.log = {.dirfd = -1, .out = -1},
		.displayfd = -1,
		.bus_fd = -1,
		.lifeline = -1,
		.notify_fd = cfg->notify_fd,
		.t0 = now_ms(),
	};
	run.deadline = session_deadline(run.t0, cfg->wait_ms);
	snprintf(run.display, sizeof(run.display), ":%u", cfg->display);
	int r = supervisor_init(&run.sv);
	if (r == 0) {
		r = logrelay_init(&run.log, cfg->state_dir, STDERR_FILENO, LOGRELAY_CAP);
		run.sv.log = &run.log;
	}
	if (r < 0) {
		error_set(err, r, "cannot set up supervision: %s", strerror(-r));
		tear_down(&run);
		return 1;
	}
	if (contract_cache_home(cfg, &run.cache_home) < 0 ||
	    contract_data_home(cfg, &run.data_home) < 0) {
		tear_down(&run);
		return 1;
	}
	r = bring_up(&run, err);
	int status;
	if (r == -EADDRINUSE) {
		status = LAUNCHER_EXIT_COLLISION;
	} else if (r < 0) {
		status = 1;
	} else {
		status = supervise(&run, err);
	}
	tear_down(&run);
	return status;
}
