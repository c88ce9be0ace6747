/* The export (export.h). */
#include "export.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exitstatus.h"
#include "fbdec.h"
#include "fileio.h"
#include "recording.h"
#include "spawnproc.h"
#include "util.h"

extern char **environ;

void export_fit(unsigned w, unsigned h, unsigned max_w, unsigned max_h, unsigned *ret_w,
		unsigned *ret_h)
{
	uint64_t ow = w, oh = h;
	if (max_w && max_h && (ow > max_w || oh > max_h)) {
		/* The tighter of the two bounds decides. */
		if (ow * max_h > oh * max_w) {
			oh = oh * max_w / ow;
			ow = max_w;
		} else {
			ow = ow * max_h / oh;
			oh = max_h;
		}
	}
	*ret_w = (unsigned)(ow < 2 ? 2 : ow & ~1ull);
	*ret_h = (unsigned)(oh < 2 ? 2 : oh & ~1ull);
}

struct reader {
	int fd;
	uint8_t *msg;
	size_t cap;
	uint64_t t; /* the next record's time, ms since start */
	size_t len; /* the next record's length; 0 at the end */
};

/* The next record's head and message. 0, or 1 at a clean end. */
static int next_record(struct reader *rd)
{
	uint8_t head[REC_RECORD_HEAD];
	ssize_t n = read_all(rd->fd, head, sizeof(head));
	if (n == 0) {
		rd->len = 0;
		return 1;
	}
	if (n != (ssize_t)sizeof(head)) {
		/* A recording cut short (the recorder killed mid-write) ends at its last whole
		 * record. */
		rd->len = 0;
		return 1;
	}
	rd->t = (uint64_t)head[0] << 24 | (uint64_t)head[1] << 16 | (uint64_t)head[2] << 8 |
		head[3];
	size_t len = (size_t)head[4] << 24 | (size_t)head[5] << 16 | (size_t)head[6] << 8 | head[7];
	if (len == 0 || len > REC_MESSAGE_MAX) {
		return -EINVAL;
	}
	if (len > rd->cap) {
		uint8_t *m = realloc(rd->msg, len);
		if (!m) {
			return -ENOMEM;
		}
		rd->msg = m;
		rd->cap = len;
	}
	n = read_all(rd->fd, rd->msg, len);
	if (n != (ssize_t)len) {
		rd->len = 0;
		return 1;
	}
	rd->len = len;
	return 0;
}

