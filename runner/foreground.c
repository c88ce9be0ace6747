#include "foreground.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#include "desktop.h"
#include "identity.h"
#include "log.h"
#include "util.h"

/* Reaps every ended child (orphans reparented to us when we are PID 1 included). */
static void reap_children(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0) {
	}
}

static int stop_now(const struct settings *s, struct profile *p, struct error *err)
{
	bool stopped;
	return desktop_stop(s, p, &stopped, err);
}

int foreground_run(const struct settings *s, struct profile *p, uint64_t wait_ms, struct error *err)
{
	/* Blocked before the start, so a TERM that arrives during it is not lost. */
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	_cleanup_close_ int sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sigfd < 0) {
		return error_set(err, negative_errno(), "signalfd: %s", strerror(errno));
	}
	struct desktop_probe probe;
	int r = desktop_start(s, p, wait_ms, &probe, err);
	if (r == -EINTR) {
		/* Told to stop while starting: the launch was taken down, which is a clean stop. */
		return 0;
	}
	if (r < 0) {
		return r;
	}
	_cleanup_close_ int pidfd = probe.launcher_live ? pidfd_open(probe.launcher.pid, 0) : -1;
	/* Check the identity again after pinning the pid: the pidfd then surely names it. */
	if (pidfd < 0 || !identity_is_live(&probe.launcher)) {
		return error_set(
			err, -ECHILD,
			"the desktop of profile '%s' ended right after it started; see %s/%s",
			p->name, p->dir, STATE_LOG);
	}
	log_debug("running in the foreground: launcher pid %d", (int)probe.launcher.pid);
	for (;;) {
		struct pollfd pfd[2] = {{.fd = sigfd, .events = POLLIN},
					{.fd = pidfd, .events = POLLIN}};
		if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
			return error_set(err, negative_errno(), "poll: %s", strerror(errno));
		}
		if (pfd[1].revents & POLLIN) {
			break;
		}
		if (!(pfd[0].revents & POLLIN)) {
			continue;
		}
		struct signalfd_siginfo si;
		while (read(sigfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGCHLD) {
				reap_children();
				continue;
			}
			log_debug("signal %u: stopping the desktop", si.ssi_signo);
			return stop_now(s, p, err);
		}
	}
	/* The desktop ended on its own: tidy up what it left, then say so. */
	reap_children();
	struct error ignored = {{0}};
	(void)stop_now(s, p, &ignored);
	return error_set(err, -ECHILD,
			 "the desktop of profile '%s' ended on its own; its log is %s/%s", p->name,
			 p->dir, STATE_LOG);
}
