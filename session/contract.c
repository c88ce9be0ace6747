#include "contract.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "envallow.h"
#include "parse.h"
#include "pathjoin.h"
#include "recording.h"
#include "util.h"

/* A value that lands in the env file, an argv or a config file must be one line of text. */
static bool has_control_chars(const char *s)
{
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			return true;
		}
	}
	return false;
}

static int need(const char *(*get)(const char *), const char *name, const char **ret,
		struct error *err)
{
	const char *v = get(name);
	if (!v || v[0] == '\0') {
		return error_set(
			err, -EINVAL,
			"%s is not set: botdesk-session is started by botdesk, which sets it; run 'botdesk start' instead",
			name);
	}
	if (has_control_chars(v)) {
		return error_set(err, -EINVAL, "%s holds control characters", name);
	}
	*ret = v;
	return 0;
}

static int need_abs_path(const char *(*get)(const char *), const char *name, const char **ret,
			 struct error *err)
{
	int r = need(get, name, ret, err);
	if (r < 0) {
		return r;
	}
	if ((*ret)[0] != '/') {
		return error_set(err, -EINVAL, "%s must be an absolute path, not '%s'", name, *ret);
	}
	return 0;
}

/* The state directory, Xvnc's private socket beside rfb.sock, the view door and its group, the
 * idle stop. Each is optional but the socket's directory: the runner always sets them. */
/* The flight recorder (common/recording.h): on with "always", with its limit. */
static int load_record(const char *(*get)(const char *), struct session_config *c,
		       struct error *err)
{
	const char *rec = get(LAUNCHER_ENV_RECORD);
	c->record_max_mb = 0;
	if (!rec || !rec[0] || streq(rec, "off")) {
		return 0;
	}
	if (!streq(rec, "always")) {
		return error_set(err, -EINVAL, "BOTDESK_RECORD='%s' is not always or off", rec);
	}
	const char *mb = get(LAUNCHER_ENV_RECORD_MAX_MB);
	c->record_max_mb = RECORD_MAX_MB_DEFAULT;
	if (mb && mb[0] &&
	    (parse_u64(mb, RECORD_MAX_MB_LIMIT, &c->record_max_mb) < 0 || c->record_max_mb == 0)) {
		return error_set(err, -EINVAL, "BOTDESK_RECORD_MAX_MB='%s' is not megabytes", mb);
	}
	return 0;
}

static int load_doors(const char *(*get)(const char *), struct session_config *c, struct error *err)
{
	const char *slash = strrchr(c->socket_path, '/');
	int n = (int)(slash - c->socket_path);
	/* The buffers are a unix socket path long: what does not fit could not be bound. */
	int r = path_format(c->state_dir, sizeof(c->state_dir), "%.*s", n > 0 ? n : 1,
			    c->socket_path);
	if (r == 0) {
		r = path_join(c->xvnc_socket_path, sizeof(c->xvnc_socket_path), c->state_dir,
			      LAUNCHER_XVNC_SOCKET);
	}
	const char *view = get(LAUNCHER_ENV_VIEW_SOCKET);
	if (r == 0) {
		r = view && view[0] ? path_format(c->view_socket_path, sizeof(c->view_socket_path),
						  "%s", view)
				    : path_join(c->view_socket_path, sizeof(c->view_socket_path),
						c->state_dir, LAUNCHER_VIEW_SOCKET);
	}
	if (r < 0) {
		return error_set(
			err, -ENAMETOOLONG,
			"the view or Xvnc socket's path is longer than a unix socket path may be (%d bytes): use a shorter BOTDESK_STATE_DIR or BOTDESK_VIEW_DIR",
			CONTRACT_SOCKET_PATH_MAX - 1);
	}
	if (c->view_socket_path[0] != '/' || has_control_chars(c->view_socket_path)) {
		return error_set(err, -EINVAL, "BOTDESK_VIEW_SOCKET must be an absolute path");
	}
	const char *gid = get(LAUNCHER_ENV_VIEW_GID);
	unsigned g;
	if (gid && gid[0]) {
		/* Never group 0: root's group watching is no use, and a typo must not get it. */
		if (parse_uint_range(gid, 1, 0x7fffffff, &g) < 0) {
			return error_set(err, -EINVAL, "BOTDESK_VIEW_GID='%s' is not a group id",
					 gid);
		}
		c->view_gid = (gid_t)g;
		c->view_group = true;
	}
	const char *idle = get(LAUNCHER_ENV_IDLE_STOP_MS);
	if (idle && idle[0] && parse_u64(idle, LAUNCHER_IDLE_STOP_MAX_MS, &c->idle_stop_ms) < 0) {
		return error_set(err, -EINVAL,
				 "BOTDESK_IDLE_STOP_MS='%s' is not milliseconds up to a week",
				 idle);
	}
	return load_record(get, c, err);
}

