/* Fuzzes both decoders of the wire format. Beyond "does not crash", it checks the property the
 * helper relies on: whatever decodes has exactly one encoding, and it is the input. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_request rq;
	if (proto_request_decode(data, size, &rq) == 0) {
		uint8_t again[PROTO_REQUEST_SIZE];
		if (proto_request_encode(&rq, again) != 0 || memcmp(again, data, size) != 0) {
			abort();
		}
	}
	struct proto_reply rp;
	if (proto_reply_decode(data, size, &rp) == 0) {
		uint8_t again[PROTO_REPLY_SIZE];
		if (proto_reply_encode(&rp, again) != 0 || memcmp(again, data, size) != 0) {
			abort();
		}
		if (rp.kind == PROTO_REPLY_LINE && strlen(rp.text) != rp.len) {
			abort();
		}
	}
	return 0;
}
