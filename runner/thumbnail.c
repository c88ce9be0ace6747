/* The thumbnail: grab the root window through libX11 (MIT-SHM when the server offers it), fit it
 * inside a box with an area-averaging filter, encode a PNG with settings chosen for speed. */
#include "thumbnail.h"

#include <X11/Xauth.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <fcntl.h>
#include <png.h>
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
#include <zlib.h>

#include "parse.h"
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

/* The largest size inside the box with the screen's aspect ratio; never larger than the
 * screen. */
static void fit(unsigned sw, unsigned sh, unsigned max_w, unsigned max_h, unsigned *ow,
		unsigned *oh)
{
	if (sw <= max_w && sh <= max_h) {
		*ow = sw;
		*oh = sh;
		return;
	}
	if ((uint64_t)sw * max_h >= (uint64_t)sh * max_w) {
		*ow = max_w;
		*oh = (unsigned)(((uint64_t)sh * max_w + sw / 2) / sw);
	} else {
		*oh = max_h;
		*ow = (unsigned)(((uint64_t)sw * max_h + sh / 2) / sh);
	}
	*ow = *ow ? *ow : 1;
	*oh = *oh ? *oh : 1;
}

/* Area averaging: every output pixel is the mean of the source area it covers, partly covered
 * source pixels weighted by how much of them it covers. Weights are fractions of 256 that sum to
 * exactly 256 per output pixel, so both passes are integer multiply-adds and shifts. */
struct axis {
	unsigned *first; /* per output index: its first source index */
	unsigned *n;     /* how many source indexes it covers */
	unsigned *off;   /* where its weights start in w */
	uint16_t *w;
};

static void axis_free(struct axis *a)
{
	free(a->first);
	free(a->n);
	free(a->off);
	free(a->w);
}

static int axis_make(unsigned src, unsigned dst, struct axis *a)
{
	*a = (struct axis){0};
	/* Each source index lands in at most two outputs when reducing. */
	size_t cap = (size_t)src + dst;
	a->first = calloc(dst, sizeof(unsigned));
	a->n = calloc(dst, sizeof(unsigned));
	a->off = calloc(dst, sizeof(unsigned));
	a->w = calloc(cap, sizeof(uint16_t));
	if (!a->first || !a->n || !a->off || !a->w) {
		axis_free(a);
		return -ENOMEM;
	}
	/* In units where a source pixel is dst long and an output pixel src long, the overlaps
	 * are exact integers summing to src. */
	size_t k = 0;
	for (unsigned o = 0; o < dst; o++) {
		uint64_t lo = (uint64_t)o * src, hi = lo + src;
		unsigned i = (unsigned)(lo / dst);
		a->first[o] = i;
		a->off[o] = (unsigned)k;
		unsigned total = 0;
		size_t biggest = k;
		for (; (uint64_t)i * dst < hi && i < src && k < cap; i++) {
			uint64_t from = (uint64_t)i * dst, to = from + dst;
			from = from > lo ? from : lo;
			to = to < hi ? to : hi;
			unsigned w = (unsigned)((((to - from) << 8) + src / 2) / src);
			if (w > a->w[biggest]) {
				biggest = k;
			}
			a->w[k++] = (uint16_t)w;
			total += w;
			a->n[o]++;
		}
		/* Rounding leaves the sum a little off 256: the largest weight absorbs it. */
		a->w[biggest] = (uint16_t)(a->w[biggest] + 256 - total);
	}
	return 0;
}

/* Streams source rows (32-bit BGRX) in, hands output rows (RGB) to a sink. Rows are
 * accumulated vertically as they arrive (a row counts towards at most two output rows), and an
 * output row is reduced horizontally once its last source row was added. Nothing larger than a
 * few rows is ever allocated: on a virtual machine, touching fresh memory costs more than the
 * arithmetic. */
struct scaler {
	unsigned sw, sh, ow, oh;
	struct axis xs, ys;
	uint16_t *acc[2]; /* the vertical sums of two output rows, 4 channels a pixel */
	uint8_t *vrow;    /* a finished vertical sum as levels */
	unsigned char *out;
	unsigned next_row; /* the next source row expected */
	unsigned oy;       /* the first output row not finished */
	void (*emit)(void *ctx, const unsigned char *row);
	void *ctx;
};

static void scaler_free(struct scaler *sc)
{
	axis_free(&sc->xs);
	axis_free(&sc->ys);
	free(sc->acc[0]);
	free(sc->acc[1]);
	free(sc->vrow);
	free(sc->out);
}