static int open_recording(const struct export_opts *o, struct reader *rd, struct rec_header *h,
			  uint64_t *ret_duration)
{
	_cleanup_close_ int dirfd =
		open(o->state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0) {
		return negative_errno();
	}
	_cleanup_close_ int recfd =
		openat(dirfd, RECORDINGS_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (recfd < 0) {
		return negative_errno();
	}
	char name[RECORDING_ID_MAX + 8];
	int r = rec_file_name(o->id, "rfb", name, sizeof(name));
	if (r < 0) {
		return r;
	}
	rd->fd = open_regular_at(recfd, name, O_RDONLY, 0);
	if (rd->fd < 0) {
		return rd->fd;
	}
	uint8_t head[REC_HEADER_SIZE];
	if (read_all(rd->fd, head, sizeof(head)) != (ssize_t)sizeof(head) ||
	    rec_header_decode(head, h) < 0) {
		return -EINVAL;
	}
	struct rec_meta m;
	uint64_t end = 0;
	if (rec_meta_read_at(recfd, o->id, &m) == 0 && m.end_ms >= h->start_ms) {
		end = m.end_ms;
	}
	if (end == 0) {
		/* Still recording (or killed): up to now. */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		end = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	}
	*ret_duration = end > h->start_ms ? end - h->start_ms : 0;
	return 0;
}

/* The temporary ffmpeg writes, beside the output and with its extension (ffmpeg picks the
 * container by it), renamed over the output once ffmpeg succeeded. */
static int temp_name(const char *output, char *buf, size_t size)
{
	const char *slash = strrchr(output, '/');
	const char *base = slash ? slash + 1 : output;
	const char *ext = strrchr(base, '.');
	int n = snprintf(buf, size, "%.*s.%s.tmp%d%s", (int)(base - output), output, base,
			 (int)getpid(), ext ? ext : "");
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int in_dir(void *userdata)
{
	return chdir(userdata) < 0 ? -errno : 0;
}

static int spawn_ffmpeg(const struct export_opts *o, const char *tmp, unsigned w, unsigned h,
			unsigned ow, unsigned oh, int *ret_stdin, pid_t *ret_pid)
{
	char size[32], rate[16], filter[4200];
	snprintf(size, sizeof(size), "%ux%u", w, h);
	snprintf(rate, sizeof(rate), "%u", EXPORT_FPS);
	/* The captions by a plain relative name in ffmpeg's working directory: a path in a filter
	 * graph would need two levels of escaping. */
	int n = snprintf(filter, sizeof(filter), "scale=%u:%u%s", ow, oh,
			 o->captions ? ",subtitles=" EXPORT_CAPTIONS_NAME : "");
	if (n < 0 || (size_t)n >= sizeof(filter)) {
		return -ENAMETOOLONG;
	}
	bool mp4 = strlen(o->output) >= 4 && streq(o->output + strlen(o->output) - 4, ".mp4");
	const char *args[48] = {o->ffmpeg, "-hide_banner", "-loglevel", "error",    "-nostdin",
				"-y",      "-f",           "rawvideo",  "-pix_fmt", "bgr0",
				"-s",      size,           "-r",        rate,       "-i",
				"pipe:0",  "-vf",          filter,      "-pix_fmt", "yuv420p"};
	size_t k = 20;
	static const char *const vp8[] = {"-c:v",      "libvpx", "-deadline", "realtime",
					  "-cpu-used", "8",      "-b:v",      "2M"};
	static const char *const h264[] = {"-c:v",     "libx264",   "-preset",
					   "veryfast", "-movflags", "+faststart"};
	const char *const *codec = mp4 ? h264 : vp8;
	size_t nc = mp4 ? ARRAY_SIZE(h264) : ARRAY_SIZE(vp8);
	for (size_t i = 0; i < nc; i++) {
		args[k++] = codec[i];
	}
	args[k++] = tmp;
	args[k] = NULL;
	/* exec's argv is not const in C's types; nothing writes to these strings. */
	char *argv[48];
	for (size_t i = 0; i <= k; i++) {
		argv[i] = (char *)(uintptr_t)args[i];
	}
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		return negative_errno();
	}
	struct spawn_fd fds[] = {{pipefd[0], STDIN_FILENO}};
	char dir[4096];
	struct spawn_opts so = {.fds = fds, .n_fds = 1, .parent_death_signal = SIGTERM};
	if (o->captions) {
		const char *slash = strrchr(o->captions, '/');
		if (!slash || !streq(slash + 1, EXPORT_CAPTIONS_NAME) ||
		    (size_t)(slash - o->captions) >= sizeof(dir)) {
			safe_close(pipefd[0]);
			safe_close(pipefd[1]);
			return -EINVAL;
		}
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - o->captions), o->captions);
		so.child_setup = in_dir;
		so.userdata = dir;
	}
	int r = spawn_program(o->ffmpeg, argv, environ, &so, ret_pid);
	safe_close(pipefd[0]);
	if (r < 0) {
		safe_close(pipefd[1]);
		return r;
	}
	*ret_stdin = pipefd[1];
	return 0;
}

/* The current picture into the video's fixed canvas (the size the recording began with). */
static void canvas_from(const struct fbdec *d, uint32_t *canvas, unsigned w, unsigned h)
{
	for (unsigned y = 0; y < h; y++) {
		uint32_t *row = canvas + (size_t)y * w;
		if (y >= d->h) {
			memset(row, 0, w * sizeof(uint32_t));
			continue;
		}
		unsigned n = w < d->w ? w : d->w;
		memcpy(row, d->fb + (size_t)y * d->w, n * sizeof(uint32_t));
		memset(row + n, 0, (w - n) * sizeof(uint32_t));
	}
}

