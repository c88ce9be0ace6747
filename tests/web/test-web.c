/* botdesk-web's request side without a server: tickets (single use, 60 s, bounded tables),
 * sessions, the cookie, the Origin, the static paths and types, the listen address. */
#include "unit.h"

#include <errno.h>
#include <string.h>

#include "request.h"
#include "tickets.h"
#include "util.h"

static void ticket_once_within_ttl(void **state)
{
	struct web_tickets t = {0};
	char ticket[WEB_TOKEN_HEX + 1], s1[WEB_TOKEN_HEX + 1], s2[WEB_TOKEN_HEX + 1];
	assert_int_equal(web_ticket_issue(&t, 1000, ticket), 0);
	assert_int_equal(strlen(ticket), WEB_TOKEN_HEX);
	assert_false(web_session_valid(&t, ticket)); /* a ticket is no session */
	assert_int_equal(web_ticket_redeem(&t, ticket, 1000 + WEB_TICKET_TTL_MS, s1), 0);
	assert_true(web_session_valid(&t, s1));
	/* Used: gone. */
	assert_int_equal(web_ticket_redeem(&t, ticket, 1001, s2), -EACCES);
	/* Expired: refused, and gone too. */
	assert_int_equal(web_ticket_issue(&t, 5000, ticket), 0);
	assert_int_equal(web_ticket_redeem(&t, ticket, 5001 + WEB_TICKET_TTL_MS, s2), -EACCES);
	assert_int_equal(web_ticket_redeem(&t, ticket, 5002, s2), -EACCES);
	/* Forged, malformed, a prefix, upper case. */
	assert_int_equal(web_ticket_issue(&t, 9000, ticket), 0);
	char forged[WEB_TOKEN_HEX + 1];
	memcpy(forged, ticket, sizeof(forged));
	forged[0] = forged[0] == 'a' ? 'b' : 'a';
	assert_int_equal(web_ticket_redeem(&t, forged, 9001, s2), -EACCES);
	assert_int_equal(web_ticket_redeem(&t, "", 9001, s2), -EACCES);
	char prefix[WEB_TOKEN_HEX];
	memcpy(prefix, ticket, WEB_TOKEN_HEX - 1);
	prefix[WEB_TOKEN_HEX - 1] = '\0';
	assert_int_equal(web_ticket_redeem(&t, prefix, 9001, s2), -EACCES);
	assert_int_equal(web_ticket_redeem(&t, ticket, 9001, s2), 0);
	assert_true(web_session_valid(&t, s2));
	assert_true(strcmp(s1, s2) != 0);
}

static void tables_stay_bounded(void **state)
{
	struct web_tickets t = {0};
	char first[WEB_TOKEN_HEX + 1], other[WEB_TOKEN_HEX + 1], s[WEB_TOKEN_HEX + 1];
	assert_int_equal(web_ticket_issue(&t, 1, first), 0);
	for (unsigned i = 0; i < WEB_TICKETS_MAX; i++) {
		assert_int_equal(web_ticket_issue(&t, 2 + i, other), 0);
	}
	/* The oldest ticket made room for the newest. */
	assert_int_equal(web_ticket_redeem(&t, first, 100, s), -EACCES);
	assert_int_equal(web_ticket_redeem(&t, other, 100, s), 0);
}

static void cookie(void **state)
{
	static const char me[] = "botdesk_session_0123456789abcdef";
	char tok[WEB_TOKEN_HEX + 1];
	assert_int_equal(
		web_cookie_token(
			"a=b; botdesk_session_0123456789abcdef=0123456789abcdef0123456789abcdef; c=d",
			me, tok),
		0);
	assert_string_equal(tok, "0123456789abcdef0123456789abcdef");
	/* Another server's cookie, first in the header: not this server's, skipped. */
	assert_int_equal(
		web_cookie_token(
			"botdesk_session_fedcba9876543210=ffffffffffffffffffffffffffffffff; botdesk_session_0123456789abcdef=0123456789abcdef0123456789abcdef",
			me, tok),
		0);
	assert_string_equal(tok, "0123456789abcdef0123456789abcdef");
	assert_int_equal(
		web_cookie_token("botdesk_session=0123456789abcdef0123456789abcdef", me, tok),
		-ENOENT);
	assert_int_equal(
		web_cookie_token(
			"botdesk_session_0123456789abcdef0=0123456789abcdef0123456789abcdef", me,
			tok),
		-ENOENT);
	assert_int_equal(
		web_cookie_token(
			"x_botdesk_session_0123456789abcdef=0123456789abcdef0123456789abcdef", me,
			tok),
		-ENOENT);
	assert_int_equal(web_cookie_token("botdesk_session_0123456789abcdef=0123", me, tok),
			 -EINVAL);
	assert_int_equal(
		web_cookie_token(
			"botdesk_session_0123456789abcdef=0123456789ABCDEF0123456789abcdef", me,
			tok),
		-EINVAL);
	assert_int_equal(web_cookie_token("", me, tok), -ENOENT);
}

