/* botdesk-web's HTTP side (docs/web.md, "What the server accepts"): the Host check, the ticket
 * and the cookie, the page and noVNC's files (from memory, or from disk by the same path rules),
 * the lease as JSON, and the websocket upgrade's checks; Take over and Hand back are take.c's. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay.h"
#include "request.h"
#include "util.h"
#include "webctl.h"
#include "webstate.h"

/* docs/web.md, "Caching": what is under the version's prefix never changes (another version is
 * another URL); the rest the browser keeps but asks again for, answered 304 while unchanged. */
#define CACHE_IMMUTABLE "private, max-age=31536000, immutable"
#define CACHE_REVALIDATE "private, no-cache"
/* An answer from memory goes out in pieces of this size, one per turn of the loop. */
#define SEND_CHUNK 32768

int routes_header(struct lws *wsi, const char *name, const char *value, unsigned char **p,
		  unsigned char *end)
{
	return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
					   (const unsigned char *)value, (int)strlen(value), p,
					   end);
}

int routes_send_body(struct lws *wsi, const char *body, size_t len)
{
	if (len) {
		unsigned char out[LWS_PRE + ROUTES_BODY_MAX];
		if (len > ROUTES_BODY_MAX) {
			return -1;
		}
		memcpy(out + LWS_PRE, body, len);
		if (lws_write(wsi, out + LWS_PRE, len, LWS_WRITE_HTTP_FINAL) != (int)len) {
			return -1;
		}
	}
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

int routes_respond(struct lws *wsi, unsigned status, const char *type, const char *body,
		   const char *cookie, const char *location)
{
	unsigned char buf[LWS_PRE + 2048];
	unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof(buf) - 1;
	size_t len = body ? strlen(body) : 0;
	if (lws_add_http_common_headers(wsi, status, type, len, &p, end) ||
	    routes_header(wsi, "cache-control:", "no-store", &p, end) ||
	    routes_header(wsi, "x-frame-options:", "DENY", &p, end) ||
	    routes_header(wsi, "referrer-policy:", "no-referrer", &p, end) ||
	    (cookie && routes_header(wsi, "set-cookie:", cookie, &p, end)) ||
	    (location && routes_header(wsi, "location:", location, &p, end)) ||
	    lws_finalize_write_http_header(wsi, start, &p, end)) {
		return -1;
	}
	return routes_send_body(wsi, body, len);
}

/* A refusal; the connection is closed after it, so nothing unauthenticated lingers. */
int routes_forbidden(struct lws *wsi)
{
	routes_respond(wsi, HTTP_STATUS_FORBIDDEN, "text/plain", "forbidden\n", NULL, NULL);
	return -1;
}

/* The --listen address, which a Host header may name besides the loopback names. */
const char *routes_listen_name(const struct web_server *s)
{
	return web_tcp(s) ? s->cfg->host : NULL;
}

/* A Host header that names this server by another name (a rebound DNS name): refused before any
 * route runs, on the unix socket as on an address. */
static bool host_refused(const struct web_server *s, struct lws *wsi)
{
	char host[256] = "";
	int n = lws_hdr_total_length(wsi, WSI_TOKEN_HOST);
	if (n <= 0 || n >= (int)sizeof(host) ||
	    lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST) < 0) {
		return true;
	}
	return !web_host_ok(host, routes_listen_name(s));
}

static int misdirected(struct lws *wsi)
{
	routes_respond(
		wsi, 421, "text/plain",
		"misdirected request: this server answers to localhost, 127.0.0.1, [::1] and its --listen address only\n",
		NULL, NULL);
	return -1;
}

/* The headers every asset answer carries. */
static int asset_headers(struct lws *wsi, const char *etag, const char *cache, unsigned char **p,
			 unsigned char *end)
{
	return routes_header(wsi, "etag:", etag, p, end) ||
	       routes_header(wsi, "cache-control:", cache, p, end) ||
	       routes_header(wsi, "x-content-type-options:", "nosniff", p, end) ||
	       routes_header(wsi, "x-frame-options:", "DENY", p, end) ||
	       routes_header(wsi, "referrer-policy:", "no-referrer", p, end);
}

