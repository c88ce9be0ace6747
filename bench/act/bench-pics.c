/* The pictures' figures (issue 25.6), median and p99, on a running desktop covered by a window of
 * text in many colours (a screen of text is what costs an encoder; an empty desktop costs
 * nothing):
 *   - where the time goes, in-process: the X connection, the grab alone (one MIT-SHM
 *     XShmGetImage of the whole screen), the scaler alone, the PNG and JPEG encoders alone, and
 *     grab_encode() whole for the sizes the tools send;
 *   - whole processes: `/bin/true`, `botdesk --version`, botdesk-thumbnail run directly, `botdesk
 *     thumbnail` (960x600 PNG), `botdesk screenshot` (the CLI: the screen's size, PNG);
 *   - MCP round trips on a server that is up: the default screenshot (sized for the model), as
 *     PNG and as JPEG.
 * Usage, as the desktop's user with the profile's settings in the environment:
 *   bench-pics PATH-TO-botdesk [ROUNDS]
 *   bench-pics PATH-TO-botdesk --cover   (only the screen of text, until killed: for timing
 *                                         other commands against it)
 * botdesk-thumbnail is found through BOTDESK_THUMBNAILER (as the runner finds it), or skipped. */
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/resource.h>
#include <sys/shm.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchlib.h"
#include "grab.h"
#include "jpegenc.h"
#include "modelpic.h"
#include "pngenc.h"
#include "thumbscale.h"
#include "xconn.h"

extern char **environ;

#define S(x) ((char[]){x})

/* The CPU time of this process (every thread), in ms. */
static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* v[0..n) the wall times, v[n..2n) the CPU times: on a machine shared with other work the wall
 * time measures the load as much as the code, the CPU time the code. */
static void report(const char *what, double *v, int n, size_t bytes)
{
	bench_sort(v, (size_t)n);
	bench_sort(v + n, (size_t)n);
	printf("%-58s median %7.2f ms  p99 %7.2f ms  cpu %6.2f ms", what, v[n / 2],
	       v[(n * 99) / 100], v[n + n / 2]);
	if (bytes) {
		printf("  (n=%d, %zu bytes)\n", n, bytes);
	} else {
		printf("  (n=%d)\n", n);
	}
}

/* Runs argv with stdout to /dev/null; its wall time in ms (and its CPU time in *cpu), or -1 when
 * it failed. */
static double run(char *const argv[], double *cpu)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	double t0 = bench_now_ms();
	pid_t pid;
	int r = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r != 0) {
		return -1;
	}
	int status;
	struct rusage ru;
	wait4(pid, &status, 0, &ru);
	double t = bench_now_ms() - t0;
	*cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

static void series(const char *what, char *const argv[], double *v, int rounds)
{
	for (int i = -2; i < rounds; i++) {
		double cpu;
		double t = run(argv, &cpu);
		if (t < 0) {
			printf("%-58s (cannot run %s)\n", what, argv[0]);
			return;
		}
		if (i >= 0) {
			v[i] = t;
			v[rounds + i] = cpu;
		}
	}
	report(what, v, rounds, 0);
}

/* A window over the whole screen full of text in many colours, on its own connection (kept open
 * for the whole run). */
static Display *cover_screen(unsigned *ret_w, unsigned *ret_h)
{
	Display *d = XOpenDisplay(NULL);
	if (!d) {
		return NULL;
	}
	int scr = DefaultScreen(d);
	unsigned w = (unsigned)DisplayWidth(d, scr), h = (unsigned)DisplayHeight(d, scr);
	XSetWindowAttributes at = {.override_redirect = True,
				   .background_pixel = WhitePixel(d, scr)};
	Window win =
		XCreateWindow(d, RootWindow(d, scr), 0, 0, w, h, 0, CopyFromParent, InputOutput,
			      CopyFromParent, CWOverrideRedirect | CWBackPixel, &at);
	XMapRaised(d, win);
	XSync(d, False);
	GC gc = XCreateGC(d, win, 0, NULL);
	static const char *const words[] = {"botdesk", "thumbnail", "encode", "the", "screen",
					    "agent",   "picture",   "model",  "of",  "zlib"};
	char line[512];
	unsigned seed = 1;
	for (unsigned y = 12, row = 0; y < h; y += 14, row++) {
		size_t len = 0;
		while (len < sizeof(line) - 16) {
			seed = seed * 1103515245 + 12345;
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%s ",
						words[(seed >> 16) % 10]);
		}
		XSetForeground(d, gc, (row * 0x2f1d3b) & 0x7f7f7f);
		XDrawString(d, win, gc, 4 + (int)(row % 7), (int)y, line, (int)len);
	}
	for (unsigned i = 0; i < 40; i++) {
		seed = seed * 1103515245 + 12345;
		XSetForeground(d, gc, seed & 0xffffff);
		XFillRectangle(d, win, gc, (int)((seed >> 8) % w), (int)((seed >> 4) % h), 60, 24);
	}
	XSync(d, False);
	*ret_w = w;
	*ret_h = h;
	return d;
}