static void origin(void **state)
{
	assert_true(web_origin_ok("http://127.0.0.1:6080", "127.0.0.1:6080", false, "127.0.0.1"));
	assert_false(web_origin_ok("https://127.0.0.1:6080", "127.0.0.1:6080", false, NULL));
	assert_true(web_origin_ok("https://10.0.0.5:6443", "10.0.0.5:6443", true, "10.0.0.5"));
	/* A name that is not one the server is reached by: a rebound DNS name. */
	assert_false(web_origin_ok("https://pod:6080", "pod:6080", true, "10.0.0.5"));
	assert_false(
		web_origin_ok("http://rebind.example:6080", "rebind.example:6080", false, NULL));
	assert_false(web_origin_ok("http://evil.example", "127.0.0.1:6080", false, NULL));
	assert_false(web_origin_ok("http://127.0.0.1:6080.evil", "127.0.0.1:6080", false, NULL));
	assert_false(web_origin_ok("null", "127.0.0.1:6080", false, NULL));
	assert_false(web_origin_ok(NULL, "127.0.0.1:6080", false, NULL));
	assert_false(web_origin_ok("http://", "", false, NULL));
}

static void host(void **state)
{
	static const char *good[] = {"localhost",      "localhost:6080", "LocalHost:1", "127.0.0.1",
				     "127.0.0.1:6080", "[::1]",          "[::1]:65535"};
	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		assert_true(web_host_ok(good[i], NULL));
	}
	static const char *bad[] = {"",
				    "rebind.example",
				    "rebind.example:6080",
				    "localhost.",
				    "localhost.evil",
				    "localhost:",
				    "localhost:0",
				    "localhost:65536",
				    "localhost:60x",
				    "127.0.0.2",
				    "127.0.0.1.evil",
				    "::1",
				    "[::1",
				    "[::1]x",
				    "127.0.0.1:6080 x",
				    "x.localhost",
				    "127.0.0.1:+6080",
				    "10.0.0.5:6443"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		assert_false(web_host_ok(bad[i], NULL));
	}
	assert_false(web_host_ok(NULL, NULL));
	/* The --listen address, with any port; an IPv6 one in brackets. */
	assert_true(web_host_ok("10.0.0.5:6443", "10.0.0.5"));
	assert_true(web_host_ok("10.0.0.5", "10.0.0.5"));
	assert_false(web_host_ok("10.0.0.50:6443", "10.0.0.5"));
	assert_true(web_host_ok("[fd00::5]:6443", "fd00::5"));
	assert_false(web_host_ok("fd00::5", "fd00::5"));
}

static void static_paths(void **state)
{
	char out[256];
	assert_int_equal(web_static_path("/novnc/core/rfb.js", "/novnc/", "/usr/share/novnc", out,
					 sizeof(out)),
			 0);
	assert_string_equal(out, "/usr/share/novnc/core/rfb.js");
	static const char *const bad[] = {
		"/novnc/../etc/passwd",
		"/novnc/core/../../x",
		"/novnc/.hidden",
		"/novnc/a//b",
		"/novnc/",
		"/novnc/a/",
		"/novnc/a b",
		"/novnc/%2e%2e/x",
		"/novncx/a",
		"/etc/passwd",
		"/novnc/a/./b",
		"/novnc/a\\b",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(
			web_static_path(bad[i], "/novnc/", "/usr/share/novnc", out, sizeof(out)),
			-EINVAL);
	}
	assert_int_equal(web_static_path("/novnc/abc", "/novnc/", "/r", out, 6), -ENAMETOOLONG);
	assert_string_equal(web_content_type("a/b.js"), "text/javascript; charset=utf-8");
	assert_string_equal(web_content_type("index.html"), "text/html; charset=utf-8");
	assert_string_equal(web_content_type("x.svg"), "image/svg+xml");
	assert_null(web_content_type("x.js.map"));
	assert_null(web_content_type("a.b/c"));
	assert_null(web_content_type("README"));
}

static void listen_address(void **state)
{
	char host[64];
	unsigned port;
	bool lo;
	assert_int_equal(web_parse_listen("127.0.0.1:6080", host, sizeof(host), &port, &lo), 0);
	assert_string_equal(host, "127.0.0.1");
	assert_int_equal(port, 6080);
	assert_true(lo);
	assert_int_equal(web_parse_listen("127.8.9.1:1", host, sizeof(host), &port, &lo), 0);
	assert_true(lo);
	assert_int_equal(web_parse_listen("10.0.0.5:6080", host, sizeof(host), &port, &lo), 0);
	assert_false(lo);
	assert_int_equal(web_parse_listen("[::1]:6080", host, sizeof(host), &port, &lo), 0);
	assert_string_equal(host, "::1");
	assert_true(lo);
	assert_int_equal(web_parse_listen("[::]:6080", host, sizeof(host), &port, &lo), 0);
	assert_false(lo);
	static const char *const bad[] = {
		"localhost:6080", "127.0.0.1", "127.0.0.1:0",   "127.0.0.1:65536", ":6080",
		"::1:6080",       "[::1]6080", "127.0.0.1:+80", "1.2.3:80",        ""};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(web_parse_listen(bad[i], host, sizeof(host), &port, &lo), -EINVAL);
	}
}

static void json_escape(void **state)
{
	char out[64];
	assert_int_equal(web_json_escape("a\"b\\c<d>\x01", out, sizeof(out)), 0);
	assert_string_equal(out, "a\\\"b\\\\c\\u003cd\\u003e\\u0001");
	assert_int_equal(web_json_escape("abcdef", out, 6), -ENOSPC);
	assert_int_equal(web_json_escape("abcde", out, 6), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ticket_once_within_ttl),
		cmocka_unit_test(tables_stay_bounded),
		cmocka_unit_test(cookie),
		cmocka_unit_test(origin),
		cmocka_unit_test(host),
		cmocka_unit_test(static_paths),
		cmocka_unit_test(listen_address),
		cmocka_unit_test(json_escape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
