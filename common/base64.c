#include "base64.h"

#include <stdint.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t base64_len(size_t len)
{
	return (len + 2) / 3 * 4;
}

/* Three bytes (fewer at the end: n) into four characters, '=' for the missing ones. */
static void quantum(const unsigned char *d, size_t n, char out[4])
{
	uint32_t v = (uint32_t)d[0] << 16;
	if (n > 1) {
		v |= (uint32_t)d[1] << 8;
	}
	if (n > 2) {
		v |= d[2];
	}
	out[0] = alphabet[(v >> 18) & 63];
	out[1] = alphabet[(v >> 12) & 63];
	out[2] = n > 1 ? alphabet[(v >> 6) & 63] : '=';
	out[3] = n > 2 ? alphabet[v & 63] : '=';
}

void base64_encode(const unsigned char *data, size_t len, char *out)
{
	for (size_t i = 0; i < len; i += 3) {
		quantum(data + i, len - i, out);
		out += 4;
	}
	*out = '\0';
}

void base64_print_data_url(FILE *f, const char *mime, const unsigned char *data, size_t len)
{
	fprintf(f, "data:%s;base64,", mime);
	for (size_t i = 0; i < len; i += 3) {
		char q[4];
		quantum(data + i, len - i, q);
		fwrite(q, 1, sizeof(q), f);
	}
	fputc('\n', f);
}