struct sink {
	struct pngenc *png;
	struct jpegenc *jpeg;
	unsigned char *rows;
	size_t row_bytes, n;
};

static void keep_row(void *ctx, const unsigned char *row)
{
	struct sink *s = ctx;
	memcpy(s->rows + s->n++ * s->row_bytes, row, s->row_bytes);
}

/* One encode of rows; the encoded size (0 on an error). */
static size_t png_once(unsigned w, unsigned h, const unsigned char *rows, size_t row_bytes)
{
	struct pngenc e;
	unsigned char *out = NULL;
	size_t bytes = 0;
	pngenc_init(&e);
	if (setjmp(png_jmpbuf(e.png)) == 0) {
		pngenc_start(&e, w, h);
		for (unsigned y = 0; y < h; y++) {
			pngenc_write_row(&e, rows + (size_t)y * row_bytes);
		}
		pngenc_finish(&e, &out, &bytes);
	}
	pngenc_free(&e);
	free(out);
	return bytes;
}

static size_t jpeg_once(unsigned w, unsigned h, const unsigned char *rows, size_t row_bytes)
{
	struct jpegenc e;
	unsigned char *out = NULL;
	size_t bytes = 0;
	jpegenc_init(&e);
	if (setjmp(e.jb) == 0) {
		jpegenc_start(&e, w, h, 85);
		for (unsigned y = 0; y < h; y++) {
			jpegenc_write_row(&e, rows + (size_t)y * row_bytes);
		}
		jpegenc_finish(&e, &out, &bytes);
	}
	jpegenc_free(&e);
	free(out);
	return bytes;
}

/* The stages one at a time on one frame of the screen. */
static void stages(Display *d, unsigned sw, unsigned sh, double *v, int rounds)
{
	int scr = DefaultScreen(d);
	XShmSegmentInfo shm;
	XImage *img = XShmCreateImage(d, DefaultVisual(d, scr), (unsigned)DefaultDepth(d, scr),
				      ZPixmap, NULL, &shm, sw, sh);
	shm.shmid = shmget(IPC_PRIVATE, (size_t)img->bytes_per_line * sh, IPC_CREAT | 0600);
	shm.shmaddr = img->data = shmat(shm.shmid, NULL, 0);
	shmctl(shm.shmid, IPC_RMID, NULL);
	shm.readOnly = False;
	if (!XShmAttach(d, &shm)) {
		printf("(no MIT-SHM: the stages are skipped)\n");
		return;
	}
	for (int i = -2; i < rounds; i++) {
		double t0 = bench_now_ms(), c0 = cpu_ms();
		XShmGetImage(d, RootWindow(d, scr), img, 0, 0, AllPlanes);
		if (i >= 0) {
			v[i] = bench_now_ms() - t0;
			v[rounds + i] = cpu_ms() - c0;
		}
	}
	report("grab alone: XShmGetImage of the whole screen", v, rounds, 0);
	const struct {
		const char *what;
		unsigned w, h;
	} sizes[] = {
		{"960x600 (thumbnail)", 960, 600},
		{"model size", 0, 0},
		{"full size", sw, sh},
	};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		unsigned ow = sizes[k].w, oh = sizes[k].h;
		if (!ow) {
			modelpic_size(sw, sh, &ow, &oh);
		} else if (ow != sw) {
			thumbscale_fit(sw, sh, ow, oh, &ow, &oh);
		}
		struct sink s = {.row_bytes = (size_t)ow * 3};
		s.rows = malloc(s.row_bytes * oh);
		char what[128];
		for (int i = -2; i < rounds; i++) {
			s.n = 0;
			double t0 = bench_now_ms(), c0 = cpu_ms();
			if (ow == sw) {
				for (unsigned y = 0; y < sh; y++) {
					const uint8_t *src =
						(const uint8_t *)img->data +
						(size_t)y * (size_t)img->bytes_per_line;
					unsigned char *o = s.rows + (size_t)y * s.row_bytes;
					for (unsigned x = 0; x < sw; x++) {
						o[3 * x] = src[4 * x + 2];
						o[3 * x + 1] = src[4 * x + 1];
						o[3 * x + 2] = src[4 * x];
					}
				}
			} else {
				struct thumbscale sc;
				thumbscale_init(&sc, sw, sh, ow, oh, keep_row, &s);
				for (unsigned y = 0; y < sh; y++) {
					thumbscale_push(
						&sc,
						(const uint8_t *)img->data +
							(size_t)y * (size_t)img->bytes_per_line);
				}
				thumbscale_free(&sc);
			}
			if (i >= 0) {
				v[i] = bench_now_ms() - t0;
				v[rounds + i] = cpu_ms() - c0;
			}
		}
		snprintf(what, sizeof(what), "scale alone to %ux%u (%s)", ow, oh, sizes[k].what);
		report(what, v, rounds, 0);
		size_t bytes = 0;
		for (int i = -2; i < rounds; i++) {
			double t0 = bench_now_ms(), c0 = cpu_ms();
			bytes = png_once(ow, oh, s.rows, s.row_bytes);
			if (i >= 0) {
				v[i] = bench_now_ms() - t0;
				v[rounds + i] = cpu_ms() - c0;
			}
		}
		snprintf(what, sizeof(what), "PNG encode alone, %ux%u", ow, oh);
		report(what, v, rounds, bytes);
		for (int i = -2; i < rounds; i++) {
			double t0 = bench_now_ms(), c0 = cpu_ms();
			bytes = jpeg_once(ow, oh, s.rows, s.row_bytes);
			if (i >= 0) {
				v[i] = bench_now_ms() - t0;
				v[rounds + i] = cpu_ms() - c0;
			}
		}
		snprintf(what, sizeof(what), "JPEG encode alone (quality 85), %ux%u", ow, oh);
		report(what, v, rounds, bytes);
		free(s.rows);
	}
	XShmDetach(d, &shm);
	shmdt(shm.shmaddr);
	img->data = NULL;
	XDestroyImage(img);
}

