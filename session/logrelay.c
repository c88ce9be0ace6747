#include "logrelay.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "util.h"

int logrelay_init(struct logrelay *l, const char *dir, int out, size_t cap)
{
	*l = (struct logrelay){.dirfd = -1, .out = out, .cap = cap};
	if (dir) {
		l->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (l->dirfd < 0) {
			return negative_errno();
		}
	}
	return 0;
}

void logrelay_done(struct logrelay *l)
{
	for (size_t i = 0; i < l->n; i++) {
		l->src[i].fd = safe_close(l->src[i].fd);
	}
	l->n = 0;
	l->dirfd = safe_close(l->dirfd);
}

int logrelay_source(struct logrelay *l, int *ret_fd)
{
	if (l->n >= LOGRELAY_MAX_SOURCES) {
		return -E2BIG;
	}
	int p[2];
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0) {
		return negative_errno();
	}
	/* The writers block as they would on the file: only our end is non-blocking. */
	int flags = fcntl(p[1], F_GETFL);
	if (flags < 0 || fcntl(p[1], F_SETFL, flags & ~O_NONBLOCK) < 0) {
		int e = negative_errno();
		safe_close(p[0]);
		safe_close(p[1]);
		return e;
	}
	struct logsource *s = &l->src[l->n++];
	s->fd = p[0];
	s->len = 0;
	*ret_fd = p[1];
	return 0;
}

size_t logrelay_pollfds(const struct logrelay *l, struct pollfd *p)
{
	for (size_t i = 0; i < l->n; i++) {
		p[i] = (struct pollfd){.fd = l->src[i].fd, .events = POLLIN};
	}
	return l->n;
}

/* launcher.log becomes launcher.log.1 and a new one takes its place as our stdout and stderr,
 * where the session's own messages go too. A failure leaves the log growing: losing lines
 * would be worse. */
static void rotate(struct logrelay *l)
{
	if (renameat(l->dirfd, LOGRELAY_FILE, l->dirfd, LOGRELAY_OLD_FILE) < 0) {
		return;
	}
	int fd = open_regular_at(l->dirfd, LOGRELAY_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND,
				 0600);
	if (fd < 0) {
		return;
	}
	(void)dup2(fd, STDOUT_FILENO);
	(void)dup2(fd, STDERR_FILENO);
	if (fd != STDOUT_FILENO && fd != STDERR_FILENO) {
		safe_close(fd);
	}
}

static void emit(struct logrelay *l, const char *p, size_t n)
{
	(void)write_all(l->out, p, n);
	struct stat st;
	if (l->dirfd >= 0 && fstat(l->out, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size >= l->cap) {
		rotate(l);
	}
}

/* Writes the whole lines at the start of s's buffer, and a line that fills it whole (cut, with
 * a newline of its own); keeps the rest for the next read. */
static void emit_lines(struct logrelay *l, struct logsource *s, bool all)
{
	char *nl = memrchr(s->buf, '\n', s->len);
	size_t whole = nl ? (size_t)(nl - s->buf) + 1 : 0;
	if (whole > 0) {
		emit(l, s->buf, whole);
		memmove(s->buf, s->buf + whole, s->len - whole);
		s->len -= whole;
	}
	if (s->len > 0 && (all || s->len == sizeof(s->buf))) {
		char line[LOGRELAY_LINE_MAX + 1];
		memcpy(line, s->buf, s->len);
		line[s->len] = '\n';
		emit(l, line, s->len + 1);
		s->len = 0;
	}
}

static void pump_one(struct logrelay *l, struct logsource *s, bool all)
{
	while (s->fd >= 0) {
		ssize_t n = read(s->fd, s->buf + s->len, sizeof(s->buf) - s->len);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			if (n == 0) {
				/* Every writer is gone: its last words, then nothing more. */
				s->fd = safe_close(s->fd);
				emit_lines(l, s, true);
			} else if (all) {
				emit_lines(l, s, true);
			}
			return;
		}
		s->len += (size_t)n;
		emit_lines(l, s, false);
	}
}

void logrelay_pump(struct logrelay *l)
{
	for (size_t i = 0; i < l->n; i++) {
		pump_one(l, &l->src[i], false);
	}
}

void logrelay_flush(struct logrelay *l)
{
	for (size_t i = 0; i < l->n; i++) {
		pump_one(l, &l->src[i], true);
	}
}
