/* The flight recorder's files (recording.h). */
#include "recording.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "fileio.h"
#include "launcher.h"
#include "parse.h"
#include "proc.h"
#include "util.h"

static void put_be(uint8_t *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		p[i] = (uint8_t)(v & 0xff);
		v >>= 8;
	}
}

static uint64_t get_be(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++) {
		v = (v << 8) | p[i];
	}
	return v;
}

void rec_header_encode(const struct rec_header *h, uint8_t out[REC_HEADER_SIZE])
{
	memcpy(out, REC_MAGIC, 8);
	put_be(out + 8, h->start_ms, 8);
	put_be(out + 16, h->width, 2);
	put_be(out + 18, h->height, 2);
	put_be(out + 20, 0, 4);
}

int rec_header_decode(const uint8_t in[REC_HEADER_SIZE], struct rec_header *ret)
{
	if (memcmp(in, REC_MAGIC, 8) != 0) {
		return -EINVAL;
	}
	struct rec_header h = {
		.start_ms = get_be(in + 8, 8),
		.width = (unsigned)get_be(in + 16, 2),
		.height = (unsigned)get_be(in + 18, 2),
	};
	if (h.width < LAUNCHER_GEOMETRY_MIN || h.width > LAUNCHER_GEOMETRY_MAX ||
	    h.height < LAUNCHER_GEOMETRY_MIN || h.height > LAUNCHER_GEOMETRY_MAX) {
		return -EINVAL;
	}
	*ret = h;
	return 0;
}

int rec_meta_format(const struct rec_meta *m, char *buf, size_t size)
{
	int n = snprintf(buf, size, "start_ms=%llu\nend_ms=%llu\nwidth=%u\nheight=%u\n",
			 (unsigned long long)m->start_ms, (unsigned long long)m->end_ms, m->width,
			 m->height);
	return n < 0 || (size_t)n >= size ? -ENOSPC : n;
}

/* "key=<number>\n" at *p, advancing it. */
static int take_number(const char **p, const char *key, uint64_t max, uint64_t *ret)
{
	size_t kl = strlen(key);
	if (strncmp(*p, key, kl) != 0 || (*p)[kl] != '=') {
		return -EINVAL;
	}
	const char *v = *p + kl + 1;
	const char *nl = strchr(v, '\n');
	if (!nl) {
		return -EINVAL;
	}
	int r = parse_u64_n(v, (size_t)(nl - v), max, ret);
	if (r < 0) {
		return r;
	}
	*p = nl + 1;
	return 0;
}

int rec_meta_parse(const char *text, struct rec_meta *ret)
{
	const char *p = text;
	uint64_t start, end, w, h;
	int r = take_number(&p, "start_ms", UINT64_MAX / 2, &start);
	r = r < 0 ? r : take_number(&p, "end_ms", UINT64_MAX / 2, &end);
	r = r < 0 ? r : take_number(&p, "width", LAUNCHER_GEOMETRY_MAX, &w);
	r = r < 0 ? r : take_number(&p, "height", LAUNCHER_GEOMETRY_MAX, &h);
	if (r < 0 || *p != '\0' || (end != 0 && end < start)) {
		return -EINVAL;
	}
	*ret = (struct rec_meta){start, end, (unsigned)w, (unsigned)h};
	return 0;
}

int rec_file_name(const char *id, const char *ext, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s.%s", id, ext);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int rec_meta_read_at(int dirfd, const char *id, struct rec_meta *ret)
{
	char name[RECORDING_ID_MAX + 8], text[256];
	int r = rec_file_name(id, "meta", name, sizeof(name));
	if (r == 0) {
		r = read_file_at(dirfd, name, text, sizeof(text), NULL);
	}
	return r < 0 ? r : rec_meta_parse(text, ret);
}

int rec_meta_write_at(int dirfd, const char *id, const struct rec_meta *m)
{
	char name[RECORDING_ID_MAX + 8], text[256];
	int r = rec_file_name(id, "meta", name, sizeof(name));
	int n = r < 0 ? r : rec_meta_format(m, text, sizeof(text));
	return n < 0 ? n : write_file_atomic_at(dirfd, name, text, (size_t)n, 0600);
}

bool rec_id_valid(const char *id)
{
	size_t len = strlen(id);
	if (len < 15 || len > RECORDING_ID_MAX) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		bool digit = id[i] >= '0' && id[i] <= '9';
		bool dash_ok = id[i] == '-' && (i == 8 || (i == 15 && len > 16));
		if (!digit && !dash_ok) {
			return false;
		}
	}
	return id[8] == '-';
}

int rec_running_parse(const char *text, struct rec_running *ret)
{
	char id[RECORDING_ID_MAX + 2];
	char pid_s[24], st_s[24];
	if (sscanf(text, "%23s %23s %33s", pid_s, st_s, id) != 3 || !rec_id_valid(id)) {
		return -EINVAL;
	}
	uint64_t pid, st;
	if (parse_u64(pid_s, INT32_MAX, &pid) < 0 || !pid_is_plausible(pid) ||
	    parse_u64(st_s, UINT64_MAX, &st) < 0) {
		return -EINVAL;
	}
	ret->pid = (int)pid;
	ret->starttime = st;
	memcpy(ret->id, id, strlen(id) + 1);
	return 0;
}

int rec_running_read_at(int profile_dirfd, struct rec_running *ret)
{
	char text[128];
	int r = read_file_at(profile_dirfd, RECORDER_FILE, text, sizeof(text), NULL);
	return r < 0 ? r : rec_running_parse(text, ret);
}

int rec_events_append_at(int dirfd, const char *id, const char *line)
{
	char name[RECORDING_ID_MAX + 8];
	int r = rec_file_name(id, "events", name, sizeof(name));
	if (r < 0) {
		return r;
	}
	_cleanup_close_ int fd = open_regular_at(dirfd, name, O_WRONLY | O_APPEND | O_CREAT, 0600);
	if (fd < 0) {
		return fd;
	}
	return write_all(fd, line, strlen(line));
}

static int by_id(const void *a, const void *b)
{
	return strcmp(((const struct rec_id *)a)->s, ((const struct rec_id *)b)->s);
}

int rec_list_ids(int dirfd, const char *ext, struct rec_id **ret, size_t *ret_n)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		return negative_errno();
	}
	_cleanup_closedir_ DIR *dir = NULL;
	int r = opendir_fd(fd, &dir);
	if (r < 0) {
		return r;
	}
	_cleanup_free_ struct rec_id *v = NULL;
	size_t n = 0, cap = 0, extlen = strlen(ext);
	struct dirent *de;
	while ((de = readdir(dir))) {
		size_t len = strlen(de->d_name);
		if (len < extlen + 2 || len - extlen - 1 > RECORDING_ID_MAX ||
		    de->d_name[len - extlen - 1] != '.' || !streq(de->d_name + len - extlen, ext)) {
			continue;
		}
		if (ARRAY_RESERVE(v, cap, n + 1, 16) < 0) {
			return -ENOMEM;
		}
		memcpy(v[n].s, de->d_name, len - extlen - 1);
		v[n].s[len - extlen - 1] = '\0';
		n += rec_id_valid(v[n].s);
	}
	if (n > 0) {
		qsort(v, n, sizeof(*v), by_id);
	}
	*ret = TAKE_PTR(v);
	*ret_n = n;
	return 0;
}
