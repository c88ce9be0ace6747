/* botdesk-web: one profile's desktop in a browser (docs/web.md). The runner's `botdesk web`
 * checks the profile and execs this with the command line of common/webargs.h. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "config.h"
#include "fileio.h"
#include "log.h"
#include "pathjoin.h"
#include "request.h"
#include "server.h"
#include "util.h"
#include "webargs.h"
#include "webctl.h"

extern char **environ;

static volatile sig_atomic_t stopping;
/* The server's loop watches it (web_config.wake_fd): the handler's write wakes it. */
static int wake_fd = -1;

static void on_signal(int sig)
{
	stopping = 1;
	uint64_t one = 1;
	(void)!write(wake_fd, &one, sizeof(one));
}

static int usage(void)
{
	fputs("Usage: botdesk web [--listen ADDR:PORT [--tls-cert FILE --tls-key FILE]] [--open]\n"
	      "       botdesk web --ticket\n"
	      "Run through 'botdesk web'; see botdesk(1).\n",
	      stderr);
	return 2;
}

struct ready_args {
	bool open;
};

/* The page --open hands the browser: a 0600 file in the profile's 0700 directory that sends it
 * on to the ticket URL. The ticket never goes into an argv (any local user reads
 * /proc/PID/cmdline); the file goes when the ticket is used (web/routes.c) or the server
 * stops. */
static int write_open_page(const struct web_config *cfg, const char *url, char *path, size_t size)
{
	char page[1024];
	int n = snprintf(page, sizeof(page),
			 "<!DOCTYPE html>\n<meta charset=\"utf-8\">\n"
			 "<meta name=\"referrer\" content=\"no-referrer\">\n"
			 "<meta http-equiv=\"refresh\" content=\"0;url=%s\">\n"
			 "<title>botdesk</title>\n<a href=\"%s\">Open the desktop</a>\n",
			 url, url);
	if (n < 0 || (size_t)n >= sizeof(page)) {
		return -ENOSPC;
	}
	int r = path_format(path, size, "file://%s/%s", cfg->state, WEB_OPEN_PAGE);
	if (r < 0) {
		return r;
	}
	return write_file_atomic_at(cfg->dirfd, WEB_OPEN_PAGE, page, (size_t)n, 0600);
}

static void open_browser(const struct web_config *cfg, const char *url)
{
	char page[1024];
	int r = write_open_page(cfg, url, page, sizeof(page));
	if (r < 0) {
		log_warn("cannot write %s/%s for the browser: %s; open the address above yourself",
			 cfg->state, WEB_OPEN_PAGE, strerror(-r));
		return;
	}
	static char prog[] = "xdg-open";
	char *argv[] = {prog, page, NULL};
	pid_t pid;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "xdg-open", &fa, NULL, argv, environ) != 0) {
		log_warn("cannot run xdg-open to open the page; open the address above yourself");
	}
	posix_spawn_file_actions_destroy(&fa);
}

static int ready(const struct web_config *cfg, const char *url, void *userdata)
{
	const struct ready_args *a = userdata;
	if (cfg->unix_path) {
		char host[256] = "HOST";
		gethostname(host, sizeof(host) - 1);
		const struct passwd *pw = getpwuid(geteuid());
		printf("botdesk web: serving the desktop of profile '%s' on %s (mode 0600: yours only; nothing listens on TCP)\n"
		       "From your laptop:  ssh -N -L 6080:%s %s@%s\n"
		       "then open          http://localhost:6080/\n"
		       "Ctrl-C stops it.\n",
		       cfg->profile, cfg->unix_path, cfg->unix_path, pw ? pw->pw_name : "USER",
		       host);
	} else {
		printf("botdesk web: serving the desktop of profile '%s' on %s://%s%s%s:%u/\n"
		       "Open %s\n"
		       "(the ticket works once, within 60 s; 'botdesk web --ticket' prints a fresh one). Ctrl-C stops it.\n",
		       cfg->profile, cfg->tls_cert ? "https" : "http",
		       strchr(cfg->host, ':') ? "[" : "", cfg->host,
		       strchr(cfg->host, ':') ? "]" : "", cfg->port, url);
		if (a->open) {
			open_browser(cfg, url);
		}
	}
	fflush(stdout);
	return 0;
}

