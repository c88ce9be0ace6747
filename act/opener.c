#include "opener.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "pathsearch.h"
#include "spawnproc.h"
#include "util.h"
#include "windows.h"

extern char **environ;

#define DESKTOP_FILE_MAX (64 * 1024)
#define OPENER_ARGS_MAX 64

void opener_free_argv(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++) {
		free(argv[i]);
	}
	free(argv);
}

/* The value of Exec in the [Desktop Entry] group (the actions' groups have their own). */
static const char *find_exec(const char *text, size_t len, size_t *ret_len)
{
	bool in_entry = false;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (n > 0 && p[0] == '[') {
			in_entry = n == 15 && memcmp(p, "[Desktop Entry]", 15) == 0;
		} else if (in_entry && n > 4 && memcmp(p, "Exec", 4) == 0) {
			const char *q = p + 4, *e = p + n;
			while (q < e && *q == ' ') {
				q++;
			}
			if (q < e && *q == '=') {
				q++;
				while (q < e && *q == ' ') {
					q++;
				}
				*ret_len = (size_t)(e - q);
				return q;
			}
		}
		p += n + 1;
	}
	return NULL;
}

/* The desktop entry spec's string escapes (\s \n \t \r \\), undone first. */
static char *unescape(const char *v, size_t n)
{
	char *out = malloc(n + 1), *o = out;
	for (size_t i = 0; out && i < n; i++) {
		if (v[i] != '\\' || i + 1 == n) {
			*o++ = v[i];
			continue;
		}
		static const char from[] = "sntr", to[] = " \n\t\r";
		char c = v[++i];
		const char *k = c ? strchr(from, c) : NULL;
		*o++ = k ? to[k - from] : c;
	}
	if (out) {
		*o = '\0';
	}
	return out;
}

/* A field code (%f, %U, ...) stands for what the launcher would pass: nothing is passed. */
static char *drop_field_codes(const char *arg, bool *ret_only_code)
{
	size_t n = strlen(arg);
	*ret_only_code = n == 2 && arg[0] == '%' && arg[1] != '%';
	char *out = malloc(n + 1), *o = out;
	for (size_t i = 0; out && i < n; i++) {
		if (arg[i] != '%') {
			*o++ = arg[i];
		} else if (i + 1 < n && arg[++i] == '%') {
			*o++ = '%';
		}
	}
	if (out) {
		*o = '\0';
	}
	return out;
}

static int push(char **argv, size_t *n, const char *word)
{
	bool only;
	char *w = drop_field_codes(word, &only);
	if (!w) {
		return -ENOMEM;
	}
	if (only) {
		free(w);
		return 0;
	}
	if (*n == OPENER_ARGS_MAX) {
		free(w);
		return -E2BIG;
	}
	argv[(*n)++] = w;
	return 0;
}

/* Words split on spaces; "quoted" words with \" \` \$ \\ escaped inside. */
static int split(const char *s, char **argv, size_t *n)
{
	size_t len = strlen(s);
	_cleanup_free_ char *word = malloc(len + 1);
	if (!word) {
		return -ENOMEM;
	}
	size_t w = 0;
	bool in_word = false, quoted = false;
	for (size_t i = 0; i <= len; i++) {
		char c = s[i];
		if (quoted) {
			if (c == '\0') {
				return -EINVAL;
			}
			if (c == '"') {
				quoted = false;
			} else if (c == '\\' && strchr("\"`$\\", s[i + 1]) && s[i + 1]) {
				word[w++] = s[++i];
			} else {
				word[w++] = c;
			}
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\0') {
			if (in_word) {
				word[w] = '\0';
				int r = push(argv, n, word);
				if (r < 0) {
					return r;
				}
			}
			in_word = false;
			w = 0;
			continue;
		}
		in_word = true;
		if (c == '"') {
			quoted = true;
		} else {
			word[w++] = c;
		}
	}
	return 0;
}

