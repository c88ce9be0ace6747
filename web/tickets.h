/* The server's tickets and sessions, in its memory only: a ticket is 128 random bits, valid for
 * WEB_TICKET_TTL_MS and good for one exchange, for a session token (the cookie) that lives as
 * long as the server. Both tables are fixed in size: a flood of tickets or logins pushes out the
 * oldest, never grows memory. Pure apart from the random bytes: unit-tested and fuzzed. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "request.h"

#define WEB_TICKET_TTL_MS 60000
#define WEB_TICKETS_MAX 16
#define WEB_SESSIONS_MAX 16

struct web_token {
	char hex[WEB_TOKEN_HEX + 1];
	uint64_t at_ms; /* issued (a ticket) or made (a session); 0 for a free slot */
};

struct web_tickets {
	struct web_token tickets[WEB_TICKETS_MAX];
	struct web_token sessions[WEB_SESSIONS_MAX];
};

/* 128 bits from getrandom() as hex into out (WEB_TOKEN_HEX + 1 bytes). */
int web_token_new(char *out);

/* A new ticket, valid from now_ms. */
int web_ticket_issue(struct web_tickets *t, uint64_t now_ms, char *ret_hex);

/* Exchanges a ticket for a new session token: -EACCES for an unknown, used or expired ticket
 * (all three look the same to the caller). The ticket is gone either way. */
int web_ticket_redeem(struct web_tickets *t, const char *ticket, uint64_t now_ms, char *ret_hex);

/* Whether hex is a live session token (compared in constant time). */
bool web_session_valid(const struct web_tickets *t, const char *hex);