static void progress(const struct export_opts *o, uint64_t at, uint64_t total, bool last)
{
	if (!o->progress) {
		return;
	}
	fprintf(stderr, "\rbotdesk: exporting %s: %5.1f of %.1f s (%3u%%)%s", o->id, at / 1000.0,
		total / 1000.0, total ? (unsigned)(at * 100 / total) : 100, last ? "\n" : "");
}

static int frames(const struct export_opts *o, struct reader *rd, struct fbdec *d,
		  uint64_t duration, int out, unsigned w, unsigned h)
{
	uint32_t *canvas = malloc((size_t)w * h * sizeof(uint32_t));
	if (!canvas) {
		return -ENOMEM;
	}
	int r = next_record(rd);
	uint64_t nframes = duration * EXPORT_FPS / 1000 + 1;
	for (uint64_t k = 0; r >= 0 && k < nframes; k++) {
		uint64_t t = k * 1000 / EXPORT_FPS;
		while (r == 0 && rd->len > 0 && rd->t <= t) {
			r = fbdec_apply(d, rd->msg, rd->len);
			if (r == 0) {
				r = next_record(rd);
			}
		}
		if (r < 0) {
			break;
		}
		r = 0;
		canvas_from(d, canvas, w, h);
		int e = write_all(out, canvas, (size_t)w * h * sizeof(uint32_t));
		if (e < 0) {
			r = e;
			break;
		}
		if (k % EXPORT_FPS == 0) {
			progress(o, t, duration, false);
		}
	}
	free(canvas);
	if (r >= 0) {
		progress(o, duration, duration, true);
	}
	return r < 0 ? r : 0;
}

int export_run(const struct export_opts *o, struct error *err)
{
	struct reader rd = {.fd = -1};
	struct rec_header h;
	uint64_t duration;
	int r = open_recording(o, &rd, &h, &duration);
	if (r < 0) {
		safe_close(rd.fd);
		return error_set(err, r, "cannot read recording %s: %s", o->id,
				 r == -EINVAL ? "not a recording" : strerror(-r));
	}
	struct fbdec d;
	if ((r = fbdec_init(&d, h.width, h.height)) < 0) {
		safe_close(rd.fd);
		return error_set(err, r, "out of memory");
	}
	unsigned ow, oh;
	export_fit(h.width, h.height, o->max_w, o->max_h, &ow, &oh);
	char tmp[4200];
	int in = -1;
	pid_t pid = 0;
	r = o->output[0] == '/' ? temp_name(o->output, tmp, sizeof(tmp)) : -EINVAL;
	if (r == 0) {
		r = spawn_ffmpeg(o, tmp, h.width, h.height, ow, oh, &in, &pid);
	}
	if (r < 0) {
		error_set(err, r, "cannot run %s: %s", o->ffmpeg, strerror(-r));
	} else {
		/* ffmpeg stopping early (a bad output) is its exit status's to tell. */
		signal(SIGPIPE, SIG_IGN);
		int fr = frames(o, &rd, &d, duration, in, h.width, h.height);
		in = safe_close(in);
		int status;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			char how[64];
			exit_status_describe(status, EXIT_STATUS_NOUN, how, sizeof(how));
			r = error_set(err, -EIO, "ffmpeg failed (%s) writing %s", how, o->output);
		} else if (fr < 0) {
			r = error_set(err, fr, "recording %s is damaged: %s", o->id,
				      fr == -EINVAL ? "an update does not parse" : strerror(-fr));
		} else if (rename(tmp, o->output) < 0) {
			r = error_set(err, negative_errno(), "cannot write %s: %s", o->output,
				      strerror(errno));
		}
		if (r < 0) {
			(void)unlink(tmp);
		}
	}
	fbdec_free(&d);
	free(rd.msg);
	safe_close(rd.fd);
	return r;
}
