/* The thumbnail's X side: grab the root window through libX11 (MIT-SHM when the server offers it)
 * in one thread, scaling it as it arrives (thumbscale.c), and encode the rows in the calling
 * thread (pngenc.c). */
#include "thumbnail.h"

#include <X11/Xauth.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>

#include "parse.h"
#include "pngenc.h"
#include "thumbscale.h"
#include "util.h"

#define COOKIE_NAME "MIT-MAGIC-COOKIE-1"
#define COOKIE_MAX 64

/* ":N" or ":N.S", the number the Xauthority entries are keyed by. */
static int display_number(const char *display, char *ret, size_t size)
{
	if (display[0] != ':') {
		return -EINVAL;
	}
	size_t len = strcspn(display + 1, ".");
	uint64_t n;
	if (len >= size || parse_u64_n(display + 1, len, 65535, &n) < 0) {
		return -EINVAL;
	}
	snprintf(ret, size, "%u", (unsigned)n);
	return 0;
}

/* The profile's own cookie, read with libXau from its file (never through a symlink). */
static int read_cookie(const char *path, const char *number, char *ret, int *ret_len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return negative_errno();
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		int r = negative_errno();
		close(fd);
		return r;
	}
	int r = -ENOENT;
	Xauth *a;
	while (r == -ENOENT && (a = XauReadAuth(f))) {
		if (a->number_length == strlen(number) &&
		    memcmp(a->number, number, a->number_length) == 0 &&
		    a->name_length == strlen(COOKIE_NAME) &&
		    memcmp(a->name, COOKIE_NAME, a->name_length) == 0 && a->data_length > 0 &&
		    a->data_length <= COOKIE_MAX) {
			memcpy(ret, a->data, a->data_length);
			*ret_len = a->data_length;
			r = 0;
		}
		XauDisposeAuth(a);
	}
	fclose(f);
	return r;
}

/* libX11 reports errors through process-wide handlers. While a grab runs, a protocol error sets
 * a flag (MIT-SHM refused: fall back to XGetImage), and a broken connection jumps back out of
 * the grab instead of letting Xlib end the process. */
static sigjmp_buf connection_lost;
static volatile sig_atomic_t connection_armed;
static volatile sig_atomic_t x_error;

static int on_error(Display *dpy, XErrorEvent *ev)
{
	x_error = 1;
	return 0;
}

static int on_io_error(Display *dpy)
{
	if (connection_armed) {
		connection_armed = 0;
		siglongjmp(connection_lost, 1);
	}
	/* Not inside a guarded call: Xlib's own handling (it ends the process). */
	return 0;
}

static Display *open_display(const char *display, const char *cookie, int cookie_len)
{
	char name[] = COOKIE_NAME;
	char data[COOKIE_MAX];
	memcpy(data, cookie, (size_t)cookie_len);
	/* The authorization applies to the connections opened until it is reset: this one. */
	XSetAuthorization(name, (int)strlen(name), data, cookie_len);
	Display *dpy = XOpenDisplay(display);
	XSetAuthorization(NULL, 0, NULL, 0);
	explicit_bzero(data, sizeof(data));
	return dpy;
}

/* Pixels in any other layout than 32-bit BGRX in the host's order, converted through the
 * visual's masks. */
static unsigned mask_shift(unsigned long mask)
{
	unsigned s = 0;
	while (mask && !(mask & 1)) {
		mask >>= 1;
		s++;
	}
	return s;
}

static bool is_bgrx(const XImage *img)
{
	return img->bits_per_pixel == 32 && img->byte_order == LSBFirst &&
	       img->red_mask == 0xff0000 && img->green_mask == 0xff00 && img->blue_mask == 0xff;
}

static void convert_row(XImage *img, int y, uint8_t *out)
{
	unsigned rs = mask_shift(img->red_mask), gs = mask_shift(img->green_mask),
		 bs = mask_shift(img->blue_mask);
	unsigned long rm = img->red_mask >> rs, gm = img->green_mask >> gs,
		      bm = img->blue_mask >> bs;
	for (int x = 0; x < img->width; x++) {
		unsigned long p = XGetPixel(img, x, y);
		out[4 * x] = (uint8_t)(bm ? ((p >> bs) & bm) * 255 / bm : 0);
		out[4 * x + 1] = (uint8_t)(gm ? ((p >> gs) & gm) * 255 / gm : 0);
		out[4 * x + 2] = (uint8_t)(rm ? ((p >> rs) & rm) * 255 / rm : 0);
		out[4 * x + 3] = 0;
	}
}

