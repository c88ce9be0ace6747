/* What botdesk-web reads from a request, as pure functions over bounded text (no libwebsockets, no
 * I/O): fuzzed by tests/fuzz/fuzz-web.c and unit-tested by tests/web/test-web.c. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The session cookie's name: this prefix and the server's own id (WEB_SERVER_ID_HEX hex digits,
 * random per server), so that a cookie another server minted on the same host (cookies ignore
 * ports) is neither sent under this server's name nor taken for it. */
#define WEB_COOKIE_PREFIX "botdesk_session_"
#define WEB_SERVER_ID_HEX 16
#define WEB_COOKIE_NAME_MAX (sizeof(WEB_COOKIE_PREFIX) + WEB_SERVER_ID_HEX)
/* A ticket and a session token: 128 random bits, as 32 lowercase hex digits. */
#define WEB_TOKEN_HEX 32

/* The session token of the Cookie header's NAME=..., copied into out (WEB_TOKEN_HEX + 1 bytes).
 * -ENOENT when there is none, -EINVAL when it is not 32 hex digits. */
int web_cookie_token(const char *cookie, const char *name, char *out);

/* Whether a Host header names this server by a name it is reached by: localhost, 127.0.0.1,
 * [::1] or listen (the --listen address, NULL for none; an IPv6 one without brackets), each with
 * an optional :PORT. Any other name is a page on a name that only resolves here (DNS
 * rebinding): it is refused before any route runs. */
bool web_host_ok(const char *host, const char *listen);

/* Whether an Origin header names this very server: "http://HOST" or "https://HOST" (per tls),
 * HOST exactly the request's Host header and one web_host_ok() allows. A missing Origin or Host
 * never matches. */
bool web_origin_ok(const char *origin, const char *host, bool tls, const char *listen);

/* The file under root that a request's path names, in out: the path must start with prefix
 * ("/novnc/"), have only [A-Za-z0-9._/-], no empty, "." or ".." component. -EINVAL otherwise,
 * -ENAMETOOLONG when it does not fit. */
int web_static_path(const char *uri, const char *prefix, const char *root, char *out, size_t size);

/* The content type of a file name by its extension; NULL for one the server does not serve. */
const char *web_content_type(const char *name);

/* Where to listen: "HOST:PORT" with HOST a numeric IPv4 address or [IPv6], PORT 1-65535. host gets
 * the address without brackets; loopback says whether it is 127.0.0.0/8 or ::1. -EINVAL when
 * it is not that shape (a name such as localhost is refused: it could resolve anywhere). */
int web_parse_listen(const char *s, char *host, size_t host_size, unsigned *port, bool *loopback);

/* s as the body of a JSON string (quotes and backslashes escaped, control characters as \u00XX)
 * into out; -ENOSPC when it does not fit. */
int web_json_escape(const char *s, char *out, size_t size);

/* Whether an If-None-Match header (one ETag or a comma-separated list, each maybe weak: W/"...")
 * names etag (quoted, as the server sends it), or is "*". */
bool web_etag_match(const char *if_none_match, const char *etag);
