/* The helper's only writes to the runner: fixed-size reply records, through a small queue.
 *
 * The caller may hold a dup of our end of the socket and change anything about it (SO_SNDTIMEO,
 * O_NONBLOCK, SO_SNDBUF), or simply stop reading. So no send ever waits: every one is
 * MSG_DONTWAIT, the install's poll loop flushes the queue when the socket takes more, and when the
 * runner falls behind the oldest lines are dropped (and counted) rather than the package manager
 * or its timeout held up. Only the final result waits, and then on our own clock. */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "helper.h"
#include "util.h"

static bool try_send(struct reply *r, const uint8_t buf[PROTO_REPLY_SIZE])
{
	for (;;) {
		if (send(r->fd, buf, PROTO_REPLY_SIZE, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0) {
			return true;
		}
		if (errno == EINTR) {
			continue;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			/* A runner that went away is dropped for good. */
			r->gone = true;
			r->count = 0;
		}
		return false;
	}
}

void reply_flush(struct reply *r)
{
	while (!r->gone && r->count > 0) {
		if (r->skipped > 0) {
			/* Where lines were dropped, the runner is told so, in their place. */
			struct proto_reply note = {.kind = PROTO_REPLY_LINE};
			int n = snprintf(note.text, sizeof(note.text),
					 "botdesk-helper: %u lines not shown (botdesk fell behind)",
					 r->skipped);
			note.len = (uint16_t)n;
			uint8_t buf[PROTO_REPLY_SIZE];
			if (proto_reply_encode(&note, buf) < 0 || !try_send(r, buf)) {
				return;
			}
			r->skipped = 0;
			continue;
		}
		if (!try_send(r, r->queue[r->head])) {
			return;
		}
		r->head = (r->head + 1) % REPLY_QUEUE;
		r->count--;
	}
}

bool reply_pending(const struct reply *r)
{
	return !r->gone && r->count > 0;
}

static void enqueue(struct reply *r, const struct proto_reply *msg)
{
	if (r->gone) {
		return;
	}
	if (r->count == REPLY_QUEUE) {
		/* Full: the oldest line goes. The newest are kept, as they explain a failure. */
		r->head = (r->head + 1) % REPLY_QUEUE;
		r->count--;
		r->skipped++;
	}
	if (proto_reply_encode(msg, r->queue[(r->head + r->count) % REPLY_QUEUE]) == 0) {
		r->count++;
	}
	reply_flush(r);
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
		enqueue(r, &msg);
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
	enqueue(r, &msg);
	/* The last record is worth a wait, but a bounded one: whatever happens to the socket, we
	 * exit by this deadline. */
	uint64_t deadline = now_ms() + r->drain_ms;
	for (;;) {
		reply_flush(r);
		uint64_t now = now_ms();
		if (!reply_pending(r) || now >= deadline) {
			return;
		}
		struct pollfd p = {.fd = r->fd, .events = POLLOUT};
		(void)poll(&p, 1, helper_poll_ms(deadline - now));
	}
}