/* What the command line asks beside the server's configuration. */
struct web_args {
	const char *listen;
	bool ticket, loopback;
};

static int args_check(struct web_config *cfg, struct web_args *a, const struct ready_args *ra);

/* The command line, checked for what the options mean together: -1 to go on, or the exit
 * status. */
static int parse_args(int argc, char **argv, struct web_config *cfg, struct web_args *a,
		      struct ready_args *ra)
{
	static const struct option longopts[] = {
		WEBARGS_RUNNER,
		WEBARGS_USER,
		{NULL, 0, NULL, 0},
	};
	/* Where each option (by its letter in common/webargs.h) puts its value, or the flag it
	 * sets. */
	const struct {
		int ch;
		const char **value;
		bool *flag;
	} into[] = {
		{'p', &cfg->profile, NULL},     {'s', &cfg->state, NULL},
		{'d', &cfg->data, NULL},        {'n', &cfg->novnc, NULL},
		{'v', &cfg->view_socket, NULL}, {'a', &cfg->act_pointer, NULL},
		{'D', &cfg->display, NULL},     {'X', &cfg->xauthority, NULL},
		{'l', &a->listen, NULL},        {'c', &cfg->tls_cert, NULL},
		{'k', &cfg->tls_key, NULL},     {'o', NULL, &ra->open},
		{'t', NULL, &a->ticket},
	};
	int ch;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		size_t i = 0;
		while (i < ARRAY_SIZE(into) && into[i].ch != ch) {
			i++;
		}
		if (i == ARRAY_SIZE(into)) {
			log_error("unknown option '%s'", argv[optind - 1]);
			return usage();
		}
		if (into[i].value) {
			*into[i].value = optarg;
		} else {
			*into[i].flag = true;
		}
	}
	if (!cfg->profile || !cfg->state || optind != argc) {
		return usage();
	}
	return args_check(cfg, a, ra);
}

/* What the options mean together: -1 to go on, or the exit status. */
static int args_check(struct web_config *cfg, struct web_args *a, const struct ready_args *ra)
{
	if (!cfg->act_pointer != !cfg->display || !cfg->act_pointer != !cfg->xauthority) {
		log_error("--%s, --%s and --%s go together (the runner gives all three)",
			  WEBARG_ACT_POINTER, WEBARG_DISPLAY, WEBARG_XAUTHORITY);
		return usage();
	}
	if (!cfg->tls_cert != !cfg->tls_key) {
		log_error("--tls-cert and --tls-key go together: give both, or neither");
		return 2;
	}
	if (a->listen && web_parse_listen(a->listen, cfg->host, sizeof(cfg->host), &cfg->port,
					  &a->loopback) < 0) {
		log_error(
			"--listen takes a numeric ADDRESS:PORT (e.g. 127.0.0.1:6080 or [::1]:6080), not '%s'",
			a->listen);
		return 2;
	}
	if (!a->listen && (cfg->tls_cert || ra->open)) {
		log_error(
			"%s is for --listen ADDRESS:PORT; the default unix socket is reached through ssh -L",
			cfg->tls_cert ? "--tls-cert" : "--open");
		return 2;
	}
	if (a->listen && !a->loopback && !cfg->tls_cert) {
		log_error(
			"--listen %s would serve the desktop in plain HTTP beyond this host; give --tls-cert FILE --tls-key FILE, or listen on 127.0.0.1 and forward to it (ssh -L, kubectl port-forward)",
			a->listen);
		return 2;
	}
	return -1;
}

/* botdesk web --ticket: a fresh URL from the server that runs. The exit status. */
static int print_ticket(const struct web_config *cfg)
{
	char url[512];
	int r = webctl_ticket(cfg->dirfd, url, sizeof(url));
	if (r == -ENOENT || r == -ECONNREFUSED) {
		log_error(
			"no botdesk web --listen is running for profile '%s'; start one (a server on the default unix socket needs no ticket)",
			cfg->profile);
		return 3;
	}
	if (r < 0) {
		log_error("the running botdesk web of profile '%s' gave no ticket: %s",
			  cfg->profile, strerror(-r));
		return 1;
	}
	printf("%s\n", url);
	return 0;
}

