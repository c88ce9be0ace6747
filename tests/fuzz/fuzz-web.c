/* What botdesk-web parses of a request, before and without libwebsockets: the cookie, the
 * Origin, the static path and its type, the listen address, a ticket or session token as it
 * arrives. Beyond "does not crash": a static path never leaves its root nor holds "..", a token
 * taken from a cookie is 32 lowercase hex digits, an unknown ticket never opens a session, and
 * JSON escaping leaves no quote, backslash or control character bare. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-text.h"
#include "request.h"
#include "tickets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_text(data, size);
	if (!s) {
		return 0;
	}
	char tok[WEB_TOKEN_HEX + 1];
	if (web_cookie_token(s, "botdesk_session_0123456789abcdef", tok) == 0) {
		if (strlen(tok) != WEB_TOKEN_HEX ||
		    strspn(tok, "0123456789abcdef") != WEB_TOKEN_HEX) {
			abort();
		}
	}
	(void)web_origin_ok(s, "127.0.0.1:6080", false, "127.0.0.1");
	(void)web_host_ok(s, "::1");
	char path[128];
	if (web_static_path(s, "/novnc/", "/usr/share/novnc", path, sizeof(path)) == 0) {
		if (strncmp(path, "/usr/share/novnc/", 17) != 0 || strstr(path, "..") ||
		    strstr(path, "//") || strstr(path, "/.")) {
			abort();
		}
		(void)web_content_type(path);
	}
	char host[64];
	unsigned port;
	bool lo;
	if (web_parse_listen(s, host, sizeof(host), &port, &lo) == 0 &&
	    (port == 0 || port > 65535)) {
		abort();
	}
	/* No ticket was issued here: nothing redeems, nothing is a session. */
	struct web_tickets t = {0};
	char session[WEB_TOKEN_HEX + 1];
	if (web_ticket_redeem(&t, s, 1, session) != -EACCES || web_session_valid(&t, s)) {
		abort();
	}
	char json[256];
	if (web_json_escape(s, json, sizeof(json)) == 0) {
		for (size_t i = 0; json[i]; i++) {
			unsigned char c = (unsigned char)json[i];
			if (c < 0x20 || c == '<' || c == '>') {
				abort();
			}
			if (c == '\\') {
				i++; /* an escape: the next byte is its letter */
			} else if (c == '"') {
				abort();
			}
		}
	}
	free(s);
	return 0;
}