/* grab_encode() whole on a kept connection, and the connection itself. */
static void in_process(const char *display, const char *xauth, unsigned sw, unsigned sh, double *v,
		       int rounds)
{
	struct error err = {{0}};
	for (int i = -2; i < rounds; i++) {
		Display *d;
		double t0 = bench_now_ms(), c0 = cpu_ms();
		if (xconn_open(display, xauth, &d, &err) < 0) {
			printf("cannot connect: %s\n", err.msg);
			return;
		}
		XCloseDisplay(d);
		if (i >= 0) {
			v[i] = bench_now_ms() - t0;
			v[rounds + i] = cpu_ms() - c0;
		}
	}
	report("X connect and close (the profile's cookie)", v, rounds, 0);
	Display *d;
	if (xconn_open(display, xauth, &d, &err) < 0) {
		return;
	}
	unsigned mw, mh;
	modelpic_size(sw, sh, &mw, &mh);
	const struct {
		const char *what;
		unsigned w, h;
		enum grab_format f;
	} cases[] = {
		{"grab_encode 960x600 PNG (thumbnail)", 960, 600, GRAB_PNG},
		{"grab_encode model size PNG (MCP default)", mw, mh, GRAB_PNG},
		{"grab_encode model size JPEG 85", mw, mh, GRAB_JPEG},
		{"grab_encode full size PNG (CLI screenshot)", 0, 0, GRAB_PNG},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct grab_request rq = {.max_w = cases[k].w,
					  .max_h = cases[k].h,
					  .format = cases[k].f,
					  .quality = 85};
		struct grab_result res = {0};
		for (int i = -2; i < rounds; i++) {
			double t0 = bench_now_ms(), c0 = cpu_ms();
			if (grab_encode(d, &rq, &res, &err) < 0) {
				printf("grab_encode: %s\n", err.msg);
				return;
			}
			if (i >= 0) {
				v[i] = bench_now_ms() - t0;
				v[rounds + i] = cpu_ms() - c0;
			}
			if (i < rounds - 1) {
				free(res.data);
			}
		}
		char what[128];
		snprintf(what, sizeof(what), "%s, %ux%u", cases[k].what, res.w, res.h);
		report(what, v, rounds, res.len);
		free(res.data);
	}
	XCloseDisplay(d);
}