static int not_modified(struct lws *wsi, const char *etag, const char *cache)
{
	unsigned char buf[LWS_PRE + 1024];
	unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof(buf) - 1;
	if (lws_add_http_common_headers(wsi, HTTP_STATUS_NOT_MODIFIED, NULL, 0, &p, end) ||
	    asset_headers(wsi, etag, cache, &p, end) ||
	    lws_finalize_write_http_header(wsi, start, &p, end)) {
		return -1;
	}
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* A file from disk (one of noVNC's that the module graph does not hold): revalidated on every
 * use, by an ETag from its stat() and the server's salt. */
static int serve_file(struct web_server *s, struct lws *wsi, const char *path)
{
	const char *type = web_content_type(path);
	struct stat st;
	if (!type || access(path, R_OK) < 0 || stat(path, &st) < 0) {
		return routes_respond(wsi, HTTP_STATUS_NOT_FOUND, "text/plain", "not found\n", NULL,
				      NULL);
	}
	char etag[WEB_ETAG_MAX], inm[256] = "";
	web_assets_file_etag(&s->assets, &st, etag);
	if (lws_hdr_copy(wsi, inm, sizeof(inm), WSI_TOKEN_HTTP_IF_NONE_MATCH) > 0 &&
	    web_etag_match(inm, etag)) {
		return not_modified(wsi, etag, CACHE_REVALIDATE);
	}
	char extra[512];
	int n = snprintf(extra, sizeof(extra),
			 "x-frame-options: DENY\r\n"
			 "x-content-type-options: nosniff\r\n"
			 "referrer-policy: no-referrer\r\n"
			 "cache-control: " CACHE_REVALIDATE "\r\n"
			 "etag: %s\r\n",
			 etag);
	int r = lws_serve_http_file(wsi, path, type, extra, n);
	if (r < 0 || (r > 0 && lws_http_transaction_completed(wsi))) {
		return -1;
	}
	return 0;
}

/* The next piece of an answer from memory; the transaction ends with its last byte. */
int routes_send_more(struct lws *wsi, struct conn *c)
{
	unsigned char buf[LWS_PRE + SEND_CHUNK];
	size_t n = c->send_len - c->send_off;
	if (n > SEND_CHUNK) {
		n = SEND_CHUNK;
	}
	bool last = c->send_off + n == c->send_len;
	memcpy(buf + LWS_PRE, c->send + c->send_off, n);
	if (lws_write(wsi, buf + LWS_PRE, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) !=
	    (int)n) {
		return -1;
	}
	c->send_off += n;
	if (!last) {
		lws_callback_on_writable(wsi);
		return 0;
	}
	c->send = NULL;
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* An asset from memory: 304 when the browser holds it, gzip when the browser takes it. */
static int serve_asset(struct lws *wsi, struct conn *c, const struct web_asset *a, bool immutable)
{
	const char *cache = immutable ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
	char accept[256] = "", inm[256] = "", gz_etag[WEB_ETAG_MAX + 3];
	/* The gzip text is another representation: another strong ETag. */
	snprintf(gz_etag, sizeof(gz_etag), "%.*s-gz\"", (int)strlen(a->etag) - 1, a->etag);
	bool gz = a->gz &&
		  lws_hdr_copy(wsi, accept, sizeof(accept), WSI_TOKEN_HTTP_ACCEPT_ENCODING) > 0 &&
		  strstr(accept, "gzip");
	const char *etag = gz ? gz_etag : a->etag;
	if (lws_hdr_copy(wsi, inm, sizeof(inm), WSI_TOKEN_HTTP_IF_NONE_MATCH) > 0 &&
	    web_etag_match(inm, etag)) {
		return not_modified(wsi, etag, cache);
	}
	unsigned char buf[LWS_PRE + 1024];
	unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof(buf) - 1;
	if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, a->type, gz ? a->gz_len : a->len, &p,
					end) ||
	    asset_headers(wsi, etag, cache, &p, end) ||
	    (a->gz && routes_header(wsi, "vary:", "accept-encoding", &p, end)) ||
	    (gz && routes_header(wsi, "content-encoding:", "gzip", &p, end)) ||
	    lws_finalize_write_http_header(wsi, start, &p, end)) {
		return -1;
	}
	c->send = gz ? a->gz : a->body;
	c->send_len = gz ? a->gz_len : a->len;
	c->send_off = 0;
	if (c->send_len == 0) {
		c->send = NULL;
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	}
	/* The first piece at once: most answers are one piece, and the loop spares a turn. */
	return routes_send_more(wsi, c);
}

/* The lease; with a nonce (the page's, 32 hex digits), the proof that this server answers. */
static int lease_json(const struct web_server *s, char *out, size_t size, const char *nonce)
{
	char proof[PROOF_HEX + 1] = "";
	if (nonce && web_proof(s, "lease", nonce, proof) < 0) {
		return -EIO;
	}
	struct lease l;
	(void)lease_read_at(s->cfg->dirfd, &l);
	char reason[LEASE_REASON_MAX * 6 + 1];
	if (web_json_escape(l.reason, reason, sizeof(reason)) < 0) {
		reason[0] = '\0';
	}
	char profile[256];
	if (web_json_escape(s->cfg->profile, profile, sizeof(profile)) < 0) {
		profile[0] = '\0';
	}
	/* The agent's request for a human (lease.h), for the bar to show: null when none. */
	struct lease_request rq;
	char requested[LEASE_REASON_MAX * 6 + 64] = "null";
	char asked[LEASE_REASON_MAX * 6 + 1];
	if (lease_request_read_at(s->cfg->dirfd, &rq) == 0 &&
	    web_json_escape(rq.reason, asked, sizeof(asked)) == 0) {
		snprintf(requested, sizeof(requested), "{\"since\":%lld,\"reason\":\"%s\"}",
			 (long long)rq.since, asked);
	}
	int n = snprintf(
		out, size,
		"{\"profile\":\"%s\",\"holder\":\"%s\",\"since\":%lld,\"reason\":\"%s\",\"epoch\":%llu,\"readable\":%s,\"requested\":%s,\"csrf\":\"%s\",\"key\":\"%s\",\"proof\":\"%s\"}\n",
		profile, lease_holder_name(l.holder), (long long)l.since, reason,
		(unsigned long long)l.epoch, l.unreadable ? "false" : "true", requested, s->csrf,
		s->key_hex, proof);
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

int routes_lease_answer(struct web_server *s, struct lws *wsi)
{
	char body[4096];
	if (lease_json(s, body, sizeof(body), NULL) < 0) {
		return -1;
	}
	return routes_respond(wsi, HTTP_STATUS_OK, "application/json", body, NULL, NULL);
}

static bool authorized(struct web_server *s, struct lws *wsi)
{
	if (!web_tcp(s)) {
		return true; /* the socket is 0600 in a 0700 directory: its owner only */
	}
	char cookie[1024], token[WEB_TOKEN_HEX + 1];
	if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_COOKIE) >= (int)sizeof(cookie) ||
	    lws_hdr_copy(wsi, cookie, sizeof(cookie), WSI_TOKEN_HTTP_COOKIE) < 0) {
		return false;
	}
	return web_cookie_token(cookie, s->cookie_name, token) == 0 &&
	       web_session_valid(&s->tickets, token);
}

