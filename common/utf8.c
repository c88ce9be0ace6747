#include "utf8.h"

#include <errno.h>

int utf8_next(const char *s, size_t len, size_t *pos, uint32_t *ret)
{
	const unsigned char *p = (const unsigned char *)s + *pos;
	size_t left = len - *pos;
	if (left == 0) {
		return -EILSEQ;
	}
	uint32_t c = p[0];
	size_t n;
	uint32_t min;
	if (c < 0x80) {
		*ret = c;
		*pos += 1;
		return 0;
	} else if ((c & 0xe0) == 0xc0) {
		n = 2;
		c &= 0x1f;
		min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		n = 3;
		c &= 0x0f;
		min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return -EILSEQ;
	}
	if (left < n) {
		return -EILSEQ;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			return -EILSEQ;
		}
		c = (c << 6) | (p[i] & 0x3f);
	}
	/* Overlong forms would let one character pass for another; surrogates are not
	 * characters. */
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
		return -EILSEQ;
	}
	*ret = c;
	*pos += n;
	return 0;
}

int utf8_validate(const char *s, size_t len, size_t *ret_count, size_t *ret_bad)
{
	size_t pos = 0, count = 0;
	while (pos < len) {
		uint32_t c;
		if (utf8_next(s, len, &pos, &c) < 0) {
			*ret_bad = pos;
			return -EILSEQ;
		}
		count++;
	}
	*ret_count = count;
	return 0;
}
