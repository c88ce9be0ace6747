#include "actions.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "acthandoff.h"
#include "lease.h"
#include "log.h"
#include "util.h"

int actions_exec(const struct settings *s, struct profile *p, const struct desktop_probe *probe,
		 const struct act_req *rq, int argc, char **argv, struct error *err)
{
	/* The pointer commands, the ones agents call most, have a program of their own that
	 * loads two X libraries instead of ten; the accessibility tree one that alone loads
	 * libatspi and GLib. */
	char *program = s->act;
	if (act_is_a11y(rq)) {
		program = s->act_a11y;
	} else if (act_by_pointer_program(rq)) {
		program = s->act_pointer;
	}
	const char *display = envfile_get(&probe->env, "DISPLAY");
	if (!display) {
		/* The runner's server check says so for the other actions; an argument list
		 * must not end early here. */
		return error_set(
			err, -EINVAL,
			"the desktop of profile '%s' published DISPLAY='', which is no local display; stop and start it again",
			p->name);
	}
	const char *xauth = envfile_get(&probe->env, "XAUTHORITY");
	_cleanup_free_ char *fallback = xauth ? NULL : profile_path(p, STATE_XAUTHORITY);
	if (!xauth && !fallback) {
		return -ENOMEM;
	}
	/* The one descriptor that crosses the exec, on purpose: botdesk-act re-reads the lease and
	 * writes the action log through the directory this runner verified, never by its path. */
	int fd = fcntl(p->dirfd, F_DUPFD, 3);
	if (fd < 0) {
		return error_set(err, negative_errno(), "cannot pass the profile directory on: %s",
				 strerror(errno));
	}
	char fdnum[16];
	snprintf(fdnum, sizeof(fdnum), "%d", fd);
	size_t n = 0;
	_cleanup_free_ char **args = calloc((size_t)argc + 8, sizeof(char *));
	if (!args) {
		safe_close(fd);
		return -ENOMEM;
	}
	args[n++] = program;
	args[n++] = p->name;
	args[n++] = p->dir;
	args[n++] = fdnum;
	args[n++] = (char *)(uintptr_t)display;
	args[n++] = (char *)(uintptr_t)(xauth ? xauth : fallback);
	static char yes[] = "1", no[] = "0";
	args[n++] = s->log_typed_text ? yes : no;
	for (int i = 0; i < argc; i++) {
		args[n++] = argv[i];
	}
	args[n] = NULL;
	execv(program, args);
	int r = negative_errno();
	safe_close(fd);
	return error_set(err, r, "cannot run %s: %s; is botdesk installed completely?", program,
			 strerror(-r));
}

int actions_exec_mcp(const struct settings *s, const char *profile, struct error *err)
{
	static char opt[] = "--profile";
	char *args[] = {s->mcp, opt, (char *)(uintptr_t)profile, NULL};
	execv(s->mcp, args);
	int r = negative_errno();
	return error_set(err, r, "cannot run %s: %s; is botdesk installed completely?", s->mcp,
			 strerror(-r));
}

int actions_exec_batch(const struct settings *s, const char *profile, struct error *err)
{
	static char opt[] = "--profile", batch[] = "--batch";
	char *args[] = {s->mcp, opt, (char *)(uintptr_t)profile, batch, NULL};
	execv(s->mcp, args);
	int r = negative_errno();
	return error_set(err, r, "cannot run %s: %s; is botdesk installed completely?", s->mcp,
			 strerror(-r));
}

/* Waits for the child of pidfd pfd (pid) until timeout_ms; kills it past that. Its exit status,
 * or -ETIMEDOUT. */
static int wait_bounded(int pfd, pid_t pid, int timeout_ms)
{
	struct pollfd pl = {.fd = pfd, .events = POLLIN};
	if (poll(&pl, 1, timeout_ms) == 0) {
		kill(pid, SIGKILL);
		(void)waitpid(pid, NULL, 0);
		return -ETIMEDOUT;
	}
	int status;
	if (waitpid(pid, &status, 0) < 0) {
		return negative_errno();
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int actions_release_held(const struct settings *s, struct profile *p,
			 const struct desktop_probe *probe, struct error *err)
{
	if (!probe->running) {
		/* Nothing to release; still, take returns only once nothing of the agent's is on
		 * its way (the release program waits for that itself otherwise). */
		if (lease_quiesce_at(p->dirfd, LEASE_QUIESCE_WAIT_MS) == -ETIMEDOUT) {
			log_warn(
				"an agent action on profile '%s' kept sending for %d s after the take (stopped or hung?); its events may still arrive",
				p->name, LEASE_QUIESCE_WAIT_MS / 1000);
		}
		return 0;
	}
	const char *display = envfile_get(&probe->env, "DISPLAY");
	const char *xauth = envfile_get(&probe->env, "XAUTHORITY");
	_cleanup_free_ char *fallback = xauth ? NULL : profile_path(p, STATE_XAUTHORITY);
	if (!display || (!xauth && !fallback)) {
		return error_set(
			err, -EINVAL,
			"the desktop of profile '%s' published no DISPLAY; stop and start it again",
			p->name);
	}
	struct act_handoff h = {
		.program = s->act_pointer,
		.profile = p->name,
		.dir = p->dir,
		.dirfd = p->dirfd,
		.display = display,
		.xauthority = xauth ? xauth : fallback,
	};
	pid_t pid;
	_cleanup_close_ int pfd = act_release_spawn(&h, &pid);
	if (pfd < 0) {
		return error_set(err, pfd, "cannot run %s: %s; is botdesk installed completely?",
				 s->act_pointer, strerror(-pfd));
	}
	int r = wait_bounded(pfd, pid, ACT_RELEASE_WAIT_MS);
	if (r != 0) {
		return error_set(
			err, r < 0 ? r : -EIO,
			"could not release the keys and buttons the agent holds on the desktop of profile '%s'%s; see the message above",
			p->name, r == -ETIMEDOUT ? " (its X server did not answer)" : "");
	}
	return 0;
}
