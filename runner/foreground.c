#include "foreground.h"

#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#include "group.h"
#include "identity.h"
#include "launcher.h"
#include "lockfile.h"
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
	int r = desktop_stop(s, p, &stopped, err);
	/* Our own stop is no news for anybody. */
	stopmark_clear(p->dirfd);
	return r;
}

int foreground_start(const struct settings *s, struct profile *p, uint64_t wait_ms,
		     struct foreground *fg, struct error *err)
{
	*fg = (struct foreground)FOREGROUND_INIT;
	/* Blocked before the start, so a TERM that arrives during it is not lost. */
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	fg->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fg->sigfd < 0) {
		return error_set(err, negative_errno(), "signalfd: %s", strerror(errno));
	}
	int r = desktop_start(s, p, wait_ms, &fg->probe, err);
	if (r < 0) {
		return r;
	}
	fg->pidfd = fg->probe.launcher_live ? pidfd_open(fg->probe.launcher.pid, 0) : -1;
	/* Check the identity again after pinning the pid: the pidfd then surely names it. */
	if (fg->pidfd < 0 || !identity_is_live(&fg->probe.launcher)) {
		return error_set(
			err, -ECHILD,
			"the desktop of profile '%s' ended right after it started; see %s/%s",
			p->name, p->dir, STATE_LOG);
	}
	log_debug("running in the foreground: launcher pid %d", (int)fg->probe.launcher.pid);
	return 0;
}

/* The launcher ended: its owner stopped it, or it ended on its own. */
static int launcher_ended(const struct settings *s, struct profile *p, struct foreground *fg,
			  struct foreground_result *ret, struct error *err)
{
	reap_children();
	struct stopmark m;
	if (stopmark_take(p->dirfd, &fg->probe.launcher, &m) == 0) {
		/* The stop is still taking the rest of the group down and tidying the profile:
		 * ending now would let a service manager kill what it is stopping gracefully. It
		 * holds the start lock until it is done. */
		int lock = lockfile_take(p->dirfd, STATE_START_LOCK, LAUNCHER_STOP_FINISH_WAIT_MS);
		safe_close(lock);
		*ret = (struct foreground_result){.end = FOREGROUND_STOPPED, .by = m};
		return 0;
	}
	/* It ended on its own: tidy up what it left, then say so. */
	struct error ignored = {{0}};
	(void)stop_now(s, p, &ignored);
	return error_set(err, -ECHILD,
			 "the desktop of profile '%s' ended on its own; its log is %s/%s", p->name,
			 p->dir, STATE_LOG);
}

int foreground_wait(const struct settings *s, struct profile *p, struct foreground *fg,
		    struct foreground_result *ret, struct error *err)
{
	for (;;) {
		struct pollfd pfd[2] = {{.fd = fg->sigfd, .events = POLLIN},
					{.fd = fg->pidfd, .events = POLLIN}};
		if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
			return error_set(err, negative_errno(), "poll: %s", strerror(errno));
		}
		if (pfd[1].revents & POLLIN) {
			return launcher_ended(s, p, fg, ret, err);
		}
		if (!(pfd[0].revents & POLLIN)) {
			continue;
		}
		struct signalfd_siginfo si;
		while (read(fg->sigfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGCHLD) {
				reap_children();
				continue;
			}
			log_debug("signal %u: stopping the desktop", si.ssi_signo);
			int r = stop_now(s, p, err);
			if (r < 0) {
				return r;
			}
			*ret = (struct foreground_result){.end = FOREGROUND_SIGNAL,
							  .signo = (int)si.ssi_signo};
			return 0;
		}
	}
}

void foreground_close(struct foreground *fg)
{
	fg->sigfd = safe_close(fg->sigfd);
	fg->pidfd = safe_close(fg->pidfd);
}