/* The page, its files and noVNC's: from memory when the server holds them (under this server's
 * version, for good), else from disk by the same path rules. */
static int static_request(struct web_server *s, struct lws *wsi, struct conn *c, const char *uri)
{
	const char *prefix = s->assets.prefix;
	size_t plen = strlen(prefix);
	bool versioned = strncmp(uri, prefix, plen) == 0 && uri[plen] == '/';
	if (versioned) {
		uri += plen;
	}
	/* Under a version only the files are (the page is one per server, and revalidated); another
	 * version is another server's page, or a file that changed since. */
	if ((versioned && !startswith(uri, "/web/") && !startswith(uri, "/novnc/")) ||
	    (!versioned && startswith(uri, "/v/"))) {
		return routes_respond(wsi, HTTP_STATUS_NOT_FOUND, "text/plain", "not found\n", NULL,
				      NULL);
	}
	const struct web_asset *a = web_assets_find(&s->assets, uri);
	if (a) {
		return serve_asset(wsi, c, a, versioned);
	}
	char path[1024];
	if (web_static_path(uri, "/web/", s->cfg->data, path, sizeof(path)) == 0 ||
	    web_static_path(uri, "/novnc/", s->cfg->novnc, path, sizeof(path)) == 0) {
		return serve_file(s, wsi, path);
	}
	return routes_respond(wsi, HTTP_STATUS_NOT_FOUND, "text/plain", "not found\n", NULL, NULL);
}

