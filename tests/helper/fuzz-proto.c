/* Fuzzes both decoders of the wire format and the parser's reading of a whole connection. Beyond
 * "does not crash", it checks the properties the helper relies on: whatever decodes has exactly
 * one encoding, and it is the input; and the parser accepts a connection only when it carried
 * exactly one record, a valid request, and then the end.
 *
 * For the connection, the input is read as records the way a runner could send them: byte 0 is a
 * repeat count R, then records as a length byte and that many bytes (the last takes what is
 * left). The records are sent, then R more times, each time after an empty record; then the end.
 * So "01 10 <request>" is: request, empty record, request. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "fuzz.h"
#include "helper.h"
#include "proto.h"
#include "util.h"

/* More than the parser reads, few enough that the socket's buffer takes them all. */
#define SESSION_RECORDS 32

static void check_decoders(const uint8_t *data, size_t size)
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
}

struct session {
	int fd;
	unsigned sent;
	const uint8_t *first;
	size_t first_len;
};

static bool send_record(struct session *s, const uint8_t *p, size_t n)
{
	if (s->sent == SESSION_RECORDS || send(s->fd, p, n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		return false;
	}
	if (s->sent++ == 0) {
		s->first = p, s->first_len = n;
	}
	return true;
}

static bool send_records(struct session *s, const uint8_t *data, size_t size)
{
	while (size > 0) {
		size_t n = data[0] < size - 1 ? data[0] : size - 1;
		if (!send_record(s, data + 1, n)) {
			return false;
		}
		data += 1 + n;
		size -= 1 + n;
	}
	return true;
}

static void check_session(const uint8_t *data, size_t size)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		abort();
	}
	struct session s = {.fd = sv[0]};
	if (size > 0 && send_records(&s, data + 1, size - 1)) {
		for (unsigned r = 0; r < data[0]; r++) {
			if (!send_record(&s, data, 0) || !send_records(&s, data + 1, size - 1)) {
				break;
			}
		}
	}
	shutdown(sv[0], SHUT_WR);
	if (parser_mark_records(sv[1]) < 0) {
		abort();
	}
	enum proto_op op;
	int r = parser_read_request(sv[1], now_ms() + 1000, &op);
	struct proto_request rq;
	bool one_request = s.sent == 1 && proto_request_decode(s.first, s.first_len, &rq) == 0;
	if ((r == 0) != one_request || (r == 0 && op != rq.op) || (r < 0 && r != -EBADMSG)) {
		abort();
	}
	close(sv[0]);
	close(sv[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_decoders(data, size);
	check_session(data, size);
	return 0;
}
