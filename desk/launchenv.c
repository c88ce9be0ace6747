/* The launcher's environment (launch.h): the runner's, minus what belongs to another display,
 * bus or session and any credentials, plus the BOTDESK_* contract (common/launcher.h). */
#include "launch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "envallow.h"
#include "launcher.h"
#include "recording.h"
#include "util.h"
#include "viewdoor.h"

static const char *const contract_vars[] = {
	LAUNCHER_ENV_PROFILE,      LAUNCHER_ENV_DISPLAY_NUM, LAUNCHER_ENV_SOCKET,
	LAUNCHER_ENV_XAUTH,        LAUNCHER_ENV_ENV_FILE,    LAUNCHER_ENV_CONFIG_HOME,
	LAUNCHER_ENV_GEOMETRY,     LAUNCHER_ENV_X_DIR,       LAUNCHER_ENV_BROWSER,
	LAUNCHER_ENV_IDLE_STOP_MS, LAUNCHER_ENV_VIEW_SOCKET, LAUNCHER_ENV_VIEW_GID,
	LAUNCHER_ENV_PASS_ENV,     LAUNCHER_ENV_WAIT_MS,     LAUNCHER_ENV_MARKER,
	LAUNCHER_ENV_NOTIFY_FD,
};
/* The flight recorder's (issue 28): ours too, never the caller's. */
static const char *const record_vars[] = {LAUNCHER_ENV_RECORD, LAUNCHER_ENV_RECORD_MAX_MB};

static bool name_is(const char *entry, size_t name_len, const char *name)
{
	return strlen(name) == name_len && strncmp(entry, name, name_len) == 0;
}

/* The launcher gets the allowlist (common/envallow.h), BOTDESK_DEBUG and the desktop's component
 * set (BOTDESK_DESKTOP_PROFILE); the contract variables are always ours, whatever the caller
 * had. */
static bool var_passed(const char *entry, const char *pass)
{
	const char *eq = strchr(entry, '=');
	if (!eq) {
		return false;
	}
	size_t len = (size_t)(eq - entry);
	/* What the desktop sets itself never passes, even when the user names it. */
	if (envallow_is_desktop_own(entry) ||
	    envallow_name_in(entry, contract_vars, ARRAY_SIZE(contract_vars)) ||
	    envallow_name_in(entry, record_vars, ARRAY_SIZE(record_vars))) {
		return false;
	}
	return name_is(entry, len, LAUNCHER_ENV_DEBUG) ||
	       name_is(entry, len, LAUNCHER_ENV_DESKTOP_PROFILE) || envallow_keep(entry, pass);
}

int launch_marker(const struct settings *s, const char *profile, char *buf, size_t size)
{
	int n = snprintf(buf, size, LAUNCHER_ENV_MARKER "=%u:%s:%s", (unsigned)geteuid(), profile,
			 s->state_root);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

void launch_environment_free(char **env)
{
	if (!env) {
		return;
	}
	for (char **e = env; *e; e++) {
		free(*e);
	}
	free(env);
}

char **launch_environment(const char *const *envp, const struct settings *s,
			  const struct profile *p, unsigned display, uint64_t wait_ms)
{
	size_t n = 0;
	while (envp[n]) {
		n++;
	}
	char **env =
		calloc(n + ARRAY_SIZE(contract_vars) + ARRAY_SIZE(record_vars) + 1, sizeof(char *));
	if (!env) {
		return NULL;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (var_passed(envp[i], s->pass_env) && !(env[k++] = strdup(envp[i]))) {
			goto oom;
		}
	}
	const char *d = p->dir;
#define ADD(...)                                          \
	do {                                              \
		if (asprintf(&env[k], __VA_ARGS__) < 0) { \
			env[k] = NULL;                    \
			goto oom;                         \
		}                                         \
		k++;                                      \
	} while (0)
	ADD(LAUNCHER_ENV_PROFILE "=%s", p->name);
	ADD(LAUNCHER_ENV_DISPLAY_NUM "=%u", display);
	ADD(LAUNCHER_ENV_SOCKET "=%s/%s", d, STATE_SOCKET);
	ADD(LAUNCHER_ENV_XAUTH "=%s/%s", d, STATE_XAUTHORITY);
	ADD(LAUNCHER_ENV_ENV_FILE "=%s/%s", d, STATE_ENV);
	ADD(LAUNCHER_ENV_CONFIG_HOME "=%s/%s", d, STATE_XDG);
	ADD(LAUNCHER_ENV_GEOMETRY "=%s", s->geometry);
	ADD(LAUNCHER_ENV_X_DIR "=%s", s->x_lock_dir);
	if (s->browser) {
		ADD(LAUNCHER_ENV_BROWSER "=%s", s->browser);
	}
	if (s->pass_env) {
		ADD(LAUNCHER_ENV_PASS_ENV "=%s", s->pass_env);
	}
	ADD(LAUNCHER_ENV_IDLE_STOP_MS "=%llu", (unsigned long long)s->idle_stop_ms);
	if (s->view_dir) {
		char view[PATH_MAX];
		if (view_door_path(s->view_dir, d, p->name, view, sizeof(view)) < 0) {
			goto oom;
		}
		ADD(LAUNCHER_ENV_VIEW_SOCKET "=%s", view);
	}
	if (s->view_group) {
		ADD(LAUNCHER_ENV_VIEW_GID "=%u", s->view_gid);
	}
	/* The start's deadline governs the whole bring-up: the session's own stage limits derive
	 * from what is left of it. */
	if (wait_ms > 0) {
		ADD(LAUNCHER_ENV_WAIT_MS "=%llu", (unsigned long long)wait_ms);
	}
	if (s->record_always) {
		ADD(LAUNCHER_ENV_RECORD "=always");
		ADD(LAUNCHER_ENV_RECORD_MAX_MB "=%llu", (unsigned long long)s->record_max_mb);
	}
	/* Where exec_launcher() puts the handshake's pipe. */
	ADD(LAUNCHER_ENV_NOTIFY_FD "=%d", LAUNCHER_NOTIFY_FD);
	/* The marker that finds this desktop again when its state directory is lost
	 * (desk/reap.c): the session keeps it in /proc/<pid>/environ for its whole life. */
	char marker[4200];
	if (launch_marker(s, p->name, marker, sizeof(marker)) < 0) {
		goto oom;
	}
	ADD("%s", marker);
#undef ADD
	return env;
oom:
	launch_environment_free(env);
	return NULL;
}
