#include "doors.h"

#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "gateargs.h"
#include "lease.h"
#include "log.h"
#include "pathjoin.h"
#include "run.h"
#include "spawnproc.h"
#include "util.h"

#define BACKLOG 16

/* A listening socket at path, mode 0600 from the moment it exists (the umask covers the window
 * between bind and chmod that would otherwise leave it open). */
static int bind_door(const char *path, int *ret, struct error *err)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sa.sun_path)) {
		return error_set(err, -ENAMETOOLONG, "%s: too long for a unix socket", path);
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return error_set(err, negative_errno(), "socket: %s", strerror(errno));
	}
	/* Whatever a dead desktop left under the name goes: a listener cannot bind over it. */
	(void)unlink(path);
	mode_t old = umask(0177);
	int r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (r < 0 || listen(fd, BACKLOG) < 0) {
		return error_set(err, negative_errno(), "cannot listen on %s: %s", path,
				 strerror(errno));
	}
	*ret = TAKE_FD(fd);
	return 0;
}

/* The watchers' door, given to the view group: 0660 and that group's, for a supervisor who may
 * watch but never type. */
static int open_to_group(const char *path, gid_t gid, struct error *err)
{
	if (lchown(path, (uid_t)-1, gid) < 0 || chmod(path, 0660) < 0) {
		return error_set(
			err, negative_errno(),
			"cannot give %s to group %u: %s. Set BOTDESK_VIEW_GROUP to a group you are a member of",
			path, (unsigned)gid, strerror(errno));
	}
	return 0;
}

static int spawn_gate(struct run *run, int control, int view, struct error *err)
{
	const struct session_config *cfg = run->cfg;
	char self[4096], gate[4096], geometry[32];
	/* The gate sits beside us; a path cut short would start some other program. */
	int r = path_format(self, sizeof(self), "%s", run->self);
	if (r == 0) {
		r = path_join(gate, sizeof(gate), dirname(self), "botdesk-gate");
	}
	if (r < 0) {
		return error_set(err, r, "cannot start %s/botdesk-gate: %s", run->self,
				 strerror(-r));
	}
	snprintf(geometry, sizeof(geometry), "%ux%u", cfg->width, cfg->height);
	struct strv argv = {0};
	r = strv_push(&argv, gate);
	r = r < 0 ? r : strv_push(&argv, "--" GATEARG_STATE);
	r = r < 0 ? r : strv_push(&argv, cfg->state_dir);
	r = r < 0 ? r : strv_push(&argv, "--" GATEARG_UPSTREAM);
	r = r < 0 ? r : strv_push(&argv, cfg->xvnc_socket_path);
	r = r < 0 ? r : strv_push(&argv, "--" GATEARG_GEOMETRY);
	r = r < 0 ? r : strv_push(&argv, geometry);
	/* The gate's warnings go through a pipe of its own: whole lines in launcher.log. */
	_cleanup_close_ int log = components_log_fd(run);
	struct spawn_fd fds[4] = {{control, GATE_CONTROL_FD}, {view, GATE_VIEW_FD}};
	size_t n_fds = 2;
	if (log >= 0) {
		fds[n_fds++] = (struct spawn_fd){log, STDOUT_FILENO};
		fds[n_fds++] = (struct spawn_fd){log, STDERR_FILENO};
	}
	struct spawn_opts o = {
		.fds = fds, .n_fds = n_fds, .parent_death_signal = SESSION_CHILD_DEATH_SIGNAL};
	pid_t pid;
	if (r == 0) {
		/* The desktop's environment: the gate restores the screen through DISPLAY and
		 * XAUTHORITY like any client of it. */
		r = spawn_program(gate, argv.v, run->env.v, &o, &pid);
	}
	strv_free(&argv);
	if (r < 0) {
		return error_set(err, r, "cannot start %s: %s", gate, strerror(-r));
	}
	/* Without the gate nobody can look at the desktop or take it over: its end is the
	 * desktop's end, as Xvnc's is. */
	return supervisor_watch(&run->sv, "botdesk-gate", pid, true);
}

int doors_start_gate(struct run *run, struct error *err)
{
	const struct session_config *cfg = run->cfg;
	_cleanup_close_ int control = -1;
	_cleanup_close_ int view = -1;
	int r = bind_door(cfg->socket_path, &control, err);
	if (r == 0) {
		r = bind_door(cfg->view_socket_path, &view, err);
	}
	if (r == 0 && cfg->view_group) {
		r = open_to_group(cfg->view_socket_path, cfg->view_gid, err);
	}
	if (r == 0) {
		r = spawn_gate(run, control, view, err);
	}
	return r;
}

void doors_remove(const struct run *run)
{
	const struct session_config *cfg = run->cfg;
	(void)unlink(cfg->view_socket_path);
	(void)unlink(cfg->xvnc_socket_path);
	char path[CONTRACT_SOCKET_PATH_MAX + 32];
	if (path_join(path, sizeof(path), cfg->state_dir, LEASE_APPLIED_FILE) == 0) {
		(void)unlink(path);
	}
}