/* The page is nothing without noVNC: said before anything listens. */
static bool novnc_present(const char *novnc)
{
	char rfbjs[512];
	/* A path too long to build is named by its directory: a cut one would be checked instead.
	 */
	int e = 0;
	if (path_join(rfbjs, sizeof(rfbjs), novnc, "core/rfb.js") < 0) {
		e = ENAMETOOLONG;
	} else if (access(rfbjs, R_OK) < 0) {
		e = errno;
	}
	if (e != 0) {
		log_error(
			"noVNC is missing (%s: %s): install it with 'botdesk install --web' (Debian's novnc package), then run botdesk web again",
			e == ENAMETOOLONG ? novnc : rfbjs, strerror(e));
	}
	return e == 0;
}

/* Serves until a signal, under the profile's web.lock. The exit status. */
static int serve(struct web_config *cfg, const char *listen)
{
	_cleanup_close_ int lock = webctl_lock(cfg->dirfd);
	if (lock < 0) {
		if (lock == -EBUSY) {
			log_error(
				"botdesk web already serves profile '%s' (%s/%s is locked); stop it first, or use 'botdesk web --ticket' for a fresh URL",
				cfg->profile, cfg->state, WEB_LOCK);
		} else {
			log_error("cannot take %s/%s: %s", cfg->state, WEB_LOCK, strerror(-lock));
		}
		return 1;
	}
	char unix_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	if (!listen) {
		if (path_join(unix_path, sizeof(unix_path), cfg->state, WEB_SOCK) < 0) {
			log_error(
				"the socket path %s/%s is longer than a unix socket allows (%zu bytes); set BOTDESK_STATE_DIR to a shorter directory",
				cfg->state, WEB_SOCK, sizeof(unix_path) - 1);
			return 1;
		}
		/* Under web.lock: a socket left there is a dead server's. */
		(void)unlinkat(cfg->dirfd, WEB_SOCK, 0);
		cfg->unix_path = unix_path;
	}
	wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (wake_fd < 0) {
		log_error("cannot make an eventfd: %s", strerror(errno));
		return 1;
	}
	cfg->wake_fd = wake_fd;
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* A page --open left by a server that died has a dead ticket in it: gone either way. */
	(void)unlinkat(cfg->dirfd, WEB_OPEN_PAGE, 0);
	int r = web_serve(cfg, &stopping);
	(void)unlinkat(cfg->dirfd, listen ? WEB_CTL_SOCK : WEB_SOCK, 0);
	(void)unlinkat(cfg->dirfd, WEB_OPEN_PAGE, 0);
	cfg->unix_path = NULL;
	if (r == -EADDRINUSE) {
		log_error("cannot listen on %s: the address is in use or not one of this host's",
			  listen ? listen : unix_path);
		return 1;
	}
	if (r < 0) {
		log_error("the web server failed: %s", strerror(-r));
		return 1;
	}
	if (stopping) {
		printf("botdesk web: stopped\n");
	}
	return 0;
}

int main(int argc, char **argv)
{
	log_set_program("botdesk");
	log_set_debug(getenv("BOTDESK_DEBUG") != NULL);
	struct web_config cfg = {
		.novnc = "/usr/share/novnc", .data = BOTDESK_WEB_DATA_DIR, .wake_fd = -1};
	struct web_args a = {0};
	struct ready_args ra = {0};
	int rc = parse_args(argc, argv, &cfg, &a, &ra);
	if (rc >= 0) {
		return rc;
	}
	_cleanup_close_ int dirfd =
		open(cfg.state, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0) {
		log_error("cannot open the state directory %s: %s", cfg.state, strerror(errno));
		return 1;
	}
	cfg.dirfd = dirfd;
	if (a.ticket) {
		return print_ticket(&cfg);
	}
	if (!novnc_present(cfg.novnc)) {
		return 1;
	}
	cfg.ready = ready;
	cfg.userdata = &ra;
	return serve(&cfg, a.listen);
}
