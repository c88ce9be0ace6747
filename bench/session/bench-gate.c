/* The gate's figures: frames per second and bytes through the gate against straight to Xvnc
 * for a full-screen repaint loop, the latency the gate adds to a request's round trip, the
 * gate's CPU meanwhile, and the whole-process time of `botdesk take` and `botdesk release`.
 *
 * Run as a normal user with a desktop running (default profile of BOTDESK_STATE_DIR):
 *     build/bench/session/bench-gate build/runner/botdesk [SECONDS]
 * It starts its own painter on the desktop (`botdesk exec -- bench-gate --paint`). */
#include <X11/Xlib.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchlib.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	fprintf(stderr, "bench-gate: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The painter: fills the whole screen with alternating colours as fast as the server takes it. */
static int paint(void)
{
	Display *dpy = XOpenDisplay(NULL);
	if (!dpy) {
		fprintf(stderr, "bench-gate: no display\n");
		return 1;
	}
	int s = DefaultScreen(dpy);
	Window root = RootWindow(dpy, s);
	GC gc = XCreateGC(dpy, root, 0, NULL);
	XSetSubwindowMode(dpy, gc, IncludeInferiors);
	for (unsigned long i = 0;; i++) {
		XSetForeground(dpy, gc, (i & 1) ? 0x204080 : 0x80c040 + (i & 0xff));
		XFillRectangle(dpy, root, gc, 0, 0, (unsigned)DisplayWidth(dpy, s),
			       (unsigned)DisplayHeight(dpy, s));
		XSync(dpy, False);
	}
}

struct conn {
	int fd;
	unsigned w, h;
	uint8_t buf[1 << 16];
	size_t have, off;
};

static void need(struct conn *c, void *out, size_t n)
{
	uint8_t *p = out;
	while (n > 0) {
		if (c->off == c->have) {
			ssize_t r = read(c->fd, c->buf, sizeof(c->buf));
			if (r <= 0) {
				die("read");
			}
			c->have = (size_t)r;
			c->off = 0;
		}
		size_t m = c->have - c->off < n ? c->have - c->off : n;
		if (p) {
			memcpy(p, c->buf + c->off, m);
			p += m;
		}
		c->off += m;
		n -= m;
	}
}

static void put(struct conn *c, const void *p, size_t n)
{
	if (write(c->fd, p, n) != (ssize_t)n) {
		die("write");
	}
}

static void rfb_open(struct conn *c, const char *path)
{
	*c = (struct conn){0};
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		die(path);
	}
	uint8_t b[24];
	need(c, b, 12);
	put(c, "RFB 003.008\n", 12);
	need(c, b, 1);
	need(c, NULL, b[0]);
	put(c, "\x01", 1);
	need(c, b, 4);
	put(c, "\x01", 1);
	need(c, b, 24);
	c->w = (unsigned)(b[0] << 8 | b[1]);
	c->h = (unsigned)(b[2] << 8 | b[3]);
	uint32_t name =
		(uint32_t)b[20] << 24 | (uint32_t)b[21] << 16 | (uint32_t)b[22] << 8 | b[23];
	need(c, NULL, name);
	/* Raw only: the most bytes per frame, the gate's worst case. */
	static const uint8_t enc[] = {2, 0, 0, 1, 0, 0, 0, 0};
	put(c, enc, sizeof(enc));
}

static void request(struct conn *c, int incremental, unsigned w, unsigned h)
{
	uint8_t m[10] = {3,          (uint8_t)incremental, 0,         0, 0, 0, (uint8_t)(w >> 8),
			 (uint8_t)w, (uint8_t)(h >> 8),    (uint8_t)h};
	put(c, m, sizeof(m));
}

/* Reads one FramebufferUpdate whole; its bytes. */
static size_t update(struct conn *c)
{
	uint8_t h[12];
	for (;;) {
		need(c, h, 1);
		if (h[0] == 0) {
			break;
		}
		if (h[0] != 2) {
			fprintf(stderr, "bench-gate: server message %d\n", h[0]);
			exit(1);
		}
	}
	need(c, h, 3);
	unsigned n = (unsigned)(h[1] << 8 | h[2]);
	size_t bytes = 4;
	for (unsigned i = 0; i < n; i++) {
		need(c, h, 12);
		unsigned w = (unsigned)(h[4] << 8 | h[5]), hh = (unsigned)(h[6] << 8 | h[7]);
		need(c, NULL, (size_t)w * hh * 4);
		bytes += 12 + (size_t)w * hh * 4;
	}
	return bytes;
}

static double pct(double *v, size_t n, double p)
{
	bench_sort(v, n);
	return v[(size_t)(p * (double)(n - 1))];
}

/* Median round trip of a one-pixel non-incremental request, in microseconds. */
static double latency(const char *path, double *p99)
{
	enum { N = 3000 };
	static double t[N];
	struct conn c;
	rfb_open(&c, path);
	for (int i = 0; i < N; i++) {
		double a = now_s();
		request(&c, 0, 1, 1);
		update(&c);
		t[i] = (now_s() - a) * 1e6;
	}
	close(c.fd);
	*p99 = pct(t, N, 0.99);
	return pct(t, N, 0.5);
}

static unsigned long long cpu_ticks(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0) {
		close(fd);
	}
	if (n <= 0) {
		return 0;
	}
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	unsigned long long ut = 0, st = 0;
	if (p) {
		(void)sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
			     &st);
	}
	return ut + st;
}