int routes_http(struct web_server *s, struct lws *wsi, struct conn *c, const char *uri)
{
	if (host_refused(s, wsi)) {
		return misdirected(wsi);
	}
	bool post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
	bool get = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0;
	char arg[128];
	const char *ticket = lws_get_urlarg_by_name(wsi, "ticket=", arg, sizeof(arg));
	if (ticket && web_tcp(s)) {
		char session[WEB_TOKEN_HEX + 1];
		if (!get || web_ticket_redeem(&s->tickets, ticket, web_now_ms(), session) < 0) {
			return routes_forbidden(wsi);
		}
		/* The page --open wrote held a ticket: used now, or another's, it has done its job.
		 */
		(void)unlinkat(s->cfg->dirfd, WEB_OPEN_PAGE, 0);
		char cookie[160];
		snprintf(cookie, sizeof(cookie), "%s=%s; Path=/; HttpOnly; SameSite=Strict%s",
			 s->cookie_name, session, s->tls ? "; Secure" : "");
		/* The same page without the ticket in the address bar. */
		return routes_respond(wsi, HTTP_STATUS_FOUND, "text/plain", NULL, cookie, "/");
	}
	if (!authorized(s, wsi)) {
		return routes_forbidden(wsi);
	}
	if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0) {
		char cl[32] = "";
		lws_hdr_copy(wsi, cl, sizeof(cl), WSI_TOKEN_HTTP_CONTENT_LENGTH);
		if (strcmp(cl, "0") != 0) {
			/* Nothing here takes a body: refused whole, not read. */
			routes_respond(wsi, HTTP_STATUS_REQ_ENTITY_TOO_LARGE, "text/plain",
				       "no request here takes a body\n", NULL, NULL);
			return -1;
		}
	}
	if (post && streq(uri, "/take")) {
		return take_post(s, wsi, c, LEASE_HUMAN);
	}
	if (post && streq(uri, "/release")) {
		return take_post(s, wsi, c, LEASE_AGENT);
	}
	if (!get) {
		return routes_respond(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, "text/plain",
				      "method not allowed\n", NULL, NULL);
	}
	if (streq(uri, "/lease")) {
		char body[4096], nonce[64];
		const char *nv = lws_get_urlarg_by_name(wsi, "nonce=", nonce, sizeof(nonce));
		if (nv && !web_is_token(nv)) {
			return routes_respond(wsi, HTTP_STATUS_BAD_REQUEST, "text/plain",
					      "the nonce is 32 lowercase hex digits\n", NULL, NULL);
		}
		if (lease_json(s, body, sizeof(body), nv) < 0) {
			return -1;
		}
		return routes_respond(wsi, HTTP_STATUS_OK, "application/json", body, NULL, NULL);
	}
	if (replay_route(uri)) {
		/* The flight recorder's replay (issue 28): web/replay.c. */
		return replay_request(wsi, s->cfg->dirfd, uri);
	}
	return static_request(s, wsi, c, uri);
}

/* A websocket upgrade: the same authorization, its own Origin, one path. >0 when refused. */
int routes_confirm_upgrade(struct web_server *s, struct lws *wsi)
{
	char uri[64] = "", origin[256] = "", host[256] = "";
	lws_hdr_copy(wsi, uri, sizeof(uri), WSI_TOKEN_GET_URI);
	lws_hdr_copy(wsi, origin, sizeof(origin), WSI_TOKEN_ORIGIN);
	lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST);
	if (host_refused(s, wsi)) {
		misdirected(wsi);
		return 1;
	}
	if (!streq(uri, "/websockify") || !authorized(s, wsi) ||
	    !web_origin_ok(origin, host, s->tls, routes_listen_name(s)) || s->ws_count >= WS_MAX) {
		routes_respond(wsi, HTTP_STATUS_FORBIDDEN, "text/plain", "forbidden\n", NULL, NULL);
		return 1;
	}
	return 0;
}
