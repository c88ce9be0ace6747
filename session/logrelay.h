/* The desktop's log: every part of the desktop writes its stdout and stderr into a pipe of its
 * own, and the session alone writes launcher.log, one whole line per write(2). Xvnc writes a
 * line in pieces, so two parts sharing the file used to cut each other's lines; and a log that
 * only the next start cleared grew with every viewer (Xvnc logs each connection). At
 * LOGRELAY_CAP bytes launcher.log becomes launcher.log.1 (the older one goes) and a new
 * launcher.log starts, so the log never holds more than about twice the cap. */
#pragma once

#include <poll.h>
#include <stddef.h>

/* The name the runner opens as the session's stdout and stderr (desk/profile.h, STATE_LOG). */
#define LOGRELAY_FILE "launcher.log"
#define LOGRELAY_OLD_FILE "launcher.log.1"
#define LOGRELAY_CAP (1024 * 1024)
/* A line longer than this is cut into lines of this length (PIPE_BUF: what one write to a pipe
 * keeps whole). */
#define LOGRELAY_LINE_MAX 4096
#define LOGRELAY_MAX_SOURCES 16

struct logsource {
	int fd; /* read end, non-blocking; -1 once its writers are all gone */
	size_t len;
	char buf[LOGRELAY_LINE_MAX];
};

struct logrelay {
	int dirfd; /* the profile's directory, where the log is rotated; -1: never rotated */
	int out;   /* where lines go: our stderr, launcher.log */
	size_t cap;
	size_t n;
	struct logsource src[LOGRELAY_MAX_SOURCES];
};

/* A relay writing to out (not owned) that rotates in dir (opened here, O_NOFOLLOW) at cap
 * bytes. Without a dir (NULL) the log is never rotated. */
int logrelay_init(struct logrelay *l, const char *dir, int out, size_t cap);
void logrelay_done(struct logrelay *l);

/* A new pipe for one part: its write end (O_CLOEXEC; give it to the child as fds 1 and 2, then
 * close it) in *ret_fd. */
int logrelay_source(struct logrelay *l, int *ret_fd);

/* The relay's fds for poll(2), at most LOGRELAY_MAX_SOURCES; the number filled in. */
size_t logrelay_pollfds(const struct logrelay *l, struct pollfd *p);

/* Moves whatever the parts wrote to the log, whole lines only; at end, a part's unfinished
 * last line too. Never blocks. */
void logrelay_pump(struct logrelay *l);

/* At the end: everything still in the pipes, unfinished lines ended with a newline. */
void logrelay_flush(struct logrelay *l);
