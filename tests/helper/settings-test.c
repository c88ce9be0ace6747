/* The helper's test build's settings, in place of helper/settings.c: the package manager is a
 * stub and a few knobs come from the environment, which is why this build refuses to run setuid,
 * like dbus's ACTIVATION_LAUNCHER_TEST build. Never part of the installed helper. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

#include "helper.h"
#include "parse.h"
#include "settings-const.h"
#include "util.h"

static char lock_path[4096], pace_dir[4096], log_path[4096], lists_dir[4096], extra_env[4200];

/* Probes prove the parser child's confinement from inside: each ends the child with a status
 * the test asserts. */
static void probe_setuid(void)
{
	_exit(setuid(0) < 0 && errno == EPERM ? 42 : 43);
}

static void probe_sigsys(void)
{
	/* Not on the allowlist: the filter must kill the child with SIGSYS here. */
	syscall(SYS_getppid);
	_exit(44);
}

static int knob_ms(const char *name, uint64_t *ms)
{
	const char *v = getenv(name);
	if (v && parse_seconds_ms(v, 24 * 3600 * 1000, ms) < 0) {
		return -EINVAL;
	}
	return 0;
}

int helper_settings_init(struct helper_settings *ret)
{
	if (getauxval(AT_SECURE) || geteuid() != getuid() || getegid() != getgid()) {
		return -EPERM;
	}
	struct helper_settings s = {
		.apt_path = HELPER_STUB_PATH,
		.dnf_path = HELPER_STUB_PATH,
		.dpkg_query_path = HELPER_STUB_PATH,
		.apt_cache_path = HELPER_STUB_PATH,
		.lock_path = "/nonexistent/botdesk-helper-test.lock",
		.pace_dir = "/nonexistent/botdesk-helper-test",
		.log_path = "/nonexistent/botdesk-helper-test.log",
		.apt_lists_dir = "/nonexistent",
		.forced_manager = -1,
	};
	helper_settings_bounds(&s);
	const char *dir = getenv("BOTDESK_HELPER_TEST_DIR");
	if (dir) {
		if (dir[0] != '/' || strlen(dir) > 4000) {
			return -EINVAL;
		}
		snprintf(lock_path, sizeof(lock_path), "%s/helper.lock", dir);
		snprintf(pace_dir, sizeof(pace_dir), "%s/pace", dir);
		snprintf(log_path, sizeof(log_path), "%s/helper.log", dir);
		snprintf(lists_dir, sizeof(lists_dir), "%s/lists", dir);
		snprintf(extra_env, sizeof(extra_env), "BOTDESK_STUB_DIR=%s", dir);
		s.lock_path = lock_path;
		s.pace_dir = pace_dir;
		s.log_path = log_path;
		s.apt_lists_dir = lists_dir;
		s.extra_env = extra_env;
	}
	const char *m = getenv("BOTDESK_HELPER_TEST_MANAGER");
	if (m) {
		s.forced_manager = streq(m, "apt")    ? PROTO_MANAGER_APT
				   : streq(m, "dnf")  ? PROTO_MANAGER_DNF
				   : streq(m, "none") ? PROTO_MANAGER_NONE
						      : -2;
		if (s.forced_manager == -2) {
			return -EINVAL;
		}
	}
	const char *probe = getenv("BOTDESK_HELPER_TEST_PROBE");
	if (probe && streq(probe, "setuid")) {
		s.probe_dropped = probe_setuid;
	} else if (probe && streq(probe, "sigsys")) {
		s.probe_filtered = probe_sigsys;
	} else if (probe) {
		return -EINVAL;
	}
	if (knob_ms("BOTDESK_HELPER_TEST_TIMEOUT", &s.install_timeout_ms) < 0 ||
	    knob_ms("BOTDESK_HELPER_TEST_REQUEST_TIMEOUT", &s.request_timeout_ms) < 0 ||
	    knob_ms("BOTDESK_HELPER_TEST_REPLY_TIMEOUT", &s.reply_timeout_ms) < 0 ||
	    knob_ms("BOTDESK_HELPER_TEST_GRACE", &s.grace_ms) < 0 ||
	    knob_ms("BOTDESK_HELPER_TEST_INTERVAL", &s.install_interval_ms) < 0 ||
	    knob_ms("BOTDESK_HELPER_TEST_AUDIT_WINDOW", &s.audit_window_ms) < 0) {
		return -EINVAL;
	}
	*ret = s;
	return 0;
}
