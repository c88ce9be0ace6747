#include "watch.h"

#include <fcntl.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>

#include "activity.h"
#include "fileio.h"
#include "geometry.h"
#include "log.h"
#include "timeutil.h"
#include "util.h"

/* A human's input stamps the activity (common/activity.h) at most this often. */
#define STAMP_INTERVAL_MS 1000

static void restore(struct watch *w)
{
	if (!w->dpy) {
		int r = geometry_open(&w->dpy);
		if (r < 0) {
			log_warn("cannot connect to the desktop to restore its size: %s",
				 strerror(-r));
			return;
		}
	}
	int r = geometry_restore(w->dpy, w->width, w->height);
	if (r < 0) {
		log_warn("the X server refused to put the screen back at %ux%u: %s", w->width,
			 w->height, strerror(-r));
	} else if (r > 0) {
		log_debug("hand-back: the screen is %ux%u again", w->width, w->height);
	}
}

static void apply(struct watch *w)
{
	struct lease next;
	(void)lease_read_at(w->dirfd, &next);
	bool handed_back = w->lease.holder == LEASE_HUMAN && next.holder == LEASE_AGENT;
	w->lease = next;
	if (handed_back) {
		restore(w);
	}
	/* Published after the restore: `botdesk release` returns once it reads this epoch. */
	int r = lease_applied_write_at(w->dirfd, next.epoch);
	if (r < 0) {
		log_warn("cannot write %s: %s", LEASE_APPLIED_FILE, strerror(-r));
	}
}

int watch_open(struct watch *w, const char *state_dir, unsigned width, unsigned height)
{
	*w = (struct watch){.dirfd = -1, .inotify_fd = -1, .width = width, .height = height};
	w->dirfd = open(state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (w->dirfd < 0) {
		return negative_errno();
	}
	w->inotify_fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (w->inotify_fd < 0) {
		return negative_errno();
	}
	/* Watched before the first read, so no change can fall between the two. A rename into
	 * place (every writer's way) is IN_MOVED_TO; the rest catch a hand-made edit or removal. */
	if (inotify_add_watch(w->inotify_fd, state_dir,
			      IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM |
				      IN_ONLYDIR | IN_DONT_FOLLOW) < 0) {
		return negative_errno();
	}
	/* Until the file says otherwise, nobody's input passes. */
	w->lease = (struct lease){.holder = LEASE_AGENT};
	apply(w);
	return 0;
}

void watch_close(struct watch *w)
{
	geometry_close(w->dpy);
	w->dpy = NULL;
	w->inotify_fd = safe_close(w->inotify_fd);
	w->dirfd = safe_close(w->dirfd);
}

void watch_refresh(struct watch *w)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool changed = false;
	for (;;) {
		ssize_t n = read(w->inotify_fd, buf, sizeof(buf));
		if (n <= 0) {
			break;
		}
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			if ((ev->mask & IN_Q_OVERFLOW) ||
			    (ev->len > 0 && streq(ev->name, LEASE_FILE))) {
				changed = true;
			}
			p += sizeof(*ev) + ev->len;
		}
	}
	if (changed) {
		apply(w);
	}
}

void watch_stamp_activity(struct watch *w)
{
	uint64_t now = now_ms();
	if (w->last_stamp_ms && now - w->last_stamp_ms < STAMP_INTERVAL_MS) {
		return;
	}
	w->last_stamp_ms = now;
	activity_stamp(w->dirfd);
}
