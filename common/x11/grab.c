/* The grab runs in one thread, scaling each strip as it arrives, and the encoder in the calling
 * thread: the two run side by side on the two CPUs of a small VM. */
#include "grab.h"

#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>

#include "jpegenc.h"
#include "pngenc.h"
#include "thumbscale.h"
#include "util.h"
#include "xconn.h"

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

/* Output rows handed from the thread that grabs and scales to the one that encodes, through a
 * ring of a few rows. */
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
	unsigned x0, y0, w, h, rows;
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
	xconn_error_reset();
	bool ok = XShmAttach(g->dpy, &g->shm);
	XSync(g->dpy, False);
	if (!ok || xconn_error_seen()) {
		grabber_drop_shm(g);
	}
}

static void grabber_detach(struct grabber *g)
{
	if (g->shm_img) {
		XShmDetach(g->dpy, &g->shm);
		XSync(g->dpy, False);
	}
}

static XImage *grab_strip(struct grabber *g, unsigned y0)
{
	xconn_error_reset();
	if (g->shm_img) {
		bool ok = XShmGetImage(g->dpy, g->root, g->shm_img, (int)g->x0, (int)(g->y0 + y0),
				       AllPlanes);
		return ok && !xconn_error_seen() ? g->shm_img : NULL;
	}
	XImage *img = XGetImage(g->dpy, g->root, (int)g->x0, (int)(g->y0 + y0), g->w, g->rows,
				AllPlanes, ZPixmap);
	if (img && xconn_error_seen()) {
		XDestroyImage(img);
		return NULL;
	}
	return img;
}

/* Everything one picture holds, so that every way out of the middle (the encoder's error jump,
 * a broken X connection) can release it. */
struct job {
	const struct grab_request *rq;
	struct grabber g;
	unsigned ow, oh;
	bool identity; /* full size: rows go to the encoder without the scaler */
	struct thumbscale sc;
	unsigned next_row; /* the next region row to hand on */
	struct ring q;
	pthread_t thread;
	bool started;
	struct pngenc png;
	struct jpegenc jpeg;
	uint8_t *tmp, *rgb;
	struct error *err;
};

/* Hands on rows [next_row, end of the strip) of a strip grabbed at region row y0. */
static void push_strip(struct job *j, XImage *img, unsigned y0)
{
	for (unsigned y = j->next_row; y < y0 + (unsigned)img->height && y < j->g.h; y++) {
		int iy = (int)(y - y0);
		const uint8_t *row;
		if (is_bgrx(img)) {
			row = (const uint8_t *)img->data + (size_t)iy * (size_t)img->bytes_per_line;
		} else {
			convert_row(img, iy, j->tmp);
			row = j->tmp;
		}
		if (j->identity) {
			for (unsigned x = 0; x < j->g.w; x++) {
				j->rgb[3 * x] = row[4 * x + 2];
				j->rgb[3 * x + 1] = row[4 * x + 1];
				j->rgb[3 * x + 2] = row[4 * x];
			}
			ring_put(&j->q, j->rgb);
		} else {
			thumbscale_push(&j->sc, row);
		}
		j->next_row = y + 1;
	}
}

/* The producing thread: grabs each strip and scales it into the ring. It is the only one talking
 * to the server while it runs, so its guard catches a broken connection. */