/* Feeds rows [from, img height) of a strip grabbed at source row y0. */
static int push_strip(struct thumbscale *sc, XImage *img, unsigned y0, uint8_t *tmp)
{
	for (unsigned y = sc->next_row; y < y0 + (unsigned)img->height && y < sc->sh; y++) {
		int iy = (int)(y - y0);
		const uint8_t *row;
		if (is_bgrx(img)) {
			row = (const uint8_t *)img->data + (size_t)iy * (size_t)img->bytes_per_line;
		} else {
			convert_row(img, iy, tmp);
			row = tmp;
		}
		thumbscale_push(sc, row);
	}
	return 0;
}

/* Output rows handed from the thread that grabs and scales to the one that encodes, through a
 * ring of a few rows: the two run side by side, on the two CPUs of a small VM. */
#define RING_ROWS 32

struct ring {
	unsigned char *rows;
	size_t row_bytes;
	unsigned produced, consumed;
	bool done;  /* the producer delivered its last row, or failed */
	int error;  /* its failure, -errno */
	bool abort; /* the consumer gave up */
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

static void ring_init(struct ring *q)
{
	*q = (struct ring){0};
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
}

static void ring_free(struct ring *q)
{
	free(q->rows);
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
}

/* The scaler's sink in the producing thread: waits for room, copies the row in. */
static void ring_put(void *ctx, const unsigned char *row)
{
	struct ring *q = ctx;
	pthread_mutex_lock(&q->lock);
	while (q->produced - q->consumed == RING_ROWS && !q->abort) {
		pthread_cond_wait(&q->cond, &q->lock);
	}
	if (!q->abort) {
		pthread_mutex_unlock(&q->lock);
		/* Only this thread writes this slot until produced moves past it. */
		memcpy(q->rows + (size_t)(q->produced % RING_ROWS) * q->row_bytes, row,
		       q->row_bytes);
		pthread_mutex_lock(&q->lock);
		q->produced++;
		pthread_cond_broadcast(&q->cond);
	}
	pthread_mutex_unlock(&q->lock);
}

static bool ring_aborted(struct ring *q)
{
	pthread_mutex_lock(&q->lock);
	bool abort = q->abort;
	pthread_mutex_unlock(&q->lock);
	return abort;
}

static void ring_finish(struct ring *q, int error)
{
	pthread_mutex_lock(&q->lock);
	q->done = true;
	if (error && !q->error) {
		q->error = error;
	}
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

/* The next row to encode; NULL once the producer is done without it (then q->error says why). */
static const unsigned char *ring_get(struct ring *q)
{
	pthread_mutex_lock(&q->lock);
	while (q->produced == q->consumed && !q->done) {
		pthread_cond_wait(&q->cond, &q->lock);
	}
	bool have = q->produced != q->consumed;
	pthread_mutex_unlock(&q->lock);
	return have ? q->rows + (size_t)(q->consumed % RING_ROWS) * q->row_bytes : NULL;
}

static void ring_release(struct ring *q)
{
	pthread_mutex_lock(&q->lock);
	q->consumed++;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

/* The screen is read in strips of STRIP_BYTES through one MIT-SHM segment the server fills again
 * and again: a page the server touches for the first time costs a fault, and on a virtual machine
 * a whole-screen segment spends most of its time there (docs/session.md). Without MIT-SHM
 * (another IPC namespace or uid) the strips come through XGetImage. */
#define STRIP_BYTES (96 * 1024)

struct grabber {
	Display *dpy;
	Window root;
	unsigned w, h, rows;
	XShmSegmentInfo shm;
	XImage *shm_img; /* the segment's image when MIT-SHM works */
};

static void grabber_drop_shm(struct grabber *g)
{
	if (g->shm_img) {
		shmdt(g->shm.shmaddr);
		g->shm_img->data = NULL;
		XDestroyImage(g->shm_img);
		g->shm_img = NULL;
	}
}

/* MIT-SHM when the server offers it and can attach our segment (same IPC namespace and uid). */
static void grabber_setup(struct grabber *g)
{
	int screen = DefaultScreen(g->dpy);
	g->root = RootWindow(g->dpy, screen);
	g->w = (unsigned)DisplayWidth(g->dpy, screen);
	g->h = (unsigned)DisplayHeight(g->dpy, screen);
	unsigned per_row = g->w * 4;
	g->rows = STRIP_BYTES / per_row ? STRIP_BYTES / per_row : 1;
	g->rows = g->rows < g->h ? g->rows : g->h;
	if (!XShmQueryExtension(g->dpy)) {
		return;
	}
	XImage *img = XShmCreateImage(g->dpy, DefaultVisual(g->dpy, screen),
				      (unsigned)DefaultDepth(g->dpy, screen), ZPixmap, NULL,
				      &g->shm, g->w, g->rows);
	if (!img) {
		return;
	}
	size_t size = (size_t)img->bytes_per_line * g->rows;
	g->shm.shmid = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
	g->shm.shmaddr = g->shm.shmid < 0 ? (char *)-1 : shmat(g->shm.shmid, NULL, 0);
	if (g->shm.shmid >= 0) {
		/* Gone with its last user, even if we crash. */
		shmctl(g->shm.shmid, IPC_RMID, NULL);
	}
	if (g->shm.shmaddr == (char *)-1) {
		XDestroyImage(img);
		return;
	}
#ifdef MADV_POPULATE_WRITE
	/* Our page-table entries in one batch instead of a fault per page. */
	(void)madvise(g->shm.shmaddr, size, MADV_POPULATE_WRITE);
#endif
	img->data = g->shm.shmaddr;
	g->shm.readOnly = False;
	g->shm_img = img;
	x_error = 0;
	bool ok = XShmAttach(g->dpy, &g->shm);
	XSync(g->dpy, False);
	if (!ok || x_error) {
		grabber_drop_shm(g);
	}
}

static void grabber_close(struct grabber *g)
{
	if (g->shm_img) {
		XShmDetach(g->dpy, &g->shm);
	}
	XCloseDisplay(g->dpy);
}

static XImage *grab_strip(struct grabber *g, unsigned y0)
{
	x_error = 0;
	if (g->shm_img) {
		bool ok = XShmGetImage(g->dpy, g->root, g->shm_img, 0, (int)y0, AllPlanes);
		return ok && !x_error ? g->shm_img : NULL;
	}
	XImage *img = XGetImage(g->dpy, g->root, 0, (int)y0, g->w, g->rows, AllPlanes, ZPixmap);
	if (img && x_error) {
		XDestroyImage(img);
		return NULL;
	}
	return img;
}

/* Everything one thumbnail holds, so that every way out of the middle (libpng's error jump, a
 * broken X connection) can release it. */
struct job {
	unsigned max_w, max_h;
	struct grabber g;
	struct thumbscale sc;
	struct ring q;
	pthread_t thread;
	bool started;
	struct pngenc enc;
	uint8_t *tmp;
	struct error *err;
};

/* The producing thread: grabs each strip and scales it into the ring. It is the only one talking
 * to the server while it runs, so the connection's error jump lands here. */
static void *produce(void *arg)
{
	struct job *j = arg;
	struct grabber *g = &j->g;
	if (sigsetjmp(connection_lost, 1) != 0) {
		ring_finish(&j->q, -ECONNRESET);
		return NULL;
	}
	connection_armed = 1;
	int r = 0;
	for (unsigned y = 0; y < g->h && r == 0 && !ring_aborted(&j->q); y += g->rows) {
		/* The last strip is moved up to end at the screen's bottom edge; the rows already
		 * scaled are skipped. */
		unsigned y0 = y + g->rows > g->h ? g->h - g->rows : y;
		XImage *img = grab_strip(g, y0);
		if (!img) {
			r = -EIO;
			break;
		}
		push_strip(&j->sc, img, y0, j->tmp);
		if (img != g->shm_img) {
			XDestroyImage(img);
		}
	}
	connection_armed = 0;
	ring_finish(&j->q, r);
	return NULL;
}

static void stop_producer(struct job *j)
{
	if (j->started) {
		pthread_mutex_lock(&j->q.lock);
		j->q.abort = true;
		pthread_cond_broadcast(&j->q.cond);
		pthread_mutex_unlock(&j->q.lock);
		pthread_join(j->thread, NULL);
		j->started = false;
	}
}

/* This thread encodes what the producing thread delivers. */
static int run_job(struct job *j, unsigned char **ret_png, size_t *ret_len)
{
	if (setjmp(png_jmpbuf(j->enc.png))) {
		stop_producer(j);
		return error_set(j->err, -EIO, "cannot encode the PNG");
	}
	struct grabber *g = &j->g;
	unsigned ow, oh;
	thumbscale_fit(g->w, g->h, j->max_w, j->max_h, &ow, &oh);
	int r = thumbscale_init(&j->sc, g->w, g->h, ow, oh, ring_put, &j->q);
	j->q.row_bytes = (size_t)ow * 3;
	j->q.rows = malloc(RING_ROWS * j->q.row_bytes);
	j->tmp = malloc((size_t)g->w * 4);
	if (r < 0 || !j->q.rows || !j->tmp) {
		return error_set(j->err, -ENOMEM, "out of memory");
	}
	pngenc_start(&j->enc, ow, oh);
	r = -pthread_create(&j->thread, NULL, produce, j);
	if (r < 0) {
		return error_set(j->err, r, "cannot start a thread: %s", strerror(-r));
	}
	j->started = true;
	for (unsigned oy = 0; oy < oh; oy++) {
		const unsigned char *row = ring_get(&j->q);
		if (!row) {
			break;
		}
		pngenc_write_row(&j->enc, row);
		ring_release(&j->q);
	}
	stop_producer(j);
	if (j->q.error == -ECONNRESET) {
		return -ECONNRESET;
	}
	if (j->q.error < 0 || j->q.consumed != oh) {
		return error_set(j->err, j->q.error < 0 ? j->q.error : -EIO,
				 "cannot read the screen's pixels");
	}
	r = pngenc_finish(&j->enc, ret_png, ret_len);
	if (r < 0) {
		return error_set(j->err, r, "out of memory");
	}
	return 0;
}

/* The set-up talks to the server from this thread; a broken connection lands here instead of
 * ending the process, and the Display is then abandoned, not closed. */
static int setup_guarded(struct job *j)
{
	if (sigsetjmp(connection_lost, 1) != 0) {
		return -ECONNRESET;
	}
	connection_armed = 1;
	grabber_setup(&j->g);
	connection_armed = 0;
	return j->g.w > 0 && j->g.h > 0 ? 0 : -EIO;
}

static void close_guarded(struct job *j)
{
	if (sigsetjmp(connection_lost, 1) == 0) {
		connection_armed = 1;
		grabber_close(&j->g);
	}
	connection_armed = 0;
}

int thumbnail_png(const char *display, const char *xauthority, unsigned max_w, unsigned max_h,
		  unsigned char **ret_png, size_t *ret_len, struct error *err)
{
	char number[16];
	if (!display || display_number(display, number, sizeof(number)) < 0) {
		return error_set(err, -EINVAL, "'%s' is not a local X display", display);
	}
	if (max_w == 0 || max_h == 0) {
		return error_set(err, -EINVAL, "the thumbnail box must not be empty");
	}
	char cookie[COOKIE_MAX];
	int cookie_len = 0;
	int r = read_cookie(xauthority, number, cookie, &cookie_len);
	if (r < 0) {
		return error_set(err, r, "no X cookie for %s in %s: %s", display, xauthority,
				 strerror(-r));
	}
	struct job j = {.max_w = max_w, .max_h = max_h, .err = err};
	ring_init(&j.q);
	int enc_r = pngenc_init(&j.enc);
	int (*old_error)(Display *, XErrorEvent *) = XSetErrorHandler(on_error);
	int (*old_io)(Display *) = XSetIOErrorHandler(on_io_error);
	j.g.dpy = enc_r == 0 ? open_display(display, cookie, cookie_len) : NULL;
	explicit_bzero(cookie, sizeof(cookie));
	if (enc_r < 0) {
		r = error_set(err, enc_r, "out of memory");
	} else if (!j.g.dpy) {
		r = error_set(err, -ECONNREFUSED,
			      "cannot connect to the desktop's X server %s with its cookie",
			      display);
	} else {
		r = setup_guarded(&j);
		if (r == 0) {
			r = run_job(&j, ret_png, ret_len);
		}
	}
	if (j.g.dpy && r != -ECONNRESET) {
		close_guarded(&j);
	}
	grabber_drop_shm(&j.g);
	thumbscale_free(&j.sc);
	ring_free(&j.q);
	pngenc_free(&j.enc);
	free(j.tmp);
	XSetErrorHandler(old_error);
	XSetIOErrorHandler(old_io);
	if (r == -ECONNRESET) {
		r = error_set(err, r, "the desktop's X server %s went away", display);
	}
	return r;
}