/* Frames per second and MB/s of a full-screen incremental update loop for secs. */
static void throughput(const char *path, double secs, pid_t gate, double *fps, double *mbs,
		       double *cpu)
{
	struct conn c;
	rfb_open(&c, path);
	request(&c, 0, c.w, c.h);
	update(&c);
	unsigned long long t0 = gate ? cpu_ticks(gate) : 0;
	double start = now_s(), end = start + secs;
	size_t frames = 0, bytes = 0;
	while (now_s() < end) {
		request(&c, 1, c.w, c.h);
		bytes += update(&c);
		frames++;
	}
	double el = now_s() - start;
	unsigned long long t1 = gate ? cpu_ticks(gate) : 0;
	close(c.fd);
	*fps = (double)frames / el;
	*mbs = (double)bytes / el / 1e6;
	*cpu = gate ? (double)(t1 - t0) / (double)sysconf(_SC_CLK_TCK) / el * 100 : 0;
}

static double run_ms(char *const argv[])
{
	double a = now_s();
	pid_t p = fork();
	if (p == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	int st;
	waitpid(p, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bench-gate: %s %s failed\n", argv[0], argv[1]);
		exit(1);
	}
	return (now_s() - a) * 1e3;
}

static pid_t find_gate(const char *dir)
{
	char path[4200], buf[64];
	pid_t launcher = bench_launcher_pid(dir);
	if (launcher < 0) {
		die("launcher.pid");
	}
	snprintf(path, sizeof(path), "pgrep -P %d -x botdesk-gate", (int)launcher);
	FILE *p = popen(path, "re");
	int gate = 0;
	if (!p || !fgets(buf, sizeof(buf), p) || sscanf(buf, "%d", &gate) != 1) {
		die("pgrep botdesk-gate");
	}
	pclose(p);
	return gate;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "--paint") == 0) {
		return paint();
	}
	if (argc < 2) {
		fprintf(stderr, "usage: bench-gate BOTDESK [SECONDS]\n");
		return 2;
	}
	double secs = argc > 2 ? atof(argv[2]) : 5;
	const char *root = getenv("BOTDESK_STATE_DIR");
	char dir[4096], gate_sock[4200], xvnc_sock[4200], self[4096];
	snprintf(dir, sizeof(dir), "%s/default", root ? root : ".");
	snprintf(gate_sock, sizeof(gate_sock), "%s/rfb.sock", dir);
	snprintf(xvnc_sock, sizeof(xvnc_sock), "%s/xvnc.sock", dir);
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[n > 0 ? n : 0] = '\0';
	pid_t gate = find_gate(dir);

	double p99d, p99g;
	double ld = latency(xvnc_sock, &p99d), lg = latency(gate_sock, &p99g);
	printf("round trip of a 1-pixel update request: direct median %.0f us (p99 %.0f), "
	       "through the gate %.0f us (p99 %.0f): the gate adds %.0f us\n",
	       ld, p99d, lg, p99g, lg - ld);

	pid_t painter = fork();
	if (painter == 0) {
		execl(argv[1], argv[1], "exec", "--", self, "--paint", (char *)NULL);
		_exit(127);
	}
	/* The painter needs a moment to connect; the first full update absorbs the rest. */
	struct timespec ts = {.tv_nsec = 300 * 1000 * 1000};
	nanosleep(&ts, NULL);
	if (waitpid(painter, NULL, WNOHANG) != 0) {
		fprintf(stderr, "bench-gate: the painter did not start (is the agent holding the "
				"desktop?)\n");
		return 1;
	}
	double fd_, md, cd, fg, mg, cg;
	throughput(xvnc_sock, secs, 0, &fd_, &md, &cd);
	throughput(gate_sock, secs, gate, &fg, &mg, &cg);
	double fd2, md2, cd2;
	throughput(xvnc_sock, secs, 0, &fd2, &md2, &cd2);
	kill(painter, SIGTERM);
	waitpid(painter, NULL, 0);
	printf("full-screen repaint loop, raw: direct %.1f fps %.0f MB/s (again: %.1f fps %.0f "
	       "MB/s), through the gate %.1f fps %.0f MB/s = %.0f%% of direct; gate CPU %.1f%%\n",
	       fd_, md, fd2, md2, fg, mg, 100 * fg / ((fd_ + fd2) / 2), cg);

	enum { R = 41 };
	double take[R], rel[R], base[R];
	char true_path[] = "/bin/true";
	char *true_argv[] = {true_path, NULL};
	for (int i = 0; i < R; i++) {
		base[i] = run_ms(true_argv);
	}
	char take_cmd[] = "take", rel_cmd[] = "release";
	char *take_argv[] = {argv[1], take_cmd, NULL}, *rel_argv[] = {argv[1], rel_cmd, NULL};
	for (int i = 0; i < R; i++) {
		take[i] = run_ms(take_argv);
		rel[i] = run_ms(rel_argv);
	}
	printf("botdesk take: median %.2f ms (p90 %.2f); botdesk release (waits for the gate): "
	       "median %.2f ms (p90 %.2f); /bin/true on this host: median %.2f ms\n",
	       pct(take, R, 0.5), pct(take, R, 0.9), pct(rel, R, 0.5), pct(rel, R, 0.9),
	       pct(base, R, 0.5));
	return 0;
}
