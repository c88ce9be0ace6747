/* botdesk-web's opening of the door (web/rfbearly.c) over any bytes: the input's first byte
 * splits it into what the door says (read in pieces of the sizes its next bytes name) and what
 * the page answers. Whatever they are: a read never goes past the room, what the server says to
 * the door at one step fits RFB_EARLY_REPLY_MAX, the pieces given to the page lie within what the
 * door said and in order, the rest starts where the last piece ended, and the page's bytes the
 * opening takes are never more than it was given. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "rfbearly.h"

static void give_all(struct rfb_early *e, size_t *given_end)
{
	for (;;) {
		const unsigned char *data;
		size_t len;
		bool last;
		rfb_early_next(e, &data, &len, &last);
		if (len == 0) {
			return;
		}
		if (data != e->buf + *given_end || data + len > e->buf + e->len) {
			abort();
		}
		*given_end += len;
		rfb_early_given(e);
		if (last) {
			size_t rest_len;
			const unsigned char *rest = rfb_early_rest(e, &rest_len);
			if (rest != e->buf + *given_end || rest + rest_len != e->buf + e->len) {
				abort();
			}
			return;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2) {
		return 0;
	}
	static struct rfb_early e;
	rfb_early_init(&e);
	size_t split = 1 + (size_t)data[0] * (size - 1) / 256;
	const uint8_t *door = data + 1, *page = data + split;
	size_t door_len = split - 1, page_len = size - split, given_end = 0;
	for (size_t off = 0; off < door_len;) {
		size_t room, n = 1 + door[off] % 64, rlen;
		unsigned char *space = rfb_early_space(&e, &room);
		if (n > door_len - off) {
			n = door_len - off;
		}
		if (n > room) {
			n = room;
		}
		memcpy(space, door + off, n);
		off += n;
		unsigned char reply[RFB_EARLY_REPLY_MAX];
		if (rfb_early_door(&e, n, reply, &rlen) < 0) {
			return 0;
		}
		if (rlen > RFB_EARLY_REPLY_MAX) {
			abort();
		}
		give_all(&e, &given_end);
	}
	/* The page's bytes in two calls: an answer split anywhere is the same answer. */
	size_t half = page_len / 2;
	int a = rfb_early_page(&e, page, half);
	if (a > (int)half) {
		abort();
	}
	if (a >= 0) {
		int b = rfb_early_page(&e, page + a, page_len - (size_t)a);
		if (b > (int)(page_len - (size_t)a)) {
			abort();
		}
	}
	return 0;
}