/* The handshake's fd (common/launcher.h): never 0-2, which are the log and /dev/null, and
 * optional, so that the session runs by hand and under an older runner. Whether it is a pipe is
 * the session's to check when it takes it (session/notify.c): this is text only. */
static int load_notify(const char *(*get)(const char *), struct session_config *c,
		       struct error *err)
{
	const char *v = get(LAUNCHER_ENV_NOTIFY_FD);
	unsigned fd;
	c->notify_fd = -1;
	if (!v || !v[0]) {
		return 0;
	}
	if (parse_uint_range(v, 3, INT_MAX, &fd) < 0) {
		return error_set(err, -EINVAL,
				 "BOTDESK_NOTIFY_FD='%s' is not a file descriptor number from 3 up",
				 v);
	}
	c->notify_fd = (int)fd;
	return 0;
}

static int load_full(const char *(*get)(const char *), struct session_config *c, struct error *err)
{
	/* Set on every path that reaches its use; gcc -O3 (a release build) cannot tell. */
	const char *num = NULL;
	int r = need(get, LAUNCHER_ENV_DISPLAY_NUM, &num, err);
	if (r < 0) {
		return r;
	}
	/* X display numbers are 16-bit on the wire (TCP port 6000+n). */
	r = parse_uint_range(num, 0, 65535, &c->display);
	if (r < 0) {
		return error_set(err, r, "BOTDESK_DISPLAY_NUM='%s' is not a display number 0-65535",
				 num);
	}
	r = need_abs_path(get, LAUNCHER_ENV_SOCKET, &c->socket_path, err);
	if (r < 0) {
		return r;
	}
	if (strlen(c->socket_path) >= CONTRACT_SOCKET_PATH_MAX) {
		return error_set(
			err, -ENAMETOOLONG,
			"BOTDESK_SOCKET is longer than a unix socket path may be (%d bytes): use a shorter BOTDESK_STATE_DIR",
			CONTRACT_SOCKET_PATH_MAX - 1);
	}
	r = need_abs_path(get, LAUNCHER_ENV_XAUTH, &c->xauth_path, err);
	if (r < 0) {
		return r;
	}
	r = need_abs_path(get, LAUNCHER_ENV_ENV_FILE, &c->env_path, err);
	if (r < 0) {
		return r;
	}
	r = load_doors(get, c, err);
	if (r == 0) {
		r = load_notify(get, c, err);
	}
	if (r < 0) {
		return r;
	}
	const char *wait = get(LAUNCHER_ENV_WAIT_MS);
	if (wait && wait[0] &&
	    (parse_u64(wait, LAUNCHER_WAIT_ACCEPT_MAX_MS, &c->wait_ms) < 0 || c->wait_ms == 0)) {
		return error_set(
			err, -EINVAL,
			"BOTDESK_WAIT_MS='%s' is not a number of milliseconds from 1 to %llu", wait,
			(unsigned long long)LAUNCHER_WAIT_ACCEPT_MAX_MS);
	}
	const char *x_dir = get(LAUNCHER_ENV_X_DIR);
	c->x_lock_dir = x_dir && x_dir[0] ? x_dir : LAUNCHER_X_DIR_DEFAULT;
	if (c->x_lock_dir[0] != '/' || has_control_chars(c->x_lock_dir)) {
		return error_set(err, -EINVAL, "BOTDESK_X_LOCK_DIR must be an absolute path");
	}
	/* The path socket, not the abstract name, follows the X directory (common/launcher.h). */
	int len = snprintf(c->x_socket_dir, sizeof(c->x_socket_dir), "%s/%s", c->x_lock_dir,
			   LAUNCHER_X_SOCKET_SUBDIR);
	if (len < 0 || len >= CONTRACT_SOCKET_PATH_MAX - 8) {
		return error_set(err, -ENAMETOOLONG,
				 "BOTDESK_X_LOCK_DIR is too long for an X socket path in it");
	}
	return 0;
}