static void *produce(void *arg)
{
	struct job *j = arg;
	struct grabber *g = &j->g;
	struct xconn_guard guard;
	xconn_guard_push(&guard);
	if (sigsetjmp(guard.jb, 1) != 0) {
		ring_finish(&j->q, -ECONNRESET);
		return NULL;
	}
	int r = 0;
	for (unsigned y = 0; y < g->h && r == 0 && !ring_aborted(&j->q); y += g->rows) {
		/* The last strip is moved up to end at the region's bottom edge; the rows already
		 * handed on are skipped. */
		unsigned y0 = y + g->rows > g->h ? g->h - g->rows : y;
		XImage *img = grab_strip(g, y0);
		if (!img) {
			r = -EIO;
			break;
		}
		push_strip(j, img, y0);
		if (img != g->shm_img) {
			XDestroyImage(img);
		}
	}
	xconn_guard_pop(&guard);
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

static void enc_start(struct job *j)
{
	if (j->rq->format == GRAB_JPEG) {
		jpegenc_start(&j->jpeg, j->ow, j->oh, j->rq->quality);
	} else {
		pngenc_start(&j->png, j->ow, j->oh);
	}
}

static void enc_row(struct job *j, const unsigned char *row)
{
	if (j->rq->format == GRAB_JPEG) {
		jpegenc_write_row(&j->jpeg, row);
	} else {
		pngenc_write_row(&j->png, row);
	}
}

static int enc_finish(struct job *j, struct grab_result *ret)
{
	if (j->rq->format == GRAB_JPEG) {
		return jpegenc_finish(&j->jpeg, &ret->data, &ret->len);
	}
	return pngenc_finish(&j->png, &ret->data, &ret->len);
}

/* This thread encodes what the producing thread delivers. The encoders report errors by a jump
 * back here. */
static int run_job(struct job *j, struct grab_result *ret)
{
	jmp_buf *jb = j->rq->format == GRAB_JPEG ? &j->jpeg.jb : &png_jmpbuf(j->png.png);
	if (setjmp(*jb)) {
		stop_producer(j);
		return error_set(j->err, -EIO, "cannot encode the picture");
	}
	int r = 0;
	if (!j->identity) {
		r = thumbscale_init(&j->sc, j->g.w, j->g.h, j->ow, j->oh, ring_put, &j->q);
	}
	j->q.row_bytes = (size_t)j->ow * 3;
	j->q.rows = malloc(RING_ROWS * j->q.row_bytes);
	j->tmp = malloc((size_t)j->g.w * 4);
	j->rgb = malloc((size_t)j->g.w * 3);
	if (r < 0 || !j->q.rows || !j->tmp || !j->rgb) {
		return error_set(j->err, -ENOMEM, "out of memory");
	}
	enc_start(j);
	r = -pthread_create(&j->thread, NULL, produce, j);
	if (r < 0) {
		return error_set(j->err, r, "cannot start a thread: %s", strerror(-r));
	}
	j->started = true;
	for (unsigned oy = 0; oy < j->oh; oy++) {
		const unsigned char *row = ring_get(&j->q);
		if (!row) {
			break;
		}
		enc_row(j, row);
		ring_release(&j->q);
	}
	stop_producer(j);
	if (j->q.error == -ECONNRESET) {
		return -ECONNRESET;
	}
	if (j->q.error < 0 || j->q.consumed != j->oh) {
		return error_set(j->err, j->q.error < 0 ? j->q.error : -EIO,
				 "cannot read the screen's pixels");
	}
	ret->w = j->ow;
	ret->h = j->oh;
	r = enc_finish(j, ret);
	if (r < 0) {
		return error_set(j->err, r, "out of memory");
	}
	return 0;
}

/* The set-up and tear-down talk to the server from this thread: a step under the guard that
 * turns a lost connection into -ECONNRESET. */
static int guarded(struct job *j, void (*step)(struct grabber *g))
{
	struct xconn_guard guard;
	xconn_guard_push(&guard);
	if (sigsetjmp(guard.jb, 1) != 0) {
		return -ECONNRESET;
	}
	step(&j->g);
	xconn_guard_pop(&guard);
	return 0;
}

int grab_encode(Display *dpy, const struct grab_request *rq, struct grab_result *ret,
		struct error *err)
{
	*ret = (struct grab_result){0};
	struct job j = {.rq = rq, .err = err, .g = {.dpy = dpy}};
	if (rq->w > 0) {
		j.g.x0 = rq->x;
		j.g.y0 = rq->y;
		j.g.w = rq->w;
		j.g.h = rq->h;
	} else {
		int screen = DefaultScreen(dpy);
		j.g.w = (unsigned)DisplayWidth(dpy, screen);
		j.g.h = (unsigned)DisplayHeight(dpy, screen);
	}
	if (j.g.w == 0 || j.g.h == 0) {
		return error_set(err, -EINVAL, "the region to grab is empty");
	}
	if (rq->max_w > 0 && rq->max_h > 0) {
		if (rq->enlarge) {
			thumbscale_fill(j.g.w, j.g.h, rq->max_w, rq->max_h, &j.ow, &j.oh);
		} else {
			thumbscale_fit(j.g.w, j.g.h, rq->max_w, rq->max_h, &j.ow, &j.oh);
		}
	} else {
		j.ow = j.g.w;
		j.oh = j.g.h;
	}
	j.identity = j.ow == j.g.w && j.oh == j.g.h;
	ring_init(&j.q);
	int r = rq->format == GRAB_JPEG ? jpegenc_init(&j.jpeg) : pngenc_init(&j.png);
	if (r < 0) {
		r = error_set(err, r, "out of memory");
	} else {
		r = guarded(&j, grabber_setup);
		if (r == 0) {
			r = run_job(&j, ret);
		}
		if (r != -ECONNRESET && guarded(&j, grabber_detach) < 0) {
			r = -ECONNRESET;
		}
	}
	grabber_drop_shm(&j.g);
	thumbscale_free(&j.sc);
	ring_free(&j.q);
	if (rq->format == GRAB_JPEG) {
		jpegenc_free(&j.jpeg);
	} else {
		pngenc_free(&j.png);
	}
	free(j.tmp);
	free(j.rgb);
	if (r < 0) {
		free(ret->data);
		*ret = (struct grab_result){0};
	}
	if (r == -ECONNRESET) {
		r = error_set(err, r, "the desktop's X server went away");
	}
	return r;
}
