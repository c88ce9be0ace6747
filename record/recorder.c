/* The recording loop (recorder.h). */
#include "recorder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "activity.h"
#include "array.h"
#include "fileio.h"
#include "lease.h"
#include "log.h"
#include "pidpin.h"
#include "recording.h"
#include "rfbclient.h"
#include "rfbframe.h"
#include "strescape.h"
#include "timeutil.h"
#include "util.h"

struct rec {
	int dirfd, recfd, out, sock, ino, sig, pidfd;
	char id[RECORDING_ID_MAX + 1];
	struct rec_meta meta;
	uint64_t t0; /* monotonic ms at start_ms */
	uint8_t *buf;
	size_t len, cap;
	struct rfbframe frame;
	unsigned w, h;
	bool pending;      /* an update request is out */
	uint64_t next_req; /* monotonic ms */
	uint64_t written;  /* since the last prune */
	uint64_t max_bytes;
	uint64_t epoch; /* the lease's, as last seen */
	enum lease_holder holder;
	uint64_t lease_ms; /* monotonic: the last lease change */
	bool skip_stamp;   /* the next activity stamp may be that change's own */
	int activity_wd;   /* the watch on the activity file itself, or -1 */
};

static uint64_t unix_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void rec_close(struct rec *r)
{
	int *fds[] = {&r->dirfd, &r->recfd, &r->out, &r->sock, &r->ino, &r->sig, &r->pidfd};
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++) {
		*fds[i] = safe_close(*fds[i]);
	}
	free(r->buf);
	r->buf = NULL;
}

/* A recordings directory that is ours alone: made 0700, refused when it is a symlink or
 * someone else's. */
static int open_recdir(int dirfd)
{
	if (mkdirat(dirfd, RECORDINGS_DIR, 0700) < 0 && errno != EEXIST) {
		return negative_errno();
	}
	int fd = openat(dirfd, RECORDINGS_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return negative_errno();
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || fchmod(fd, 0700) < 0) {
		safe_close(fd);
		return -EPERM;
	}
	return fd;
}

/* The id of now, its .rfb created exclusively (a second recording in the same second gets
 * "-2", ...). */
static int create_recording(struct rec *r)
{
	time_t now = (time_t)(r->meta.start_ms / 1000);
	struct tm tm;
	char base[20];
	if (!gmtime_r(&now, &tm) || strftime(base, sizeof(base), "%Y%m%d-%H%M%S", &tm) == 0) {
		return -EINVAL;
	}
	for (unsigned n = 1; n < 100; n++) {
		char name[RECORDING_ID_MAX + 8];
		if (n == 1) {
			snprintf(r->id, sizeof(r->id), "%s", base);
		} else {
			snprintf(r->id, sizeof(r->id), "%s-%u", base, n);
		}
		int e = rec_file_name(r->id, "rfb", name, sizeof(name));
		if (e < 0) {
			return e;
		}
		int fd = openat(r->recfd, name,
				O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			r->out = fd;
			return 0;
		}
		if (errno != EEXIST) {
			return negative_errno();
		}
	}
	return -EEXIST;
}

static int start_files(struct rec *r)
{
	int e = create_recording(r);
	if (e < 0) {
		return e;
	}
	uint8_t head[REC_HEADER_SIZE];
	rec_header_encode(&(struct rec_header){r->meta.start_ms, r->w, r->h}, head);
	if ((e = write_all(r->out, head, sizeof(head))) < 0 ||
	    (e = rec_meta_write_at(r->recfd, r->id, &r->meta)) < 0) {
		return e;
	}
	struct proc_stat st;
	if ((e = proc_stat_read(getpid(), &st)) < 0) {
		return e;
	}
	char text[128];
	int n = snprintf(text, sizeof(text), "%d %llu %s\n", (int)getpid(),
			 (unsigned long long)st.starttime, r->id);
	return write_file_atomic_at(r->dirfd, RECORDER_FILE, text, (size_t)n, 0600);
}

/* A reason that does not fit is left out rather than cut inside an escape. */
static void json_escape(const char *s, char *out, size_t size)
{
	(void)escape_to_buf(out, size, s, strlen(s), &escape_json);
}