static int scaler_init(struct scaler *sc, unsigned sw, unsigned sh, unsigned ow, unsigned oh,
		       void (*emit)(void *ctx, const unsigned char *row), void *ctx)
{
	*sc = (struct scaler){.sw = sw, .sh = sh, .ow = ow, .oh = oh, .emit = emit, .ctx = ctx};
	int r = axis_make(sw, ow, &sc->xs);
	if (r == 0) {
		r = axis_make(sh, oh, &sc->ys);
	}
	sc->acc[0] = calloc((size_t)sw * 4, sizeof(uint16_t));
	sc->acc[1] = calloc((size_t)sw * 4, sizeof(uint16_t));
	sc->vrow = malloc((size_t)sw * 4);
	sc->out = malloc((size_t)ow * 3);
	if (r == 0 && (!sc->acc[0] || !sc->acc[1] || !sc->vrow || !sc->out)) {
		r = -ENOMEM;
	}
	return r;
}

/* The vertical pass runs on GCC/Clang vector types, sixteen bytes of a row at a time in 16-bit
 * lanes (a weight of at most 256 times a level of at most 255, summed over weights that total
 * 256, fits); at -O2 the compiler would leave the loop scalar. */
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint16_t u16x16 __attribute__((vector_size(32)));

/* A BGRX pixel spread into the four 16-bit lanes of a 64-bit word (B lowest), so that one
 * multiply weighs all four channels: a level times a weight is at most 65280 and the weights of
 * an output pixel sum to 256, so no lane ever carries into the next. */
static inline uint64_t spread(uint32_t px)
{
	uint64_t x = px;
	x = (x | (x << 16)) & 0x0000ffff0000ffffULL;
	return (x | (x << 8)) & 0x00ff00ff00ff00ffULL;
}

/* One row of levels (BGRX) reduced horizontally into RGB. */
static void reduce_row(const struct axis *restrict xs, unsigned ow, const uint8_t *restrict v,
		       unsigned char *restrict out)
{
	for (unsigned ox = 0; ox < ow; ox++) {
		const uint8_t *p = v + 4 * (size_t)xs->first[ox];
		const uint16_t *w = xs->w + xs->off[ox];
		uint64_t sum = 0;
		/* Two taps, the case of every reduction by less than two (1440 to 960), without
		 * the loop. */
		if (xs->n[ox] == 2) {
			uint32_t a, b;
			memcpy(&a, p, sizeof(a));
			memcpy(&b, p + 4, sizeof(b));
			sum = spread(a) * w[0] + spread(b) * w[1];
		} else {
			for (unsigned j = 0; j < xs->n[ox]; j++, p += 4) {
				uint32_t px;
				memcpy(&px, p, sizeof(px));
				sum += spread(px) * w[j];
			}
		}
		/* Back from weights summing to 256, rounded: each lane + 128, >> 8. */
		sum = ((sum + 0x0080008000800080ULL) >> 8) & 0x00ff00ff00ff00ffULL;
		out[3 * ox] = (unsigned char)(sum >> 32);
		out[3 * ox + 1] = (unsigned char)(sum >> 16);
		out[3 * ox + 2] = (unsigned char)sum;
	}
}

/* The vertical sums back to levels (rounded), the row reduced horizontally, and handed on. */
static void finish_row(struct scaler *sc)
{
	const uint16_t *acc = sc->acc[sc->oy & 1];
	uint8_t *restrict v = sc->vrow;
	size_t n = (size_t)sc->sw * 4, i = 0;
	for (; i + 16 <= n; i += 16) {
		u16x16 a;
		memcpy(&a, acc + i, sizeof(a));
		u8x16 b = __builtin_convertvector((a + 128) >> 8, u8x16);
		memcpy(v + i, &b, sizeof(b));
	}
	for (; i < n; i++) {
		v[i] = (uint8_t)((acc[i] + 128) >> 8);
	}
	reduce_row(&sc->xs, sc->ow, v, sc->out);
	sc->emit(sc->ctx, sc->out);
	sc->oy++;
}

/* acc (+)= w * row, sixteen bytes at a time; the first row of an output row sets it. */
static void accumulate(uint16_t *restrict acc, const uint8_t *restrict row, size_t n, uint16_t w,
		       bool first)
{
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		u8x16 b;
		u16x16 a = {0};
		memcpy(&b, row + i, sizeof(b));
		if (!first) {
			memcpy(&a, acc + i, sizeof(a));
		}
		a += __builtin_convertvector(b, u16x16) * w;
		memcpy(acc + i, &a, sizeof(a));
	}
	for (; i < n; i++) {
		acc[i] = (uint16_t)((first ? 0 : acc[i]) + w * row[i]);
	}
}

