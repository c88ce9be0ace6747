#include "xserver.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "fileio.h"
#include "pathsearch.h"
#include "policy.h"
#include "spawnproc.h"
#include "timeutil.h"
#include "util.h"

#define UNIX_PATH_OPTION "rfbunixpath"
#define HELP_TIMEOUT_MS 5000
#define HELP_MAX (256 * 1024)

bool xserver_help_has_unix_path(const char *text, size_t len)
{
	return memmem(text, len, UNIX_PATH_OPTION, strlen(UNIX_PATH_OPTION)) != NULL;
}

/* TigerVNC keeps its parameter names as strings in the binary, so finding the option there
 * answers the question without running the server (which costs tens of milliseconds). */
static bool binary_names_unix_path(const char *path)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size <= 0) {
		return false;
	}
	void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		return false;
	}
	bool found = xserver_help_has_unix_path(map, (size_t)st.st_size);
	munmap(map, (size_t)st.st_size);
	return found;
}

/* The slow path, for a wrapper script or a stripped build: ask the server itself. */
static bool help_names_unix_path(const char *path)
{
	int out[2];
	if (pipe2(out, O_CLOEXEC) < 0) {
		return false;
	}
	struct strv argv = {0}, envp = {0};
	int r = strv_push(&argv, path);
	r = r < 0 ? r : strv_push(&argv, "-help");
	r = r < 0 ? r : strv_push(&envp, "PATH=/usr/bin:/bin");
	struct spawn_fd fds[] = {{out[1], 1}, {out[1], 2}};
	/* Like every part of the desktop, it must not outlive the session. */
	struct spawn_opts o = {
		.fds = fds, .n_fds = ARRAY_SIZE(fds), .parent_death_signal = SIGKILL};
	pid_t pid;
	if (r == 0) {
		r = spawn_program(path, argv.v, envp.v, &o, &pid);
	}
	strv_free(&argv);
	strv_free(&envp);
	safe_close(out[1]);
	if (r < 0) {
		safe_close(out[0]);
		return false;
	}
	_cleanup_free_ char *buf = malloc(HELP_MAX);
	size_t len = 0;
	uint64_t deadline = now_ms() + HELP_TIMEOUT_MS;
	while (buf && len < HELP_MAX) {
		uint64_t now = now_ms();
		if (now >= deadline) {
			break;
		}
		struct pollfd p = {.fd = out[0], .events = POLLIN};
		if (poll(&p, 1, (int)(deadline - now)) <= 0) {
			break;
		}
		ssize_t n = read(out[0], buf + len, HELP_MAX - len);
		if (n <= 0) {
			break;
		}
		len += (size_t)n;
	}
	safe_close(out[0]);
	kill(pid, SIGKILL);
	(void)waitpid(pid, NULL, 0);
	return buf && xserver_help_has_unix_path(buf, len);
}

int xserver_find(const char *search_path, char **ret, struct error *err)
{
	const struct policy_program *xvnc = &policy_programs[0];
	char *path = NULL;
	int r = path_find(search_path, "Xtigervnc", &path);
	if (r == -ENOENT) {
		r = path_find(search_path, "Xvnc", &path);
	}
	if (r == -ENOMEM) {
		return r;
	}
	if (r < 0) {
		return error_set(
			err, -ENOENT,
			"no X server: neither Xtigervnc nor Xvnc is on PATH. Install %s (apt), %s (dnf) or %s (pacman)",
			xvnc->package[POLICY_APT], xvnc->package[POLICY_DNF],
			xvnc->package[POLICY_PACMAN]);
	}
	if (!binary_names_unix_path(path) && !help_names_unix_path(path)) {
		error_set(
			err, -ENOEXEC,
			"%s is not TigerVNC's Xvnc (its -help has no -rfbunixpath, so it cannot serve a unix socket only). Install %s (apt), %s (dnf) or %s (pacman) and put it first on PATH",
			path, xvnc->package[POLICY_APT], xvnc->package[POLICY_DNF],
			xvnc->package[POLICY_PACMAN]);
		free(path);
		return -ENOEXEC;
	}
	*ret = path;
	return 0;
}

int xserver_argv(const struct xserver_args *a, struct strv *ret)
{
	char display[16], displayfd[16], max_cut[16], geometry[32];
	snprintf(display, sizeof(display), ":%u", a->display);
	snprintf(displayfd, sizeof(displayfd), "%d", a->displayfd);
	snprintf(max_cut, sizeof(max_cut), "%d", XSERVER_MAX_CUT_TEXT);
	snprintf(geometry, sizeof(geometry), "%ux%u", a->width, a->height);
	_cleanup_free_ char *desktop = NULL;
	if (asprintf(&desktop, "botdesk:%s", a->profile) < 0) {
		return -ENOMEM;
	}
	/* Each option and its value are separate argv elements and no shell ever parses them, so
	 * a profile name cannot smuggle in an option. */
	const char *args[] = {
		a->server, display, "-displayfd", displayfd, "-auth", a->xauth_path,
		/* No TCP anywhere: X on the handed-over path socket only ("local" is the
		 * abstract name, which any uid could connect to), and RFB on no port (1.12
		 * listens on 5900+n unless told -1, even with -rfbunixpath). The socket path
		 * stays on the command line, which is how the runner recognises an orphan of
		 * ours. */
		"-nolisten", "tcp", "-nolisten", "local", "-rfbport", "-1", "-rfbunixpath",
		a->socket_path,
		/* The socket's 0600 mode is the gate (same uid only), so no VNC password. */
		"-rfbunixmode", "0600", "-SecurityTypes", "None",
		/* Viewers may paste into the desktop but never read its clipboard, and no X
		 * client may turn that back on (the default AllowOverride lets vncconfig change
		 * SendCutText). */
		"-SendCutText=0", "-AcceptCutText=1", "-MaxCutText", max_cut, "-AllowOverride",
		"desktop",
		/* One viewer never kicks another out; a viewer may resize the desktop. */
		"-AlwaysShared", "-AcceptSetDesktopSize=1",
		/* Every viewer comes through the gate, so Xvnc's failed-handshake blacklist would
		 * see one address: five aborted handshakes on view.sock would lock out every door
		 * for 10 s, the owner's too. The gate bounds handshakes per door instead
		 * (gate/relay.h). */
		"-UseBlacklist=0", "-FrameRate", "30", "-geometry", geometry, "-depth", "24",
		"-dpi", "96", "-desktop", desktop,
		/* Errors and status (level 10): start-up, each viewer's connect and close (one
		 * line each, with the socket's path), not the 600 bytes of protocol detail level 30
		 * adds per viewer. */
		"-Log", "*:stderr:10"};
	struct strv v = {0};
	int r = 0;
	for (size_t i = 0; i < ARRAY_SIZE(args) && r == 0; i++) {
		r = strv_push(&v, args[i]);
	}
	if (!a->glx && r == 0) {
		r = strv_push(&v, "-extension");
		r = r < 0 ? r : strv_push(&v, "GLX");
	}
	/* No key may end the server (xkbsafe.h). */
	if (a->xkb_dir && r == 0) {
		r = strv_push(&v, "-xkbdir");
		r = r < 0 ? r : strv_push(&v, a->xkb_dir);
	}
	if (r < 0) {
		strv_free(&v);
		return r;
	}
	*ret = v;
	return 0;
}
