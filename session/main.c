/* botdesk-session: the launcher botdesk runs for a profile. It claims the display number the
 * runner picked, runs Xvnc on the profile's unix socket only, brings up a minimal Xfce on a
 * private session bus, publishes the env file once the window manager owns the screen, and
 * supervises everything until TERM. See docs/session.md. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "contract.h"
#include "dock.h"
#include "log.h"
#include "notify.h"
#include "seed.h"
#include "session.h"
#include "util.h"

extern char **environ;

static const char *env_get(const char *name)
{
	return getenv(name);
}

static void usage(FILE *f)
{
	fputs("Usage: botdesk-session [--seed-only]\n"
	      "Started by botdesk with the BOTDESK_* variables of the launcher contract set.\n"
	      "  --seed-only   seed the profile's Xfce configuration into BOTDESK_CONFIG_HOME and exit\n",
	      f);
}

/* Runs inside dbus-run-session: hands the bus address to the session on fd 3, then keeps the
 * bus alive until the session closes fd 4 (or dies, which closes it too). */
static int bus_relay(void)
{
	const char *addr = getenv("DBUS_SESSION_BUS_ADDRESS");
	if (!addr || strchr(addr, '\n')) {
		log_error("no usable DBUS_SESSION_BUS_ADDRESS inside dbus-run-session");
		return 1;
	}
	if (dprintf(3, "%s\n", addr) < 0) {
		return 1;
	}
	safe_close(3);
	char b;
	for (;;) {
		ssize_t n = read(4, &b, 1);
		if (n == 0 || (n < 0 && errno != EINTR)) {
			return 0;
		}
	}
}

int main(int argc, char **argv)
{
	log_set_program("botdesk-session");
	log_set_debug(getenv("BOTDESK_DEBUG") != NULL);
	bool seed_only = false;
	for (int i = 1; i < argc; i++) {
		if (streq(argv[i], "--seed-only")) {
			seed_only = true;
		} else if (streq(argv[i], "--bus-relay")) {
			return bus_relay();
		} else if (streq(argv[i], "--help") || streq(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (streq(argv[i], "--version")) {
			printf("botdesk-session %s\n", BOTDESK_VERSION);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}

	/* The desktop's files (the bus's socket, whatever its programs write) are never writable
	 * by others, whatever umask the caller had: its own stricter one stays. */
	mode_t mask = umask(0);
	umask(mask | 022);
	struct error err = {0};
	struct session_config cfg;
	int r = contract_load(env_get, seed_only, &cfg, &err);
	if (r < 0) {
		log_error("%s", err.msg);
		return 2;
	}
	r = notify_take(cfg.notify_fd);
	if (r < 0) {
		log_error("BOTDESK_NOTIFY_FD=%d is not the write end of a pipe: %s", cfg.notify_fd,
			  strerror(-r));
		return 2;
	}
	struct dock dock = {0};
	r = dock_resolve(cfg.search_path, cfg.browser, &dock);
	if (r < 0) {
		log_error("cannot look for the dock's programs: %s", strerror(-r));
		return 1;
	}
	if (seed_only) {
		struct seed_opts o = {.profile = cfg.profile, .dock = &dock, .tray = cfg.full};
		r = seed_config(cfg.config_home, &o, &err);
		dock_free(&dock);
		if (r < 0) {
			log_error("%s", err.msg);
			return 1;
		}
		return 0;
	}

	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		log_error("cannot find my own program file through /proc/self/exe: %s",
			  strerror(errno));
		dock_free(&dock);
		return 1;
	}
	self[n] = '\0';
	int status = session_run(&cfg, &dock, self, environ, &err);
	dock_free(&dock);
	if (status != 0 && error_isset(&err)) {
		log_error("%s", err.msg);
	}
	return status;
}
