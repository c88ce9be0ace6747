#include "acthandoff.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "envallow.h"
#include "spawnproc.h"
#include "util.h"

extern char **environ;

/* The program needs nothing of the caller's environment (the display and the cookie come in its
 * argv); the locale keeps its messages in the user's language, and a sanitizer build keeps its
 * options. Anything else (a token of the caller's) has no business there. */
static const char *const kept[] = {
	"LANG", "LC_ALL", "LC_MESSAGES", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
};

_Static_assert(ARRAY_SIZE(kept) + 1 == ACT_ENV_MAX, "ACT_ENV_MAX: the kept names and the NULL");

void act_program_env(char *ret[ACT_ENV_MAX])
{
	size_t n = 0;
	for (char **e = environ; e && *e && n < ARRAY_SIZE(kept); e++) {
		if (envallow_name_in(*e, kept, ARRAY_SIZE(kept))) {
			ret[n++] = *e;
		}
	}
	ret[n] = NULL;
}

int act_release_spawn(const struct act_handoff *h, pid_t *ret_pid)
{
	if (!h->program || !h->display || !h->xauthority || h->dirfd < 0) {
		return -EINVAL;
	}
	char *env[ACT_ENV_MAX];
	act_program_env(env);
	static char fdnum[] = "3", no[] = "0", word[] = ACT_RELEASE_HELD;
	char *args[] = {(char *)(uintptr_t)h->program,
			(char *)(uintptr_t)h->profile,
			(char *)(uintptr_t)h->dir,
			fdnum,
			(char *)(uintptr_t)h->display,
			(char *)(uintptr_t)h->xauthority,
			no,
			word,
			NULL};
	struct spawn_fd fds[] = {{h->dirfd, 3}};
	struct spawn_opts o = {.fds = fds, .n_fds = ARRAY_SIZE(fds)};
	pid_t pid;
	int r = spawn_program(h->program, args, env, &o, &pid);
	if (r < 0) {
		return r;
	}
	/* The child is ours and not reaped yet, so its pid cannot name another process here. */
	int pfd = pidfd_open(pid, 0);
	if (pfd < 0) {
		r = negative_errno();
		kill(pid, SIGKILL);
		(void)waitpid(pid, NULL, 0);
		return r;
	}
	*ret_pid = pid;
	return pfd;
}
