#include "actions.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

int actions_exec(const struct settings *s, struct profile *p, const struct desktop_probe *probe,
		 enum act_cmd cmd, int argc, char **argv, struct error *err)
{
	/* The pointer commands, the ones agents call most, have a program of their own that
	 * loads two X libraries instead of ten. */
	char *program = act_is_pointer(cmd) ? s->act_pointer : s->act;
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
		close(fd);
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
	close(fd);
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