/* A lease change since the last look, as an event line. */
static void lease_event(struct rec *r)
{
	struct lease l;
	(void)lease_read_at(r->dirfd, &l);
	if (l.epoch == r->epoch && l.holder == r->holder) {
		return;
	}
	r->epoch = l.epoch;
	r->holder = l.holder;
	r->lease_ms = now_ms();
	r->skip_stamp = true;
	/* Every byte of the reason may take an escape of six. */
	char reason[6 * LEASE_REASON_MAX + 1], line[6 * LEASE_REASON_MAX + 128];
	json_escape(l.reason, reason, sizeof(reason));
	uint64_t now = unix_ms();
	if (l.holder == LEASE_HUMAN) {
		snprintf(line, sizeof(line),
			 "{\"time_ms\":%llu,\"kind\":\"take\",\"reason\":\"%s\",\"epoch\":%llu}\n",
			 (unsigned long long)now, reason, (unsigned long long)l.epoch);
	} else {
		snprintf(line, sizeof(line),
			 "{\"time_ms\":%llu,\"kind\":\"release\",\"epoch\":%llu}\n",
			 (unsigned long long)now, (unsigned long long)l.epoch);
	}
	if (rec_events_append_at(r->recfd, r->id, line) < 0) {
		log_warn("cannot note the lease change in recording %s", r->id);
	}
}

/* A human's input, as the gate stamps it (common/activity.h: at most once a second) while a
 * human holds the desktop. The stamp a take leaves right after its rename of the lease is not
 * input: the first one within a second of a change is skipped. */
static void input_event(struct rec *r)
{
	uint64_t now = now_ms();
	bool takes_own = r->skip_stamp && now - r->lease_ms < 1000;
	r->skip_stamp = false;
	if (r->holder != LEASE_HUMAN || takes_own) {
		return;
	}
	char line[96];
	snprintf(line, sizeof(line), "{\"time_ms\":%llu,\"kind\":\"input\"}\n",
		 (unsigned long long)unix_ms());
	(void)rec_events_append_at(r->recfd, r->id, line);
}

/* The activity file itself, not the directory's attributes: the session renews another file's
 * mtime every 10 s, which would wake us for nothing. */
static void watch_activity(struct rec *r)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d/" ACTIVITY_FILE, r->dirfd);
	r->activity_wd = inotify_add_watch(r->ino, path, IN_ATTRIB | IN_DONT_FOLLOW);
}

static void drain_inotify(struct rec *r)
{
	char ev[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	while ((n = read(r->ino, ev, sizeof(ev))) > 0) {
		for (char *p = ev; p < ev + n;) {
			const struct inotify_event *e = (const struct inotify_event *)p;
			if (e->len > 0 && streq(e->name, LEASE_FILE)) {
				lease_event(r);
			} else if (e->len > 0 && streq(e->name, ACTIVITY_FILE)) {
				watch_activity(r); /* made anew: watch the new one */
			} else if (e->wd == r->activity_wd && (e->mask & IN_ATTRIB)) {
				input_event(r);
			}
			p += sizeof(*e) + e->len;
		}
	}
}

/* One whole server message: updates are stored with their time, the rest dropped (the
 * clipboard's text is not the screen's). */
static int store(struct rec *r, const uint8_t *msg, size_t len)
{
	if (msg[0] != RFB_MSG_FB_UPDATE) {
		return 0;
	}
	/* A new size comes as a pseudo-rectangle: later requests ask for the new screen. */
	unsigned n = (unsigned)msg[2] << 8 | msg[3];
	size_t pos = 4;
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *p = msg + pos;
		int32_t enc = (int32_t)((uint32_t)p[8] << 24 | (uint32_t)p[9] << 16 |
					(uint32_t)p[10] << 8 | p[11]);
		size_t sz;
		(void)rfbframe_rect_size(p, len - pos, &sz);
		if (enc == RFB_ENC_DESKTOP_SIZE || enc == RFB_ENC_EXT_DESKTOP_SIZE) {
			r->w = (unsigned)p[4] << 8 | p[5];
			r->h = (unsigned)p[6] << 8 | p[7];
		}
		pos += sz;
	}
	uint64_t t = now_ms() - r->t0;
	uint8_t head[REC_RECORD_HEAD] = {
		(uint8_t)(t >> 24),   (uint8_t)(t >> 16),   (uint8_t)(t >> 8),   (uint8_t)t,
		(uint8_t)(len >> 24), (uint8_t)(len >> 16), (uint8_t)(len >> 8), (uint8_t)len};
	int e = write_all(r->out, head, sizeof(head));
	if (e == 0) {
		e = write_all(r->out, msg, len);
	}
	r->written += len + sizeof(head);
	if (r->written > r->max_bytes / 16) {
		r->written = 0;
		(void)recorder_prune(r->recfd, r->id, r->max_bytes);
	}
	return e;
}

