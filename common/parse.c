#include "parse.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

int parse_u64_n(const char *s, size_t len, uint64_t max, uint64_t *ret)
{
	if (!s || len == 0) {
		return -EINVAL;
	}
	uint64_t v = 0;
	bool overflow = false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') {
			return -EINVAL;
		}
		unsigned d = (unsigned)(s[i] - '0');
		/* Keep scanning after an overflow so that "99999...x" is still -EINVAL. */
		if (v > (UINT64_MAX - d) / 10) {
			overflow = true;
		} else {
			v = v * 10 + d;
		}
	}
	if (overflow || v > max) {
		return -ERANGE;
	}
	*ret = v;
	return 0;
}

int parse_hex_u64(const char *s, uint64_t max, uint64_t *ret)
{
	if (!s || !*s) {
		return -EINVAL;
	}
	uint64_t v = 0;
	bool overflow = false;
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9') {
			d = (unsigned)(*s - '0');
		} else if ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'f') {
			d = (unsigned)((*s | 0x20) - 'a' + 10);
		} else {
			return -EINVAL;
		}
		if (v > (UINT64_MAX >> 4)) {
			overflow = true;
		} else {
			v = v << 4 | d;
		}
	}
	if (overflow || v > max) {
		return -ERANGE;
	}
	*ret = v;
	return 0;
}

int parse_u64(const char *s, uint64_t max, uint64_t *ret)
{
	if (!s) {
		return -EINVAL;
	}
	return parse_u64_n(s, strlen(s), max, ret);
}

int parse_uint_range(const char *s, unsigned min, unsigned max, unsigned *ret)
{
	uint64_t v;
	int r = parse_u64(s, max, &v);
	if (r < 0) {
		return r;
	}
	if (v < min) {
		return -ERANGE;
	}
	*ret = (unsigned)v;
	return 0;
}

int parse_seconds_ms(const char *s, uint64_t max_ms, uint64_t *ret_ms)
{
	if (!s) {
		return -EINVAL;
	}
	const char *dot = strchr(s, '.');
	size_t ilen = dot ? (size_t)(dot - s) : strlen(s);
	uint64_t whole, frac = 0;
	int r = parse_u64_n(s, ilen, max_ms / 1000, &whole);
	if (r < 0) {
		return r;
	}
	if (dot) {
		size_t flen = strlen(dot + 1);
		if (flen == 0 || flen > 3) {
			return -EINVAL;
		}
		r = parse_u64_n(dot + 1, flen, 999, &frac);
		if (r < 0) {
			return r;
		}
		for (size_t i = flen; i < 3; i++) {
			frac *= 10;
		}
	}
	uint64_t ms = whole * 1000 + frac;
	if (ms > max_ms) {
		return -ERANGE;
	}
	*ret_ms = ms;
	return 0;
}

static int parse_pair(const char *s, char sep, unsigned max, uint64_t *a, uint64_t *b)
{
	if (!s) {
		return -EINVAL;
	}
	const char *p = strchr(s, sep);
	if (!p) {
		return -EINVAL;
	}
	int r = parse_u64_n(s, (size_t)(p - s), max, a);
	if (r < 0) {
		return r;
	}
	return parse_u64(p + 1, max, b);
}

int parse_geometry(const char *s, unsigned min, unsigned max, unsigned *ret_w, unsigned *ret_h)
{
	uint64_t w, h;
	int r = parse_pair(s, 'x', max, &w, &h);
	if (r < 0) {
		return r;
	}
	if (w < min || h < min) {
		return -ERANGE;
	}
	*ret_w = (unsigned)w;
	*ret_h = (unsigned)h;
	return 0;
}

int parse_range(const char *s, unsigned max, unsigned *ret_lo, unsigned *ret_hi)
{
	uint64_t lo, hi;
	int r = parse_pair(s, '-', max, &lo, &hi);
	if (r < 0) {
		return r;
	}
	if (lo > hi) {
		return -ERANGE;
	}
	*ret_lo = (unsigned)lo;
	*ret_hi = (unsigned)hi;
	return 0;
}