int contract_load(const char *(*getenv_fn)(const char *name), bool seed_only,
		  struct session_config *ret, struct error *err)
{
	struct session_config c = {.notify_fd = -1};
	int r = need_abs_path(getenv_fn, LAUNCHER_ENV_CONFIG_HOME, &c.config_home, err);
	if (r < 0) {
		return r;
	}
	const char *profile = getenv_fn(LAUNCHER_ENV_PROFILE);
	c.profile = profile && profile[0] ? profile : "default";
	if (has_control_chars(c.profile)) {
		return error_set(err, -EINVAL, "BOTDESK_PROFILE holds control characters");
	}
	const char *geometry = getenv_fn(LAUNCHER_ENV_GEOMETRY);
	if (!geometry || geometry[0] == '\0') {
		geometry = LAUNCHER_DEFAULT_GEOMETRY;
	}
	r = parse_geometry(geometry, LAUNCHER_GEOMETRY_MIN, LAUNCHER_GEOMETRY_MAX, &c.width,
			   &c.height);
	if (r < 0) {
		return error_set(
			err, -EINVAL,
			"BOTDESK_GEOMETRY='%s' is not WIDTHxHEIGHT with each side from %d to %d",
			geometry, LAUNCHER_GEOMETRY_MIN, LAUNCHER_GEOMETRY_MAX);
	}
	const char *browser = getenv_fn(LAUNCHER_ENV_BROWSER);
	c.browser = browser && browser[0] ? browser : NULL;
	if (c.browser && has_control_chars(c.browser)) {
		return error_set(err, -EINVAL, "BOTDESK_BROWSER holds control characters");
	}
	const char *pass = getenv_fn(LAUNCHER_ENV_PASS_ENV);
	c.pass_env = pass && pass[0] ? pass : NULL;
	char bad[128];
	if (c.pass_env && envallow_check_list(c.pass_env, bad, sizeof(bad)) < 0) {
		return error_set(err, -EINVAL, "BOTDESK_PASS_ENV holds '%s', which is no name",
				 bad);
	}
	/* The lean desktop is the default; full keeps the component set of before (xfsettingsd,
	 * xfdesktop, the tray, GLX), to compare them and for programs that need OpenGL. */
	const char *desktop = getenv_fn(LAUNCHER_ENV_DESKTOP_PROFILE);
	if (desktop && desktop[0] && !streq(desktop, "lean") && !streq(desktop, "full")) {
		return error_set(err, -EINVAL, "BOTDESK_DESKTOP_PROFILE is neither lean nor full");
	}
	c.full = desktop && streq(desktop, "full");
	const char *path = getenv_fn("PATH");
	c.search_path = path && path[0] ? path : "/usr/local/bin:/usr/bin:/bin";
	if (!seed_only) {
		r = load_full(getenv_fn, &c, err);
		if (r < 0) {
			return r;
		}
	}
	*ret = c;
	return 0;
}

int contract_cache_home(const struct session_config *c, char **ret)
{
	return asprintf(ret, "%s/.cache", c->config_home) < 0 ? -ENOMEM : 0;
}

int contract_data_home(const struct session_config *c, char **ret)
{
	return asprintf(ret, "%s/.local-share", c->config_home) < 0 ? -ENOMEM : 0;
}
