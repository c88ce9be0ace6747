/* libFuzzer entry point for the gate's RFB filter. The first byte picks the door's input
 * permission and the chunking; the rest is what a viewer sends. Checked on every input: the
 * filter emits the same bytes and the same verdict however the stream is split, never more
 * than the bounds say, and what a watcher's filter lets through, read again by a filter that
 * lets everything through, frames cleanly and holds no input message at all. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../helper/fuzz.h"
#include "rfbfilter.h"

static int feed(const uint8_t *data, size_t size, bool allowed, size_t step, uint8_t *out,
		size_t *ret_len, struct rfbfilter *f)
{
	rfbfilter_init(f);
	size_t len = 0;
	int r = 0;
	for (size_t off = 0; off < size && r == 0;) {
		size_t n = step && step < size - off ? step : size - off;
		size_t got;
		r = rfbfilter_feed(f, data + off, n, allowed, out + len, &got);
		if (got > n + RFBFILTER_SLACK) {
			abort();
		}
		len += got;
		off += n;
	}
	*ret_len = len;
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1) {
		return 0;
	}
	bool allowed = data[0] & 1;
	size_t step = (size_t)(data[0] >> 1) % 17 + 1;
	data++;
	size--;
	uint8_t *whole = malloc(size + RFBFILTER_SLACK);
	uint8_t *split = malloc(size + RFBFILTER_SLACK * (size + 1));
	if (!whole || !split) {
		abort();
	}
	struct rfbfilter a, b;
	size_t la, lb;
	int ra = feed(data, size, allowed, 0, whole, &la, &a);
	int rb = feed(data, size, allowed, step, split, &lb, &b);
	if (ra != rb || la != lb || memcmp(whole, split, la) != 0 || la > size ||
	    a.input_passed != b.input_passed) {
		abort();
	}
	if (!allowed && a.input_passed != 0) {
		abort();
	}
	/* Output is a clean stream in its own right: framed by a second filter without error,
	 * with no input in it when the first let none through. */
	struct rfbfilter c;
	size_t lc;
	int rc = feed(whole, la, true, 0, split, &lc, &c);
	if (rc != 0 || (!allowed && c.input_passed != 0)) {
		abort();
	}
	free(whole);
	free(split);
	return 0;
}
