/* The recorder's RFB client (rfbclient.h). */
#include "rfbclient.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "fileio.h"
#include "recording.h"
#include "rfbframe.h"
#include "util.h"

static int read_exact(int fd, void *buf, size_t len)
{
	ssize_t n = read_all(fd, buf, len);
	if (n < 0) {
		return (int)n;
	}
	return (size_t)n == len ? 0 : -ECONNRESET;
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static int connect_door(const char *path, uint64_t timeout_ms)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sa.sun_path)) {
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return negative_errno();
	}
	struct timeval tv = {.tv_sec = (time_t)(timeout_ms / 1000),
			     .tv_usec = (suseconds_t)(timeout_ms % 1000) * 1000};
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		return negative_errno();
	}
	return TAKE_FD(fd);
}

/* Version, security None, the result, ClientInit (shared: never disconnects another viewer). */
static int negotiate(int fd, unsigned *ret_w, unsigned *ret_h)
{
	uint8_t ver[12];
	int r = read_exact(fd, ver, sizeof(ver));
	if (r < 0) {
		return r;
	}
	if (memcmp(ver, "RFB 003.", 8) != 0) {
		return -EPROTO;
	}
	if ((r = write_all(fd, "RFB 003.008\n", 12)) < 0) {
		return r;
	}
	uint8_t n, types[255];
	if ((r = read_exact(fd, &n, 1)) < 0 || n == 0 || (r = read_exact(fd, types, n)) < 0) {
		return r < 0 ? r : -EPROTO;
	}
	if (!memchr(types, 1, n)) {
		return -EPROTO;
	}
	uint8_t none = 1, result[4], shared = 1;
	if ((r = write_all(fd, &none, 1)) < 0 || (r = read_exact(fd, result, 4)) < 0) {
		return r;
	}
	if (memcmp(result, "\0\0\0\0", 4) != 0) {
		return -EACCES;
	}
	uint8_t init[24];
	if ((r = write_all(fd, &shared, 1)) < 0 || (r = read_exact(fd, init, sizeof(init))) < 0) {
		return r;
	}
	uint32_t name_len = (uint32_t)init[20] << 24 | (uint32_t)init[21] << 16 |
			    (uint32_t)init[22] << 8 | init[23];
	/* The desktop's name is not kept: drained in pieces. */
	for (uint8_t skip[256]; name_len > 0;) {
		size_t k = name_len < sizeof(skip) ? name_len : sizeof(skip);
		if ((r = read_exact(fd, skip, k)) < 0) {
			return r;
		}
		name_len -= (uint32_t)k;
	}
	*ret_w = (unsigned)init[0] << 8 | init[1];
	*ret_h = (unsigned)init[2] << 8 | init[3];
	return 0;
}

/* The pixel format of recording.h and the encodings the framer knows: ZRLE first (a still
 * screen sends nothing; a change costs its tiles, compressed), CompressLevel 1, no cursor
 * pseudo-encoding (Xvnc then draws the pointer into the picture, where the recording wants it). */
static int ask_format(int fd)
{
	uint8_t pf[20] = {0, 0, 0, 0, REC_BPP, REC_DEPTH, 0 /* little-endian */,
			  1 /* true colour */};
	put16(pf + 8, 255);
	put16(pf + 10, 255);
	put16(pf + 12, 255);
	pf[14] = 16;
	pf[15] = 8;
	pf[16] = 0;
	static const int32_t encs[] = {
		RFB_ENC_ZRLE,         RFB_ENC_COPYRECT,         RFB_ENC_RAW,
		RFB_ENC_DESKTOP_SIZE, RFB_ENC_EXT_DESKTOP_SIZE, RFB_ENC_COMPRESS_LEVEL_1};
	uint8_t se[4 + 4 * ARRAY_SIZE(encs)] = {2, 0};
	put16(se + 2, ARRAY_SIZE(encs));
	for (size_t i = 0; i < ARRAY_SIZE(encs); i++) {
		put32(se + 4 + 4 * i, (uint32_t)encs[i]);
	}
	int r = write_all(fd, pf, sizeof(pf));
	return r < 0 ? r : write_all(fd, se, sizeof(se));
}

int rfbclient_open(const char *path, uint64_t timeout_ms, unsigned *ret_w, unsigned *ret_h)
{
	_cleanup_close_ int fd = connect_door(path, timeout_ms);
	if (fd < 0) {
		return fd;
	}
	unsigned w, h;
	int r = negotiate(fd, &w, &h);
	if (r == 0) {
		r = ask_format(fd);
	}
	if (r < 0) {
		return r;
	}
	*ret_w = w;
	*ret_h = h;
	return TAKE_FD(fd);
}

int rfbclient_request(int fd, unsigned w, unsigned h, bool incremental)
{
	uint8_t m[10] = {3, incremental ? 1 : 0};
	put16(m + 6, w);
	put16(m + 8, h);
	return write_all(fd, m, sizeof(m));
}