static int read_stream(struct rec *r)
{
	if (ARRAY_RESERVE(r->buf, r->cap, r->len + 65536, 262144) < 0) {
		return -ENOMEM;
	}
	ssize_t n = read(r->sock, r->buf + r->len, r->cap - r->len);
	if (n == 0) {
		return -ECONNRESET;
	}
	if (n < 0) {
		return errno == EINTR || errno == EAGAIN ? 0 : negative_errno();
	}
	r->len += (size_t)n;
	size_t off = 0, msg;
	int e;
	while ((e = rfbframe_next(&r->frame, r->buf + off, r->len - off, &msg)) == 1) {
		bool update = r->buf[off] == RFB_MSG_FB_UPDATE;
		if ((e = store(r, r->buf + off, msg)) < 0) {
			return e;
		}
		off += msg;
		if (update) {
			r->pending = false;
		}
	}
	if (e < 0) {
		return e;
	}
	memmove(r->buf, r->buf + off, r->len - off);
	r->len -= off;
	return 0;
}

static int watch_setup(struct rec *r)
{
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0 ||
	    (r->sig = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		return negative_errno();
	}
	/* Lease changes arrive as renames of the lease file into the profile's directory. */
	r->ino = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (r->ino < 0) {
		return negative_errno();
	}
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", r->dirfd);
	if (inotify_add_watch(r->ino, self, IN_MOVED_TO | IN_DELETE | IN_ONLYDIR) < 0) {
		return negative_errno();
	}
	watch_activity(r);
	struct lease l;
	(void)lease_read_at(r->dirfd, &l);
	r->epoch = l.epoch;
	r->holder = l.holder;
	return 0;
}

/* The loop: updates as they come, a request at most every RECORDER_MIN_INTERVAL_MS, until the
 * door closes, the launcher is gone or a signal ends it. */
static int loop(struct rec *r)
{
	for (;;) {
		uint64_t now = now_ms();
		if (!r->pending && now >= r->next_req) {
			int e = rfbclient_request(r->sock, r->w, r->h, true);
			if (e < 0) {
				return e;
			}
			r->pending = true;
			r->next_req = now + RECORDER_MIN_INTERVAL_MS;
		}
		int timeout = r->pending ? -1 : (int)(r->next_req - now);
		struct pollfd p[] = {{r->sock, POLLIN, 0},
				     {r->sig, POLLIN, 0},
				     {r->ino, POLLIN, 0},
				     {r->pidfd, POLLIN, 0}};
		int n = poll(p, r->pidfd >= 0 ? 4 : 3, timeout);
		if (n < 0 && errno != EINTR) {
			return negative_errno();
		}
		if (n <= 0) {
			continue;
		}
		if (p[1].revents || (r->pidfd >= 0 && p[3].revents)) {
			return 0;
		}
		if (p[2].revents) {
			drain_inotify(r);
		}
		if (p[0].revents) {
			int e = read_stream(r);
			if (e == -ECONNRESET) {
				return 0; /* the desktop ended: its gate closed the door */
			}
			if (e < 0) {
				return e;
			}
		}
	}
}

