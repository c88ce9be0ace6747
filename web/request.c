#include "request.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "parse.h"
#include "pathjoin.h"
#include "strescape.h"
#include "strtable.h"
#include "util.h"

static bool is_hex_lower(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

int web_cookie_token(const char *cookie, const char *name, char *out)
{
	size_t nlen = strlen(name);
	const char *p = cookie;
	while (p && *p) {
		while (*p == ' ' || *p == ';') {
			p++;
		}
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len > nlen && memcmp(p, name, nlen) == 0 && p[nlen] == '=') {
			const char *v = p + nlen + 1;
			size_t vlen = len - nlen - 1;
			if (vlen != WEB_TOKEN_HEX) {
				return -EINVAL;
			}
			for (size_t i = 0; i < vlen; i++) {
				if (!is_hex_lower(v[i])) {
					return -EINVAL;
				}
			}
			memcpy(out, v, WEB_TOKEN_HEX);
			out[WEB_TOKEN_HEX] = '\0';
			return 0;
		}
		p = end;
	}
	return -ENOENT;
}

/* Whether s is name, then nothing or ":PORT"; name compared without regard to case. */
static bool host_is(const char *s, const char *name, bool brackets)
{
	size_t n = strlen(name);
	if (brackets) {
		if (s[0] != '[' || strncasecmp(s + 1, name, n) != 0 || s[n + 1] != ']') {
			return false;
		}
		s += n + 2;
	} else {
		if (strncasecmp(s, name, n) != 0) {
			return false;
		}
		s += n;
	}
	unsigned port;
	return s[0] == '\0' || (s[0] == ':' && parse_uint_range(s + 1, 1, 65535, &port) == 0);
}

bool web_host_ok(const char *host, const char *listen)
{
	if (!host || !host[0]) {
		return false;
	}
	if (host_is(host, "localhost", false) || host_is(host, "127.0.0.1", false) ||
	    host_is(host, "::1", true)) {
		return true;
	}
	return listen && listen[0] && host_is(host, listen, strchr(listen, ':') != NULL);
}

bool web_origin_ok(const char *origin, const char *host, bool tls, const char *listen)
{
	if (!origin || !host || !host[0] || !web_host_ok(host, listen)) {
		return false;
	}
	const char *scheme = tls ? "https://" : "http://";
	size_t n = strlen(scheme);
	return strncmp(origin, scheme, n) == 0 && strcmp(origin + n, host) == 0;
}

static bool path_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-' || c == '/';
}

int web_static_path(const char *uri, const char *prefix, const char *root, char *out, size_t size)
{
	if (!startswith(uri, prefix)) {
		return -EINVAL;
	}
	const char *rel = uri + strlen(prefix);
	if (!rel[0]) {
		return -EINVAL;
	}
	for (const char *c = rel; *c; c++) {
		if (!path_char_ok(*c)) {
			return -EINVAL;
		}
	}
	/* No ".." anywhere, not only as a component: noVNC's files have none, and the check needs
	 * no reasoning about where a component starts (its fuzzer holds it to this). */
	if (strstr(rel, "..")) {
		return -EINVAL;
	}
	/* Each component: not empty, not "." nor "..", and none starts with a dot. */
	const char *comp = rel;
	for (;;) {
		const char *slash = strchr(comp, '/');
		size_t len = slash ? (size_t)(slash - comp) : strlen(comp);
		if (len == 0 || comp[0] == '.') {
			return -EINVAL;
		}
		if (!slash) {
			break;
		}
		comp = slash + 1;
	}
	return path_join(out, size, root, rel);
}

const char *web_content_type(const char *name)
{
	static const struct str_pair types[] = {
		{".html", "text/html; charset=utf-8"},
		{".js", "text/javascript; charset=utf-8"},
		{".css", "text/css; charset=utf-8"},
		{".svg", "image/svg+xml"},
		{".png", "image/png"},
		{".ico", "image/x-icon"},
		{".json", "application/json"},
		{".woff", "font/woff"},
		{".woff2", "font/woff2"},
		{".ttf", "font/ttf"},
		{".oga", "audio/ogg"},
		{".mp3", "audio/mpeg"},
	};
	const char *dot = strrchr(name, '.');
	const char *slash = strrchr(name, '/');
	if (!dot || (slash && dot < slash)) {
		return NULL;
	}
	return strtable_value(types, ARRAY_SIZE(types), dot);
}

int web_parse_listen(const char *s, char *host, size_t host_size, unsigned *port, bool *loopback)
{
	const char *colon;
	const char *h = s;
	size_t hlen;
	if (s[0] == '[') {
		const char *close = strchr(s, ']');
		if (!close || close[1] != ':') {
			return -EINVAL;
		}
		h = s + 1;
		hlen = (size_t)(close - h);
		colon = close + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon) {
			return -EINVAL;
		}
		hlen = (size_t)(colon - s);
	}
	if (hlen == 0 || hlen >= host_size || hlen >= INET6_ADDRSTRLEN) {
		return -EINVAL;
	}
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	if (parse_uint_range(colon + 1, 1, 65535, port) < 0) {
		return -EINVAL;
	}
	struct in_addr a4;
	struct in6_addr a6;
	if (s[0] != '[' && inet_pton(AF_INET, host, &a4) == 1) {
		*loopback = (ntohl(a4.s_addr) >> 24) == 127;
		return 0;
	}
	if (s[0] == '[' && inet_pton(AF_INET6, host, &a6) == 1) {
		*loopback = IN6_IS_ADDR_LOOPBACK(&a6);
		return 0;
	}
	return -EINVAL;
}

int web_json_escape(const char *s, char *out, size_t size)
{
	return escape_to_buf(out, size, s, strlen(s), &escape_json_html);
}

bool web_etag_match(const char *if_none_match, const char *etag)
{
	size_t n = strlen(etag);
	const char *p = if_none_match;
	while (*p) {
		p += strspn(p, " \t,");
		if (startswith(p, "W/")) {
			p += 2;
		}
		size_t item = strcspn(p, " \t,");
		if ((item == 1 && p[0] == '*') || (item == n && n > 0 && memcmp(p, etag, n) == 0)) {
			return true;
		}
		p += item;
	}
	return false;
}