static void scaler_push(struct scaler *sc, const uint8_t *row)
{
	unsigned y = sc->next_row++;
	const struct axis *ys = &sc->ys;
	for (unsigned o = sc->oy; o < sc->oh && ys->first[o] <= y; o++) {
		unsigned k = y - ys->first[o];
		if (k < ys->n[o]) {
			accumulate(sc->acc[o & 1], row, (size_t)sc->sw * 4, ys->w[ys->off[o] + k],
				   k == 0);
		}
	}
	while (sc->oy < sc->oh && y + 1 >= ys->first[sc->oy] + ys->n[sc->oy]) {
		finish_row(sc);
	}
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
static int push_strip(struct scaler *sc, XImage *img, unsigned y0, uint8_t *tmp)
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
		scaler_push(sc, row);
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

struct membuf {
	unsigned char *data;
	size_t len, cap;
	bool failed;
};

static void png_write_mem(png_structp png, png_bytep data, png_size_t len)
{
	struct membuf *m = png_get_io_ptr(png);
	if (m->failed) {
		return;
	}
	if (m->len + len > m->cap) {
		size_t cap = m->cap ? m->cap : 64 * 1024;
		while (cap < m->len + len) {
			cap *= 2;
		}
		unsigned char *d = realloc(m->data, cap);
		if (!d) {
			m->failed = true;
			return;
		}
		m->data = d;
		m->cap = cap;
	}
	memcpy(m->data + m->len, data, len);
	m->len += len;
}

static void png_flush_mem(png_structp png)
{
}

/* Everything one thumbnail holds, so that every way out of the middle (libpng's error jump, a
 * broken X connection) can release it. */
struct job {
	unsigned max_w, max_h;
	struct grabber g;
	struct scaler sc;
	struct ring q;
	pthread_t thread;
	bool started;
	png_structp png;
	png_infop info;
	uint8_t *tmp;
	struct membuf m;
	struct error *err;
};

/* Chosen for speed on what screens hold: zlib level 1 with no row filter, and a small memLevel
 * (less memory to touch). Measured on a thumbnail of this desktop with text on it: 4.3 ms and
 * 121 KB, against 17.5 ms for libpng's defaults; run-length matching with the SUB filter, fine for
 * flat screens, took 7.7 ms and 252 KB there (docs/session.md). */
static void png_setup(struct job *j, unsigned ow, unsigned oh)
{
	png_set_write_fn(j->png, &j->m, png_write_mem, png_flush_mem);
	png_set_IHDR(j->png, j->info, ow, oh, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_compression_level(j->png, 1);
	png_set_compression_strategy(j->png, Z_DEFAULT_STRATEGY);
	png_set_compression_window_bits(j->png, 15);
	png_set_compression_mem_level(j->png, 5);
	png_set_filter(j->png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_write_info(j->png, j->info);
}

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
static int run_job(struct job *j)
{
	if (setjmp(png_jmpbuf(j->png))) {
		stop_producer(j);
		return error_set(j->err, -EIO, "cannot encode the PNG");
	}
	struct grabber *g = &j->g;
	unsigned ow, oh;
	fit(g->w, g->h, j->max_w, j->max_h, &ow, &oh);
	int r = scaler_init(&j->sc, g->w, g->h, ow, oh, ring_put, &j->q);
	j->q.row_bytes = (size_t)ow * 3;
	j->q.rows = malloc(RING_ROWS * j->q.row_bytes);
	j->tmp = malloc((size_t)g->w * 4);
	if (r < 0 || !j->q.rows || !j->tmp) {
		return error_set(j->err, -ENOMEM, "out of memory");
	}
	png_setup(j, ow, oh);
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
		png_write_row(j->png, row);
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
	png_write_end(j->png, NULL);
	if (j->m.failed) {
		return error_set(j->err, -ENOMEM, "out of memory");
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
	j.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	j.info = j.png ? png_create_info_struct(j.png) : NULL;
	int (*old_error)(Display *, XErrorEvent *) = XSetErrorHandler(on_error);
	int (*old_io)(Display *) = XSetIOErrorHandler(on_io_error);
	j.g.dpy = j.info ? open_display(display, cookie, cookie_len) : NULL;
	explicit_bzero(cookie, sizeof(cookie));
	if (!j.info) {
		r = error_set(err, -ENOMEM, "out of memory");
	} else if (!j.g.dpy) {
		r = error_set(err, -ECONNREFUSED,
			      "cannot connect to the desktop's X server %s with its cookie",
			      display);
	} else {
		r = setup_guarded(&j);
		if (r == 0) {
			r = run_job(&j);
		}
	}
	if (j.g.dpy && r != -ECONNRESET) {
		close_guarded(&j);
	}
	grabber_drop_shm(&j.g);
	scaler_free(&j.sc);
	ring_free(&j.q);
	png_destroy_write_struct(&j.png, &j.info);
	free(j.tmp);
	XSetErrorHandler(old_error);
	XSetIOErrorHandler(old_io);
	if (r == -ECONNRESET) {
		r = error_set(err, r, "the desktop's X server %s went away", display);
	}
	if (r < 0) {
		free(j.m.data);
		return r;
	}
	*ret_png = j.m.data;
	*ret_len = j.m.len;
	return 0;
}