int opener_exec_argv(const char *text, size_t len, char ***ret)
{
	size_t vlen;
	const char *v = find_exec(text, len, &vlen);
	if (!v) {
		return -ENOENT;
	}
	_cleanup_free_ char *line = unescape(v, vlen);
	char **argv = calloc(OPENER_ARGS_MAX + 1, sizeof(char *));
	if (!line || !argv) {
		free(argv);
		return -ENOMEM;
	}
	size_t n = 0;
	int r = split(line, argv, &n);
	if (r == 0 && n == 0) {
		r = -EINVAL;
	}
	if (r < 0) {
		opener_free_argv(argv);
		return r;
	}
	*ret = argv;
	return 0;
}

static const char *env_get(const struct envfile *env, const char *key)
{
	const char *v = env ? envfile_get(env, key) : NULL;
	return v ? v : getenv(key);
}

/* NAME.desktop in the desktop's XDG data directories, as its argv. */
static int desktop_argv(const char *name, const struct envfile *env, char ***ret, struct error *err)
{
	char file[256];
	size_t n = strlen(name);
	bool suffix = n > 8 && streq(name + n - 8, ".desktop");
	snprintf(file, sizeof(file), "%s%s", name, suffix ? "" : ".desktop");
	const char *home = env_get(env, "XDG_DATA_HOME"), *dirs = env_get(env, "XDG_DATA_DIRS");
	const char *h = env_get(env, "HOME");
	char path[4096], first[2048] = "";
	if (home && home[0] == '/') {
		snprintf(first, sizeof(first), "%s", home);
	} else if (h && h[0] == '/') {
		snprintf(first, sizeof(first), "%s/.local/share", h);
	}
	_cleanup_free_ char *all = NULL;
	if (asprintf(&all, "%s:%s", first, dirs && *dirs ? dirs : "/usr/local/share:/usr/share") <
	    0) {
		return -ENOMEM;
	}
	char *save = NULL;
	for (char *d = strtok_r(all, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (d[0] != '/') {
			continue;
		}
		snprintf(path, sizeof(path), "%s/applications/%s", d, file);
		_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			continue;
		}
		_cleanup_free_ char *text = malloc(DESKTOP_FILE_MAX);
		ssize_t len = text ? read_all(fd, text, DESKTOP_FILE_MAX) : -ENOMEM;
		if (len < 0) {
			return error_set(err, (int)len, "cannot read %s: %s", path,
					 strerror((int)-len));
		}
		int r = opener_exec_argv(text, (size_t)len, ret);
		if (r < 0) {
			return error_set(err, r, "%s has no Exec line botdesk can run", path);
		}
		return 0;
	}
	return error_set_kind(
		err, ERROR_BAD_INPUT, -ENOENT,
		"no application '%s' on the desktop: no %s in its XDG data directories' applications/",
		name, file);
}

/* A URL with a scheme a browser opens. */
static bool web_url(const char *t)
{
	return strncmp(t, "http://", 7) == 0 || strncmp(t, "https://", 8) == 0 ||
	       strncmp(t, "file://", 7) == 0;
}

static int build_argv(const struct act_req *rq, const char *browser, const struct envfile *env,
		      char ***ret, struct error *err)
{
	if (rq->cmd == ACT_LAUNCH) {
		return desktop_argv(rq->text, env, ret, err);
	}
	char **argv = calloc(3, sizeof(char *));
	if (!argv) {
		return -ENOMEM;
	}
	argv[0] = strdup(browser && *browser && web_url(rq->text) ? browser : "xdg-open");
	argv[1] = strdup(rq->text);
	if (!argv[0] || !argv[1]) {
		opener_free_argv(argv);
		return -ENOMEM;
	}
	*ret = argv;
	return 0;
}

/* The caller's environment, without WAYLAND_DISPLAY and the desktop's own keys, then those. */
static char **build_envp(const struct envfile *env)
{
	size_t n = 0;
	while (environ[n]) {
		n++;
	}
	char **envp = calloc(n + ENVFILE_MAX_VARS + 1, sizeof(char *));
	size_t k = 0;
	for (size_t i = 0; envp && i < n; i++) {
		size_t kl = strcspn(environ[i], "=");
		bool drop = kl == 15 && strncmp(environ[i], "WAYLAND_DISPLAY", 15) == 0;
		for (size_t j = 0; env && j < env->n && !drop; j++) {
			drop = strlen(env->keys[j]) == kl &&
			       strncmp(environ[i], env->keys[j], kl) == 0;
		}
		if (!drop) {
			envp[k++] = strdup(environ[i]);
		}
	}
	for (size_t j = 0; envp && env && j < env->n; j++) {
		if (asprintf(&envp[k], "%s=%s", env->keys[j], env->values[j]) >= 0) {
			k++;
		}
	}
	return envp;
}

