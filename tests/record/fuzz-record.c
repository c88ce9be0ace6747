/* The recording's reader on any bytes: the framer finds the messages, the decoder applies the
 * updates to a small picture; neither may read or write outside its buffers. */
#include <stddef.h>
#include <stdint.h>

#include "../helper/fuzz.h"
#include "fbdec.h"
#include "rfbframe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fbdec d;
	if (fbdec_init(&d, 97, 61) < 0) {
		return 0;
	}
	size_t off = 0, len;
	struct rfbframe f = RFBFRAME_INIT;
	while (off < size && rfbframe_next(&f, data + off, size - off, &len) == 1) {
		if (data[off] == RFB_MSG_FB_UPDATE && fbdec_apply(&d, data + off, len) < 0) {
			break;
		}
		off += len;
	}
	fbdec_free(&d);
	return 0;
}