static void finish(struct rec *r)
{
	r->meta.end_ms = unix_ms();
	if (r->meta.end_ms < r->meta.start_ms) {
		r->meta.end_ms = r->meta.start_ms;
	}
	if (rec_meta_write_at(r->recfd, r->id, &r->meta) < 0) {
		log_warn("cannot write the end of recording %s", r->id);
	}
	/* Only our own file goes: a newer recorder's never. */
	struct rec_running run;
	if (rec_running_read_at(r->dirfd, &run) == 0 && run.pid == getpid()) {
		(void)unlinkat(r->dirfd, RECORDER_FILE, 0);
	}
}

static void notify(int fd, const char *word, const char *arg)
{
	if (fd < 0) {
		return;
	}
	char line[600];
	int n = snprintf(line, sizeof(line), "%s %s\n", word, arg);
	if (n > 0) {
		(void)write_all(fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	}
}

static int begin(struct rec *r, const struct recorder_opts *o, struct error *err)
{
	r->dirfd = open(o->state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (r->dirfd < 0) {
		return error_set(err, negative_errno(), "cannot open %s: %s", o->state_dir,
				 strerror(errno));
	}
	int lock = open_regular_at(r->dirfd, RECORDER_LOCK, O_RDWR | O_CREAT, 0600);
	if (lock < 0) {
		return error_set(err, lock, "cannot open %s/%s: %s", o->state_dir, RECORDER_LOCK,
				 strerror(-lock));
	}
	/* Held for our whole life (the fd is never closed): one recorder per desktop. */
	if (flock(lock, LOCK_EX | LOCK_NB) < 0) {
		safe_close(lock);
		return error_set(err, -EBUSY, "the desktop is being recorded already");
	}
	if (o->launcher_pid > 0) {
		struct proc_stat st;
		r->pidfd = pidpin_open(o->launcher_pid, o->launcher_starttime, &st);
		if (r->pidfd < 0) {
			return error_set(err, -ESRCH, "the desktop has ended");
		}
	}
	r->recfd = open_recdir(r->dirfd);
	if (r->recfd < 0) {
		return error_set(err, r->recfd, "cannot use %s/%s: %s", o->state_dir,
				 RECORDINGS_DIR, strerror(-r->recfd));
	}
	r->sock = rfbclient_open(o->view_path, RECORDER_CONNECT_TIMEOUT_MS, &r->w, &r->h);
	if (r->sock < 0) {
		return error_set(err, r->sock, "cannot watch the desktop through %s: %s",
				 o->view_path, strerror(-r->sock));
	}
	r->meta = (struct rec_meta){.start_ms = unix_ms(), .width = r->w, .height = r->h};
	r->t0 = now_ms();
	int e = start_files(r);
	if (e < 0) {
		return error_set(err, e, "cannot start a recording in %s/%s: %s", o->state_dir,
				 RECORDINGS_DIR, strerror(-e));
	}
	if ((e = watch_setup(r)) < 0 || (e = rfbclient_request(r->sock, r->w, r->h, false)) < 0) {
		return error_set(err, e, "cannot start recording: %s", strerror(-e));
	}
	r->pending = true;
	r->next_req = r->t0 + RECORDER_MIN_INTERVAL_MS;
	return 0;
}

int recorder_run(const struct recorder_opts *o, struct error *err)
{
	struct rec r = {.dirfd = -1,
			.recfd = -1,
			.out = -1,
			.sock = -1,
			.ino = -1,
			.activity_wd = -1,
			.sig = -1,
			.pidfd = -1,
			.max_bytes = o->max_bytes,
			.frame = RFBFRAME_INIT};
	int e = begin(&r, o, err);
	if (e < 0) {
		notify(o->notify_fd, "error", err->msg);
		rec_close(&r);
		return e;
	}
	(void)recorder_prune(r.recfd, r.id, r.max_bytes);
	notify(o->notify_fd, "ok", r.id);
	if (o->notify_fd >= 0) {
		safe_close(o->notify_fd);
	}
	log_info("recording %s: %ux%u", r.id, r.w, r.h);
	e = loop(&r);
	finish(&r);
	if (e < 0) {
		error_set(err, e, "recording %s ended: %s", r.id, strerror(-e));
	}
	rec_close(&r);
	return e;
}