static int detach(void *userdata)
{
	return setsid() < 0 ? -errno : 0;
}

/* Starts path detached: a first child spawns it and exits, so the program is nobody's child
 * (the MCP server lives on and would collect zombies). 0 once it was exec'd. */
static int start_detached(const char *path, char **argv, char **envp, int cgroup_fd)
{
	pid_t pid = fork();
	if (pid < 0) {
		return negative_errno();
	}
	if (pid == 0) {
		/* Counted against the desktop's limit, as `botdesk exec`'s program is. */
		if (cgroup_fd >= 0) {
			(void)!write(cgroup_fd, "0", 1);
		}
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		const struct spawn_fd fds[] = {{null, 0}, {null, 1}, {null, 2}};
		struct spawn_opts o = {.fds = fds, .n_fds = 3, .child_setup = detach};
		pid_t child;
		int r = null < 0 ? -errno : spawn_program(path, argv, envp, &o, &child);
		_exit(r < 0 ? (-r & 0x7f) : 0);
	}
	int status;
	if (waitpid(pid, &status, 0) < 0) {
		return negative_errno();
	}
	if (!WIFEXITED(status)) {
		return -EIO;
	}
	return -WEXITSTATUS(status);
}

/* The windows in the list before the program started, and the first one not among them: the
 * program's (or another's: the first new one counts). */
struct new_window {
	const Window *before;
	unsigned long nb;
	Window found;
};

static bool appeared(Display *dpy, void *ctx)
{
	struct new_window *nw = ctx;
	unsigned long n;
	_cleanup_free_ Window *now = win_clients(dpy, &n);
	for (unsigned long i = 0; now && i < n; i++) {
		bool old = false;
		for (unsigned long j = 0; j < nw->nb && !old; j++) {
			old = now[i] == nw->before[j];
		}
		if (!old) {
			nw->found = now[i];
			return true;
		}
	}
	return false;
}

int opener_run(Display *dpy, const struct act_req *rq, const char *browser,
	       const struct envfile *env, int cgroup_fd, Window *ret_win, struct error *err)
{
	char **argv = NULL;
	int r = build_argv(rq, browser, env, &argv, err);
	if (r < 0) {
		return error_isset(err) ? r : error_set(err, r, "out of memory");
	}
	_cleanup_free_ char *path = NULL;
	const char *search = env_get(env, "PATH");
	r = path_find(search ? search : "/usr/bin:/bin", argv[0], &path);
	if (r < 0) {
		error_set(err, r, "cannot find '%s' on the desktop's PATH", argv[0]);
		opener_free_argv(argv);
		return r;
	}
	/* The list before the start: what is new after it is the program's. */
	unsigned long nb;
	_cleanup_free_ Window *before = win_clients(dpy, &nb);
	struct new_window nw = {.before = before, .nb = nb, .found = None};
	char **envp = build_envp(env);
	r = envp ? start_detached(path, argv, envp, cgroup_fd) : -ENOMEM;
	opener_free_argv(envp);
	if (r < 0) {
		error_set(err, r, "cannot run %s: %s", path, strerror(-r));
		opener_free_argv(argv);
		return r;
	}
	/* The root's property changes (the list's) wake the check. */
	(void)win_wait_until(dpy, DefaultRootWindow(dpy), PropertyChangeMask, OPENER_WAIT_MS,
			     appeared, &nw);
	Window w = nw.found;
	if (w == None) {
		r = error_set(
			err, -ETIMEDOUT,
			"%s started, but no new window appeared within %d s (it may have opened a tab in a window already there: see 'botdesk windows')",
			argv[0], OPENER_WAIT_MS / 1000);
	}
	opener_free_argv(argv);
	if (r == 0) {
		*ret_win = w;
	}
	return r;
}
