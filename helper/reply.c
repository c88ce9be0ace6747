/* The helper's only writes to the runner: fixed-size reply records. */
#include <string.h>
#include <sys/socket.h>

#include "helper.h"
#include "util.h"

static void reply_send(struct reply *r, const struct proto_reply *msg)
{
	if (r->gone) {
		return;
	}
	uint8_t buf[PROTO_REPLY_SIZE];
	if (proto_reply_encode(msg, buf) < 0) {
		return;
	}
	/* SO_SNDTIMEO bounds this; a runner that left or stalled is dropped for good. */
	while (send(r->fd, buf, sizeof(buf), MSG_NOSIGNAL) < 0) {
		if (errno != EINTR) {
			r->gone = true;
			return;
		}
	}
}

void reply_line(struct reply *r, const char *text, size_t len)
{
	struct proto_reply msg = {.kind = PROTO_REPLY_LINE};
	/* Longer lines go out in pieces; a NUL byte would end the line early on the other side,
	 * so it is shown as '?'. */
	do {
		size_t n = len < PROTO_LINE_MAX ? len : PROTO_LINE_MAX;
		for (size_t i = 0; i < n; i++) {
			msg.text[i] = text[i] ? text[i] : '?';
		}
		msg.len = (uint16_t)n;
		reply_send(r, &msg);
		text += n;
		len -= n;
	} while (len > 0);
}

void reply_result(struct reply *r, enum proto_outcome outcome, enum proto_manager m, int32_t detail)
{
	struct proto_reply msg = {
		.kind = PROTO_REPLY_RESULT,
		.outcome = outcome,
		.manager = m,
		.detail = detail,
	};
	reply_send(r, &msg);
}