/* The CPU time a process has used so far, in ms, from /proc (after the command's name, which
 * ends at the last ')', utime and stime are the 12th and 13th fields). */
static double server_cpu_ms(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f) {
		fclose(f);
	}
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	unsigned long long ut = 0, st = 0;
	if (!p ||
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2) {
		return 0;
	}
	return (double)(ut + st) * 1e3 / (double)sysconf(_SC_CLK_TCK);
}

/* MCP screenshot round trips on one server that is up. */
static void mcp_shots(const char *botdesk, double *v, int rounds)
{
	struct bench_mcp m = {0};
	bool ok = bench_mcp_start(&m, botdesk) == 0;
	/* The default (before issue 25: the screen's size as PNG), then the model size in each
	 * format, named. */
	static const char *const args[] = {"{}", "{\"max\":\"1389x868\",\"format\":\"png\"}",
					   "{\"max\":\"1389x868\",\"format\":\"jpeg\"}"};
	static const char *const what[] = {"MCP screenshot, no arguments (the default), round trip",
					   "MCP screenshot, 1389x868 PNG, round trip",
					   "MCP screenshot, 1389x868 JPEG 85, round trip"};
	for (int k = 0; k < 3 && ok; k++) {
		size_t len = 0;
		double c0 = 0;
		for (int i = -3; i < rounds && ok; i++) {
			if (i == 0) {
				c0 = server_cpu_ms(m.pid);
			}
			double t = bench_mcp_call(&m, i + 10, "screenshot", args[k], &len);
			ok = t >= 0;
			if (ok && i >= 0) {
				v[i] = t;
			}
		}
		/* The server's CPU time per call, on average (the kernel counts in ticks). */
		double c = (server_cpu_ms(m.pid) - c0) / rounds;
		for (int i = 0; i < rounds; i++) {
			v[rounds + i] = c;
		}
		if (ok) {
			report(what[k], v, rounds, len);
		}
	}
	if (!ok) {
		fprintf(stderr, "mcp: %.200s\n", m.line ? m.line : "no answer");
	}
	bench_mcp_stop(&m);
}

static int measure(char *bd, int rounds, char **argv)
{
	unsigned sw, sh;
	Display *cover = cover_screen(&sw, &sh);
	/* With --cover (no number) the rounds are the default's, and unused. */
	if (cover && argv[2] && strcmp(argv[2], "--cover") == 0) {
		for (;;) {
			pause();
		}
	}
	double *v = calloc(2 * (size_t)rounds, sizeof(double));
	if (!cover || !v) {
		fprintf(stderr, "bench-pics: cannot open the display\n");
		return 1;
	}
	char png[] = "/tmp/bench-pics-XXXXXX";
	int fd = mkstemp(png);
	if (fd < 0) {
		return 1;
	}
	close(fd);
	printf("screen %ux%u covered with text; model size ", sw, sh);
	unsigned mw, mh;
	modelpic_size(sw, sh, &mw, &mh);
	printf("%ux%u\n\n-- where the time goes, in-process\n", mw, mh);
	stages(cover, sw, sh, v, rounds);
	in_process(getenv("DISPLAY"), getenv("XAUTHORITY"), sw, sh, v, rounds);

	printf("\n-- whole processes\n");
	char *nop[] = {S("/bin/true"), NULL};
	char *version[] = {bd, S("--version"), NULL};
	char *thumb[] = {bd, S("thumbnail"), S("--output"), png, NULL};
	char *shot[] = {bd, S("screenshot"), S("--output"), png, NULL};
	series("`/bin/true` (one process start)", nop, v, rounds);
	series("`botdesk --version` (the runner's start)", version, v, rounds);
	char *thumbnailer = getenv("BOTDESK_THUMBNAILER");
	if (thumbnailer) {
		char *direct[] = {thumbnailer, getenv("DISPLAY"), getenv("XAUTHORITY"),
				  S("960x600"), NULL};
		series("botdesk-thumbnail run directly (960x600 PNG)", direct, v, rounds);
	}
	series("`botdesk thumbnail --output F` (960x600 PNG; goal <= 15)", thumb, v, rounds);
	series("`botdesk screenshot --output F` (CLI: screen size PNG)", shot, v, rounds);
	unlink(png);

	printf("\n-- MCP, the server up (goal: the default <= 25)\n");
	mcp_shots(bd, v, rounds);
	free(v);
	XCloseDisplay(cover);
	return 0;
}

int main(int argc, char **argv)
{
	return bench_desktop_main(argc, argv, 100, 5, 10000, measure);
}
