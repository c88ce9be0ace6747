#include "thumbnailer.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>

#include "pipes.h"
#include "spawnproc.h"
#include "timeutil.h"
#include "util.h"

#define THUMBNAILER_TIMEOUT_MS 20000
/* 8192x8192 RGB uncompressed is 192 MiB; no PNG of a screen comes near that. */
#define PNG_MAX (256u * 1024 * 1024)

struct sink {
	unsigned char *data;
	size_t len, cap, max;
};

/* Reads what is there: 1 for more to come, 0 at end of file, -1 on an error or past the limit. */
static int drain(int fd, struct sink *s)
{
	if (s->cap - s->len < 65536) {
		size_t cap = s->cap ? s->cap * 2 : 256 * 1024;
		if (cap > s->max) {
			cap = s->max;
		}
		unsigned char *d = cap > s->cap ? realloc(s->data, cap) : NULL;
		if (!d) {
			return -1;
		}
		s->data = d;
		s->cap = cap;
	}
	ssize_t n = read(fd, s->data + s->len, s->cap - s->len - 1);
	if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
		return 1;
	}
	if (n < 0) {
		return -1;
	}
	s->len += (size_t)n;
	return n > 0;
}

static int spawn(const char *path, char *const argv[], int out, int err, pid_t *ret_pid)
{
	_cleanup_close_ int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0) {
		return negative_errno();
	}
	const struct spawn_fd fds[] = {{null, 0}, {out, 1}, {err, 2}};
	const struct spawn_opts o = {.fds = fds, .n_fds = ARRAY_SIZE(fds)};
	extern char **environ;
	return spawn_program(path, argv, environ, &o, ret_pid);
}

/* The PNG from outfd and the message from errfd until both end: 0; -ETIMEDOUT past the
 * thumbnailer's time; -EIO when reading failed or the PNG passed its limit. */
static int collect(int outfd, int errfd, struct sink *png, struct sink *msg)
{
	struct pollfd pfd[2] = {{.fd = outfd, .events = POLLIN}, {.fd = errfd, .events = POLLIN}};
	uint64_t deadline = now_ms() + THUMBNAILER_TIMEOUT_MS;
	while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
		uint64_t now = now_ms();
		if (now >= deadline) {
			return -ETIMEDOUT;
		}
		if (poll(pfd, 2, (int)(deadline - now)) < 0 && errno != EINTR) {
			return -EIO;
		}
		for (int i = 0; i < 2; i++) {
			struct sink *into = i ? msg : png;
			int r = pfd[i].fd >= 0 && pfd[i].revents ? drain(pfd[i].fd, into) : 1;
			if (r < 0) {
				return -EIO;
			}
			pfd[i].fd = r == 0 ? -1 : pfd[i].fd;
		}
	}
	return 0;
}

int thumbnailer_run(const struct settings *s, const char *display, const char *xauthority,
		    unsigned max_w, unsigned max_h, unsigned char **ret_png, size_t *ret_len,
		    struct error *err)
{
	char box[32];
	snprintf(box, sizeof(box), "%ux%u", max_w, max_h);
	_cleanup_free_ char *path = strdup(s->thumbnailer), *d = strdup(display),
			    *x = strdup(xauthority);
	if (!path || !d || !x) {
		return -ENOMEM;
	}
	char *const argv[] = {path, d, x, box, NULL};
	int out[2], errp[2];
	int r = pipes_open2(out, errp);
	if (r < 0) {
		return error_set(err, r, "pipe: %s", strerror(-r));
	}
	pid_t pid;
	int sr = spawn(path, argv, out[1], errp[1], &pid);
	safe_close(out[1]);
	safe_close(errp[1]);
	if (sr < 0) {
		safe_close(out[0]);
		safe_close(errp[0]);
		return error_set(err, sr, "cannot start %s: %s", path, strerror(-sr));
	}
	struct sink png = {.max = PNG_MAX}, msg = {.max = 4096};
	int cr = collect(out[0], errp[0], &png, &msg);
	bool timed_out = cr == -ETIMEDOUT, failed = cr < 0 && !timed_out;
	safe_close(out[0]);
	safe_close(errp[0]);
	/* Given up on before it finished: it must not live on, blocked on a pipe nobody reads. */
	if (timed_out || failed) {
		kill(pid, SIGKILL);
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	if (timed_out || failed || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || png.len == 0) {
		free(png.data);
		if (msg.len > 0) {
			msg.data[msg.len] = '\0';
			/* Its message already says "botdesk: ..."; pass the text on without that.
			 */
			char *text = (char *)msg.data;
			text += startswith(text, "botdesk: ") ? strlen("botdesk: ") : 0;
			text[strcspn(text, "\n")] = '\0';
			error_set(err, -EIO, "%s", text);
		}
		free(msg.data);
		if (timed_out) {
			return error_set(
				err, -ETIMEDOUT,
				"the thumbnail took more than 20 s: the desktop may be hung");
		}
		return error_set(err, -EIO, "the thumbnail failed (%s ended with status %d)", path,
				 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
	free(msg.data);
	*ret_png = png.data;
	*ret_len = png.len;
	return 0;
}
