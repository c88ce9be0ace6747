#include "tickets.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "util.h"

int web_token_new(char *out)
{
	uint8_t raw[WEB_TOKEN_HEX / 2];
	size_t got = 0;
	while (got < sizeof(raw)) {
		ssize_t n = getrandom(raw + got, sizeof(raw) - got, 0);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return negative_errno();
		}
		got += (size_t)n;
	}
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < sizeof(raw); i++) {
		out[2 * i] = digits[raw[i] >> 4];
		out[2 * i + 1] = digits[raw[i] & 15];
	}
	out[WEB_TOKEN_HEX] = '\0';
	return 0;
}

/* The free slot, else the oldest: a full table drops its oldest entry. */
static struct web_token *slot(struct web_token *v, size_t n)
{
	struct web_token *best = &v[0];
	for (size_t i = 0; i < n; i++) {
		if (v[i].at_ms == 0) {
			return &v[i];
		}
		if (v[i].at_ms < best->at_ms) {
			best = &v[i];
		}
	}
	return best;
}

static bool same(const char *a, const char *b)
{
	unsigned char d = 0;
	for (size_t i = 0; i < WEB_TOKEN_HEX; i++) {
		d |= (unsigned char)(a[i] ^ b[i]);
	}
	return d == 0;
}

static bool token_shape(const char *hex)
{
	size_t i = 0;
	for (; i <= WEB_TOKEN_HEX && hex[i]; i++) {
		if (!((hex[i] >= '0' && hex[i] <= '9') || (hex[i] >= 'a' && hex[i] <= 'f'))) {
			return false;
		}
	}
	return i == WEB_TOKEN_HEX;
}

/* A fresh token in table v (n slots), stamped now_ms (0 is a free slot's stamp, so never that),
 * copied to ret_hex. */
static int issue(struct web_token *v, size_t n, uint64_t now_ms, char *ret_hex)
{
	struct web_token *s = slot(v, n);
	int r = web_token_new(s->hex);
	if (r < 0) {
		*s = (struct web_token){0};
		return r;
	}
	s->at_ms = now_ms ? now_ms : 1;
	memcpy(ret_hex, s->hex, WEB_TOKEN_HEX + 1);
	return 0;
}

int web_ticket_issue(struct web_tickets *t, uint64_t now_ms, char *ret_hex)
{
	return issue(t->tickets, WEB_TICKETS_MAX, now_ms, ret_hex);
}

int web_ticket_redeem(struct web_tickets *t, const char *ticket, uint64_t now_ms, char *ret_hex)
{
	if (!token_shape(ticket)) {
		return -EACCES;
	}
	for (size_t i = 0; i < WEB_TICKETS_MAX; i++) {
		struct web_token *k = &t->tickets[i];
		if (k->at_ms == 0 || !same(k->hex, ticket)) {
			continue;
		}
		bool fresh = now_ms >= k->at_ms && now_ms - k->at_ms <= WEB_TICKET_TTL_MS;
		/* Single use: gone whether it was still good or not. */
		*k = (struct web_token){0};
		if (!fresh) {
			return -EACCES;
		}
		return issue(t->sessions, WEB_SESSIONS_MAX, now_ms, ret_hex);
	}
	return -EACCES;
}

bool web_session_valid(const struct web_tickets *t, const char *hex)
{
	if (!token_shape(hex)) {
		return false;
	}
	bool ok = false;
	for (size_t i = 0; i < WEB_SESSIONS_MAX; i++) {
		ok |= t->sessions[i].at_ms != 0 && same(t->sessions[i].hex, hex);
	}
	return ok;
}
