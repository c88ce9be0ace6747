#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <libwebsockets.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <malloc.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acthandoff.h"
#include "assets.h"
#include "launcher.h"
#include "lease.h"
#include "log.h"
#include "pathjoin.h"
#include "request.h"
#include "util.h"
#include "webctl.h"

/* One read from a door, one frame to the browser; and at most one frame of the browser's waiting
 * for the door. Both are per websocket and the only buffers that grow with traffic. */
#define PROXY_BUF 65536
/* Live websockets (each holds a door's connection and two buffers). */
#define WS_MAX 8
/* A websocket closed because the lease moved: the page reconnects to the other door. */
#define CLOSE_LEASE 4000
/* The page's key (docs/web.md, "The page knows its server"): 256 random bits, given in /lease. */
#define PAGE_KEY_BYTES 32
#define PROOF_HEX 64
/* Connections from anyone but the server's own user (docs/web.md): at most this many from one
 * source (a local user, by the uid of the connecting socket; a remote address), and from all
 * other local users together (and all remote addresses together). Both counts together stay
 * below the header pool, so the owner always finds headers to parse. */
#define PEER_PER_SOURCE 8
#define PEER_OTHERS 16
/* A request's headers must arrive within this (and a connection that presents no cookie or
 * ticket with them is closed after its answer). */
#define HEADERS_SECS 5
/* Takes whose release program runs at once (each holds a child, its pidfd and a request); one
 * more is answered 503 before it changes anything. */
#define RELEASE_MAX 4
/* docs/web.md, "Caching": what is under the version's prefix never changes (another version is
 * another URL); the rest the browser keeps but asks again for, answered 304 while unchanged. */
#define CACHE_IMMUTABLE "private, max-age=31536000, immutable"
#define CACHE_REVALIDATE "private, no-cache"
/* An answer from memory goes out in pieces of this size, one per turn of the loop. */
#define SEND_CHUNK 32768

/* Where a websocket is: the page proves its server first (nonce, then "go"), then the door. */
enum ws_stage {
	WS_NONCE,
	WS_GO,
	WS_PROXY,
};

enum kind {
	K_HTTP,
	K_UPSTREAM,
	K_WATCH,
	K_CTL,
};

struct conn {
	enum kind kind;
	struct conn *next; /* the live websockets */
	struct lws *wsi;
	struct lws *peer; /* websocket <-> its door */
	int upfd;
	bool human_door, closing, is_ws;
	bool door_closed; /* the door ended the stream, not the lease */
	enum ws_stage stage;
	size_t to_ws_len;
	unsigned char *to_ws; /* LWS_PRE + PROXY_BUF */
	size_t to_up_len, to_up_off;
	unsigned char *to_up; /* PROXY_BUF */
	/* A POST /take's answer waits for its release program (release_done()). */
	struct release *release;
	bool take_answer; /* the program has ended: answer on the next writable */
	/* An HTTP answer from memory (an asset's text, which outlives every connection): what is
	 * left of it to write. */
	const unsigned char *send;
	size_t send_len, send_off;
};

/* A take's release program (common/acthandoff.h), watched by its pidfd in the event loop: the
 * take is answered once it has ended, and it is reaped whatever happens to the request. */
struct release {
	bool used, reaped;
	pid_t pid;
	struct conn *http; /* the request waiting for it; NULL once it went away */
};

static struct {
	const struct web_config *cfg;
	struct lws_context *ctx;
	struct lws_vhost *vh;
	struct web_tickets tickets;
	char csrf[WEB_TOKEN_HEX + 1];
	char cookie_name[WEB_COOKIE_NAME_MAX];
	unsigned char key[PAGE_KEY_BYTES];
	char key_hex[PAGE_KEY_BYTES * 2 + 1];
	struct conn *ws_list;
	unsigned ws_count;
	bool human; /* the lease's holder as last seen */
	struct conn watch, ctl;
	struct release releases[RELEASE_MAX];
	struct web_assets assets;
	bool tls;
	bool destroying; /* lws_context_destroy() closes everything: no cross-calls */
	/* Other users' and remote connections (peer_allowed). */
	struct peer {
		bool used, remote;
		int fd;
		ino_t ino;
		dev_t dev;
		uid_t uid;
		struct sockaddr_storage addr;
	} peers[2 * PEER_OTHERS];
} S;

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static bool tcp_mode(void)
{
	return S.cfg->unix_path == NULL;
}

/* ---- responses ---------------------------------------------------------------------------- */

static int respond(struct lws *wsi, unsigned status, const char *type, const char *body,
		   const char *cookie, const char *location)
{
	unsigned char buf[LWS_PRE + 2048];
	unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof(buf) - 1;
	size_t len = body ? strlen(body) : 0;
	if (lws_add_http_common_headers(wsi, status, type, len, &p, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
					(const unsigned char *)"no-store", 8, &p, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"x-frame-options:",
					(const unsigned char *)"DENY", 4, &p, end) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"referrer-policy:",
					(const unsigned char *)"no-referrer", 11, &p, end)) {
		return -1;
	}
	if (cookie && lws_add_http_header_by_name(wsi, (const unsigned char *)"set-cookie:",
						  (const unsigned char *)cookie,
						  (int)strlen(cookie), &p, end)) {
		return -1;
	}
	if (location && lws_add_http_header_by_name(wsi, (const unsigned char *)"location:",
						    (const unsigned char *)location,
						    (int)strlen(location), &p, end)) {
		return -1;
	}
	if (lws_finalize_write_http_header(wsi, start, &p, end)) {
		return -1;
	}
	if (len) {
		unsigned char out[LWS_PRE + 1024];
		if (len > sizeof(out) - LWS_PRE) {
			return -1;
		}
		memcpy(out + LWS_PRE, body, len);
		if (lws_write(wsi, out + LWS_PRE, len, LWS_WRITE_HTTP_FINAL) != (int)len) {
			return -1;
		}
	}
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* A refusal; the connection is closed after it, so nothing unauthenticated lingers. */
static int forbidden(struct lws *wsi)
{
	respond(wsi, HTTP_STATUS_FORBIDDEN, "text/plain", "forbidden\n", NULL, NULL);
	return -1;
}

/* The --listen address, which a Host header may name besides the loopback names. */
static const char *listen_name(void)
{
	return tcp_mode() ? S.cfg->host : NULL;
}

/* A Host header that names this server by another name (a rebound DNS name): refused before any
 * route runs, on the unix socket as on an address. */
static bool host_refused(struct lws *wsi)
{
	char host[256] = "";
	int n = lws_hdr_total_length(wsi, WSI_TOKEN_HOST);
	if (n <= 0 || n >= (int)sizeof(host) ||
	    lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST) < 0) {
		return true;
	}
	return !web_host_ok(host, listen_name());
}

static int misdirected(struct lws *wsi)
{
	respond(wsi, 421, "text/plain",
		"misdirected request: this server answers to localhost, 127.0.0.1, [::1] and its --listen address only\n",
		NULL, NULL);
	return -1;
}

/* A file from disk (one of noVNC's that the module graph does not hold): revalidated on every
 * use, by an ETag from its stat() and the server's salt. */
static int not_modified(struct lws *wsi, const char *etag, const char *cache);

static int serve_file(struct lws *wsi, const char *path)
{
	const char *type = web_content_type(path);
	struct stat st;
	if (!type || access(path, R_OK) < 0 || stat(path, &st) < 0) {
		return respond(wsi, HTTP_STATUS_NOT_FOUND, "text/plain", "not found\n", NULL, NULL);
	}
	char etag[WEB_ETAG_MAX], inm[256] = "";
	web_assets_file_etag(&S.assets, &st, etag);
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

static int add_header(struct lws *wsi, const char *name, const char *value, unsigned char **p,
		      unsigned char *end)
{
	return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
					   (const unsigned char *)value, (int)strlen(value), p,
					   end);
}

/* The headers every asset answer carries. */
static int asset_headers(struct lws *wsi, const char *etag, const char *cache, unsigned char **p,
			 unsigned char *end)
{
	return add_header(wsi, "etag:", etag, p, end) ||
	       add_header(wsi, "cache-control:", cache, p, end) ||
	       add_header(wsi, "x-content-type-options:", "nosniff", p, end) ||
	       add_header(wsi, "x-frame-options:", "DENY", p, end) ||
	       add_header(wsi, "referrer-policy:", "no-referrer", p, end);
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

/* The next piece of an answer from memory; the transaction ends with its last byte. */
static int send_more(struct lws *wsi, struct conn *c)
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
	    (a->gz && add_header(wsi, "vary:", "accept-encoding", &p, end)) ||
	    (gz && add_header(wsi, "content-encoding:", "gzip", &p, end)) ||
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
	return send_more(wsi, c);
}

/* ---- the lease ------------------------------------------------------------------------------ */

static void hex_of(const unsigned char *b, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

static bool is_token(const char *s)
{
	size_t n = 0;
	for (; s[n]; n++) {
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'))) {
			return false;
		}
	}
	return n == WEB_TOKEN_HEX;
}

/* What only this server can say about the page's nonce: HMAC-SHA256 under the page's key of
 * "botdesk-web WHAT NONCE", in hex (PROOF_HEX + 1 bytes). WHAT keeps a proof for one use from
 * passing for another. */
static int proof_of(const char *what, const char *nonce, char *out)
{
	char msg[128];
	int n = snprintf(msg, sizeof(msg), "botdesk-web %s %s", what, nonce);
	if (n < 0 || (size_t)n >= sizeof(msg)) {
		return -ENOSPC;
	}
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	if (!HMAC(EVP_sha256(), S.key, sizeof(S.key), (const unsigned char *)msg, (size_t)n, md,
		  &mdlen) ||
	    mdlen * 2 != PROOF_HEX) {
		return -EIO;
	}
	hex_of(md, mdlen, out);
	return 0;
}

/* The lease; with a nonce (the page's, 32 hex digits), the proof that this server answers. */
static int lease_json(char *out, size_t size, const char *nonce)
{
	char proof[PROOF_HEX + 1] = "";
	if (nonce && proof_of("lease", nonce, proof) < 0) {
		return -EIO;
	}
	struct lease l;
	(void)lease_read_at(S.cfg->dirfd, &l);
	char reason[LEASE_REASON_MAX * 6 + 1];
	if (web_json_escape(l.reason, reason, sizeof(reason)) < 0) {
		reason[0] = '\0';
	}
	char profile[256];
	if (web_json_escape(S.cfg->profile, profile, sizeof(profile)) < 0) {
		profile[0] = '\0';
	}
	/* The agent's request for a human (lease.h), for the bar to show: null when none. */
	struct lease_request rq;
	char requested[LEASE_REASON_MAX * 6 + 64] = "null";
	char asked[LEASE_REASON_MAX * 6 + 1];
	if (lease_request_read_at(S.cfg->dirfd, &rq) == 0 &&
	    web_json_escape(rq.reason, asked, sizeof(asked)) == 0) {
		snprintf(requested, sizeof(requested), "{\"since\":%lld,\"reason\":\"%s\"}",
			 (long long)rq.since, asked);
	}
	int n = snprintf(
		out, size,
		"{\"profile\":\"%s\",\"holder\":\"%s\",\"since\":%lld,\"reason\":\"%s\",\"epoch\":%llu,\"readable\":%s,\"requested\":%s,\"csrf\":\"%s\",\"key\":\"%s\",\"proof\":\"%s\"}\n",
		profile, lease_holder_name(l.holder), (long long)l.since, reason,
		(unsigned long long)l.epoch, l.unreadable ? "false" : "true", requested, S.csrf,
		S.key_hex, proof);
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

/* Closes every websocket that is on the door the lease no longer gives this page. */
static void lease_changed(void)
{
	struct lease l;
	(void)lease_read_at(S.cfg->dirfd, &l);
	bool human = l.holder == LEASE_HUMAN;
	if (human == S.human) {
		return;
	}
	S.human = human;
	for (struct conn *c = S.ws_list; c; c = c->next) {
		if (c->human_door != human && !c->closing) {
			c->closing = true;
			lws_callback_on_writable(c->wsi);
		}
	}
}

static int lease_answer(struct lws *wsi)
{
	char body[4096];
	if (lease_json(body, sizeof(body), NULL) < 0) {
		return -1;
	}
	return respond(wsi, HTTP_STATUS_OK, "application/json", body, NULL, NULL);
}

static struct release *release_free_slot(void)
{
	for (size_t i = 0; i < RELEASE_MAX; i++) {
		if (!S.releases[i].used) {
			return &S.releases[i];
		}
	}
	return NULL;
}

static struct release *release_of(const void *o)
{
	for (size_t i = 0; i < RELEASE_MAX; i++) {
		if (o == &S.releases[i]) {
			return &S.releases[i];
		}
	}
	return NULL;
}

/* Starts the release program for a take and hands its pidfd to the event loop; c (may be NULL)
 * is the request that waits for it. 0, or -errno with nothing left running. */
static int release_start(struct release *rel, struct conn *c)
{
	const struct web_config *cfg = S.cfg;
	struct act_handoff h = {
		.program = cfg->act_pointer,
		.profile = cfg->profile,
		.dir = cfg->state,
		.dirfd = cfg->dirfd,
		.display = cfg->display,
		.xauthority = cfg->xauthority,
	};
	pid_t pid;
	int pfd = act_release_spawn(&h, &pid);
	if (pfd < 0) {
		return pfd;
	}
	lws_sock_file_fd_type u = {.filefd = pfd};
	struct lws *w =
		lws_adopt_descriptor_vhost(S.vh, LWS_ADOPT_RAW_FILE_DESC, u, "botdesk-raw", NULL);
	if (!w) {
		/* lws closed the pidfd; the child is still ours to end. */
		kill(pid, SIGKILL);
		(void)waitpid(pid, NULL, 0);
		return -ENOMEM;
	}
	*rel = (struct release){.used = true, .pid = pid, .http = c};
	if (c) {
		c->release = rel;
	}
	lws_set_opaque_user_data(w, rel);
	/* Past its bound the wsi closes, and release_closed() kills what is left. */
	lws_set_timeout(w, PENDING_TIMEOUT_USER_OK, ACT_RELEASE_WAIT_MS / 1000);
	return 0;
}

/* The pidfd is readable: the program has ended (or this is a spurious wake). -1 closes the
 * pidfd's wsi, which answers the take (release_closed()). */
static int release_rx(struct release *rel)
{
	int status = 0;
	pid_t r = waitpid(rel->pid, &status, WNOHANG);
	if (r == 0) {
		return 0;
	}
	rel->reaped = true;
	if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		log_warn(
			"could not release the keys and buttons the agent holds on the desktop of profile '%s'; see the message above",
			S.cfg->profile);
	}
	return -1;
}

/* The pidfd's wsi is gone: the program ended, ran past its bound, or the server stops. Whatever
 * still runs is killed and reaped; the take waiting for it, if still there, is answered. */
static void release_closed(struct release *rel)
{
	if (!rel->reaped) {
		kill(rel->pid, SIGKILL);
		(void)waitpid(rel->pid, NULL, 0);
		if (!S.destroying) {
			log_warn(
				"the release of the agent's keys and buttons on the desktop of profile '%s' took over %d s (its X server did not answer) and was stopped",
				S.cfg->profile, ACT_RELEASE_WAIT_MS / 1000);
		}
	}
	struct conn *c = rel->http;
	if (c && !S.destroying) {
		c->release = NULL;
		c->take_answer = true;
		lws_callback_on_writable(c->wsi);
	}
	*rel = (struct release){0};
}

/* The request behind c went away: its release still runs, and is reaped, without it. */
static void http_closed(struct conn *c)
{
	if (c && c->release) {
		c->release->http = NULL;
		c->release = NULL;
	}
}

/* Take over and Hand back. A take, once the lease is the human's, runs the release program
 * (common/acthandoff.h) and is answered when it has ended: after the answer nothing of the
 * agent's is on its way and nothing it pressed is still down, as after `botdesk take`. */
static int lease_post(struct lws *wsi, struct conn *c, enum lease_holder to)
{
	char origin[256] = "", host[256] = "", csrf[WEB_TOKEN_HEX + 2] = "";
	lws_hdr_copy(wsi, origin, sizeof(origin), WSI_TOKEN_ORIGIN);
	lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST);
	int n = lws_hdr_custom_copy(wsi, csrf, sizeof(csrf), "x-botdesk-csrf:", 15);
	if (!web_origin_ok(origin, host, S.tls, listen_name()) || n != WEB_TOKEN_HEX ||
	    strcmp(csrf, S.csrf) != 0) {
		return forbidden(wsi);
	}
	struct release *rel = NULL;
	if (to == LEASE_HUMAN && S.cfg->act_pointer) {
		/* Refused before the lease changes: a 503 has done nothing. */
		rel = release_free_slot();
		if (!rel) {
			return respond(
				wsi, HTTP_STATUS_SERVICE_UNAVAILABLE, "text/plain",
				"other takes are still releasing the agent's keys; try again in a moment\n",
				NULL, NULL);
		}
	}
	struct lease l;
	bool changed;
	int r = lease_set_at(S.cfg->dirfd, to,
			     to == LEASE_HUMAN ? "taken over in botdesk web" : NULL,
			     (int64_t)time(NULL), &l, &changed);
	if (r < 0) {
		log_warn("cannot write the lease in %s: %s", S.cfg->state, strerror(-r));
		return respond(wsi, HTTP_STATUS_SERVICE_UNAVAILABLE, "text/plain",
			       "the lease could not be written; see botdesk web's output\n", NULL,
			       NULL);
	}
	lease_changed();
	if (rel) {
		if (c) {
			c->wsi = wsi;
		}
		r = release_start(rel, c);
		if (r == 0 && c) {
			/* The request outlives the request timeout while it waits: past the
			 * program's own bound, with a second to spare for its kill. */
			lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK,
					ACT_RELEASE_WAIT_MS / 1000 + 2);
			return 0; /* answered by release_closed() */
		}
		if (r < 0) {
			log_warn(
				"cannot run %s: %s; the keys and buttons the agent holds on the desktop of profile '%s' stay down",
				S.cfg->act_pointer, strerror(-r), S.cfg->profile);
		}
	}
	return lease_answer(wsi);
}

/* ---- HTTP ----------------------------------------------------------------------------------- */

static bool authorized(struct lws *wsi)
{
	if (!tcp_mode()) {
		return true; /* the socket is 0600 in a 0700 directory: its owner only */
	}
	char cookie[1024], token[WEB_TOKEN_HEX + 1];
	if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_COOKIE) >= (int)sizeof(cookie) ||
	    lws_hdr_copy(wsi, cookie, sizeof(cookie), WSI_TOKEN_HTTP_COOKIE) < 0) {
		return false;
	}
	return web_cookie_token(cookie, S.cookie_name, token) == 0 &&
	       web_session_valid(&S.tickets, token);
}

/* The page, its files and noVNC's: from memory when the server holds them (under this server's
 * version, for good), else from disk by the same path rules. */
static int static_request(struct lws *wsi, struct conn *c, const char *uri)
{
	const char *prefix = S.assets.prefix;
	size_t plen = strlen(prefix);
	bool versioned = strncmp(uri, prefix, plen) == 0 && uri[plen] == '/';
	if (versioned) {
		uri += plen;
	}
	/* Under a version only the files are (the page is one per server, and revalidated); another
	 * version is another server's page, or a file that changed since. */
	if ((versioned && !startswith(uri, "/web/") && !startswith(uri, "/novnc/")) ||
	    (!versioned && startswith(uri, "/v/"))) {
		return respond(wsi, HTTP_STATUS_NOT_FOUND, "text/plain", "not found\n", NULL, NULL);
	}
	const struct web_asset *a = web_assets_find(&S.assets, uri);
	if (a) {
		return serve_asset(wsi, c, a, versioned);
	}
	char path[1024];
	if (web_static_path(uri, "/web/", S.cfg->data, path, sizeof(path)) == 0 ||
	    web_static_path(uri, "/novnc/", S.cfg->novnc, path, sizeof(path)) == 0) {
		return serve_file(wsi, path);
	}
	return respond(wsi, HTTP_STATUS_NOT_FOUND, "text/plain", "not found\n", NULL, NULL);
}

static int http_request(struct lws *wsi, struct conn *c, const char *uri)
{
	if (host_refused(wsi)) {
		return misdirected(wsi);
	}
	bool post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
	bool get = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0;
	char arg[128];
	const char *ticket = lws_get_urlarg_by_name(wsi, "ticket=", arg, sizeof(arg));
	if (ticket && tcp_mode()) {
		char session[WEB_TOKEN_HEX + 1];
		if (!get || web_ticket_redeem(&S.tickets, ticket, now_ms(), session) < 0) {
			return forbidden(wsi);
		}
		/* The page --open wrote held a ticket: used now, or another's, it has done its job.
		 */
		(void)unlinkat(S.cfg->dirfd, WEB_OPEN_PAGE, 0);
		char cookie[160];
		snprintf(cookie, sizeof(cookie), "%s=%s; Path=/; HttpOnly; SameSite=Strict%s",
			 S.cookie_name, session, S.tls ? "; Secure" : "");
		/* The same page without the ticket in the address bar. */
		return respond(wsi, HTTP_STATUS_FOUND, "text/plain", NULL, cookie, "/");
	}
	if (!authorized(wsi)) {
		return forbidden(wsi);
	}
	if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0) {
		char cl[32] = "";
		lws_hdr_copy(wsi, cl, sizeof(cl), WSI_TOKEN_HTTP_CONTENT_LENGTH);
		if (strcmp(cl, "0") != 0) {
			/* Nothing here takes a body: refused whole, not read. */
			respond(wsi, HTTP_STATUS_REQ_ENTITY_TOO_LARGE, "text/plain",
				"no request here takes a body\n", NULL, NULL);
			return -1;
		}
	}
	if (post && streq(uri, "/take")) {
		return lease_post(wsi, c, LEASE_HUMAN);
	}
	if (post && streq(uri, "/release")) {
		return lease_post(wsi, c, LEASE_AGENT);
	}
	if (!get) {
		return respond(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, "text/plain",
			       "method not allowed\n", NULL, NULL);
	}
	if (streq(uri, "/lease")) {
		char body[4096], nonce[64];
		const char *nv = lws_get_urlarg_by_name(wsi, "nonce=", nonce, sizeof(nonce));
		if (nv && !is_token(nv)) {
			return respond(wsi, HTTP_STATUS_BAD_REQUEST, "text/plain",
				       "the nonce is 32 lowercase hex digits\n", NULL, NULL);
		}
		if (lease_json(body, sizeof(body), nv) < 0) {
			return -1;
		}
		return respond(wsi, HTTP_STATUS_OK, "application/json", body, NULL, NULL);
	}
	return static_request(wsi, c, uri);
}

/* A websocket upgrade: the same authorization, its own Origin, one path. >0 when refused. */
static int confirm_upgrade(struct lws *wsi)
{
	char uri[64] = "", origin[256] = "", host[256] = "";
	lws_hdr_copy(wsi, uri, sizeof(uri), WSI_TOKEN_GET_URI);
	lws_hdr_copy(wsi, origin, sizeof(origin), WSI_TOKEN_ORIGIN);
	lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST);
	if (host_refused(wsi)) {
		misdirected(wsi);
		return 1;
	}
	if (!streq(uri, "/websockify") || !authorized(wsi) ||
	    !web_origin_ok(origin, host, S.tls, listen_name()) || S.ws_count >= WS_MAX) {
		respond(wsi, HTTP_STATUS_FORBIDDEN, "text/plain", "forbidden\n", NULL, NULL);
		return 1;
	}
	return 0;
}

/* ---- the proxy ------------------------------------------------------------------------------ */

static int connect_door(bool human)
{
	const char *name = human ? LAUNCHER_SOCKET : LAUNCHER_VIEW_SOCKET;
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int r;
	if (!human && S.cfg->view_socket) {
		/* The watchers' door where the desktop put it (view_dir), not beside the lease. */
		r = path_format(sa.sun_path, sizeof(sa.sun_path), "%s", S.cfg->view_socket);
	} else {
		/* Through the directory we hold, whatever the length of its path. */
		r = path_format(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s",
				S.cfg->dirfd, name);
	}
	if (r < 0) {
		return r;
	}
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return negative_errno();
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = negative_errno();
		close(fd);
		return r;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		r = negative_errno();
		close(fd);
		return r;
	}
	return fd;
}

static int ws_established(struct lws *wsi, struct conn *c)
{
	struct lease l;
	(void)lease_read_at(S.cfg->dirfd, &l);
	S.human = l.holder == LEASE_HUMAN;
	*c = (struct conn){
		.kind = K_HTTP, .wsi = wsi, .is_ws = true, .human_door = S.human, .upfd = -1};
	c->to_ws = malloc(LWS_PRE + PROXY_BUF);
	c->to_up = malloc(PROXY_BUF);
	if (!c->to_ws || !c->to_up) {
		free(c->to_ws);
		free(c->to_up);
		c->to_ws = c->to_up = NULL;
		c->is_ws = false;
		return -1;
	}
	/* On the list from now: ws_closed() frees the buffers. The door comes after the page's
	 * proof (ws_challenge). */
	c->stage = WS_NONCE;
	c->next = S.ws_list;
	S.ws_list = c;
	S.ws_count++;
	return 0;
}

/* The page's side of the stream before the door: its nonce (32 hex digits), answered with the
 * proof that this is the server the page was loaded from; then its "go", and only then the
 * door. A page that does not get a good proof sends nothing more (data/web/bar.js). */
static int ws_challenge(struct lws *wsi, struct conn *c, const void *in, size_t len)
{
	if (c->stage == WS_NONCE) {
		char nonce[WEB_TOKEN_HEX + 1];
		if (len != WEB_TOKEN_HEX) {
			return -1;
		}
		memcpy(nonce, in, len);
		nonce[len] = '\0';
		if (!is_token(nonce) ||
		    proof_of("websocket", nonce, (char *)c->to_ws + LWS_PRE) < 0) {
			return -1;
		}
		c->to_ws_len = PROOF_HEX;
		c->stage = WS_GO;
		lws_callback_on_writable(wsi);
		return 0;
	}
	if (len != 2 || memcmp(in, "go", 2) != 0) {
		return -1;
	}
	/* The door of the lease at this moment. */
	struct lease l;
	(void)lease_read_at(S.cfg->dirfd, &l);
	S.human = l.holder == LEASE_HUMAN;
	c->human_door = S.human;
	int fd = connect_door(c->human_door);
	if (fd < 0) {
		log_warn("cannot reach the desktop's %s door (%s): %s",
			 c->human_door ? "control" : "view",
			 !c->human_door && S.cfg->view_socket ? S.cfg->view_socket : S.cfg->state,
			 strerror(-fd));
		return -1;
	}
	c->upfd = fd;
	lws_sock_file_fd_type u = {.filefd = fd};
	c->peer = lws_adopt_descriptor_vhost(S.vh, LWS_ADOPT_RAW_FILE_DESC, u, "botdesk-raw", NULL);
	if (!c->peer) {
		c->upfd = -1; /* lws closed it */
		return -1;
	}
	lws_set_opaque_user_data(c->peer, c);
	c->stage = WS_PROXY;
	return 0;
}

static void ws_closed(struct conn *c)
{
	for (struct conn **pp = &S.ws_list; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			S.ws_count--;
			break;
		}
	}
	if (c->peer && !S.destroying) {
		lws_set_opaque_user_data(c->peer, NULL);
		lws_set_timeout(c->peer, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
		c->peer = NULL;
	}
	free(c->to_ws);
	free(c->to_up);
	c->to_ws = c->to_up = NULL;
}

static int ws_writeable(struct lws *wsi, struct conn *c)
{
	if (c->closing && c->to_ws_len == 0) {
		static unsigned char lease[] = "lease", door[] = "desktop";
		if (c->door_closed) {
			lws_close_reason(wsi, LWS_CLOSE_STATUS_GOINGAWAY, door, sizeof(door) - 1);
		} else {
			lws_close_reason(wsi, (enum lws_close_status)CLOSE_LEASE, lease,
					 sizeof(lease) - 1);
		}
		return -1;
	}
	if (c->to_ws_len == 0) {
		return 0;
	}
	int n = lws_write(wsi, c->to_ws + LWS_PRE, c->to_ws_len, LWS_WRITE_BINARY);
	if (n < (int)c->to_ws_len) {
		return -1;
	}
	c->to_ws_len = 0;
	if (c->closing) {
		lws_callback_on_writable(wsi);
	} else if (c->peer) {
		lws_rx_flow_control(c->peer, 1);
	}
	return 0;
}

static int ws_receive(struct lws *wsi, struct conn *c, const void *in, size_t len)
{
	if (c->stage != WS_PROXY) {
		return ws_challenge(wsi, c, in, len);
	}
	if (!c->peer || c->upfd < 0) {
		return -1;
	}
	size_t done = 0;
	if (c->to_up_len == 0) {
		ssize_t n = write(c->upfd, in, len);
		if (n < 0 && errno != EAGAIN) {
			return -1;
		}
		done = n > 0 ? (size_t)n : 0;
	}
	size_t rest = len - done;
	if (rest == 0) {
		return 0;
	}
	if (c->to_up_len + rest > PROXY_BUF) {
		return -1; /* cannot happen with flow control on: a frame is at most PROXY_BUF */
	}
	memcpy(c->to_up + c->to_up_len, (const unsigned char *)in + done, rest);
	c->to_up_len += rest;
	lws_rx_flow_control(wsi, 0);
	lws_callback_on_writable(c->peer);
	return 0;
}

static int up_rx(struct lws *wsi, struct conn *c)
{
	if (!c || c->to_ws_len) {
		lws_rx_flow_control(wsi, 0);
		return c ? 0 : -1;
	}
	ssize_t n = read(c->upfd, c->to_ws + LWS_PRE, PROXY_BUF);
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		return 0;
	}
	if (n <= 0) {
		return -1;
	}
	c->to_ws_len = (size_t)n;
	lws_rx_flow_control(wsi, 0);
	lws_callback_on_writable(c->wsi);
	return 0;
}

static int up_writeable(struct lws *wsi, struct conn *c)
{
	if (!c) {
		return -1;
	}
	while (c->to_up_off < c->to_up_len) {
		ssize_t n = write(c->upfd, c->to_up + c->to_up_off, c->to_up_len - c->to_up_off);
		if (n < 0 && errno == EAGAIN) {
			lws_callback_on_writable(wsi);
			return 0;
		}
		if (n <= 0) {
			return -1;
		}
		c->to_up_off += (size_t)n;
	}
	c->to_up_len = c->to_up_off = 0;
	lws_rx_flow_control(c->wsi, 1);
	return 0;
}

/* ---- the lease watch and the control socket ------------------------------------------------- */

static int watch_rx(struct lws *wsi)
{
	char buf[4096];
	while (read(lws_get_socket_fd(wsi), buf, sizeof(buf)) > 0) {
	}
	lease_changed();
	return 0;
}

/* The URL with a ticket for a server on host:port. */
static int ticket_url(const struct web_config *cfg, const char *hex, char *out, size_t size)
{
	bool v6 = strchr(cfg->host, ':') != NULL;
	int n = snprintf(out, size, "%s://%s%s%s:%u/?ticket=%s", cfg->tls_cert ? "https" : "http",
			 v6 ? "[" : "", cfg->host, v6 ? "]" : "", cfg->port, hex);
	return n < 0 || (size_t)n >= size ? -ENOSPC : 0;
}

static int ctl_rx(struct lws *wsi)
{
	int fd = accept4(lws_get_socket_fd(wsi), NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0) {
		return 0;
	}
	struct ucred cred;
	socklen_t len = sizeof(cred);
	char line[512];
	char hex[WEB_TOKEN_HEX + 1];
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.uid == geteuid() &&
	    web_ticket_issue(&S.tickets, now_ms(), hex) == 0 &&
	    ticket_url(S.cfg, hex, line, sizeof(line)) == 0) {
		size_t n = strlen(line);
		line[n++] = '\n';
		(void)!write(fd, line, n);
	}
	close(fd);
	return 0;
}

/* The uid that owns the other end of a TCP connection when that end is on this host (a local
 * user's socket), by one exact sock_diag lookup; -ENOENT when it is elsewhere. */
static int peer_uid(const struct sockaddr_storage *local, const struct sockaddr_storage *peer,
		    uid_t *ret)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = {.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST},
		.r = {.sdiag_family = (uint8_t)peer->ss_family,
		      .sdiag_protocol = IPPROTO_TCP,
		      .idiag_states = ~0U,
		      .id = {.idiag_cookie = {INET_DIAG_NOCOOKIE, INET_DIAG_NOCOOKIE}}},
	};
	/* The socket whose own end is the peer's address and whose other end is ours. */
	if (peer->ss_family == AF_INET) {
		const struct sockaddr_in *p = (const struct sockaddr_in *)peer;
		const struct sockaddr_in *l = (const struct sockaddr_in *)local;
		req.r.id.idiag_sport = p->sin_port;
		req.r.id.idiag_dport = l->sin_port;
		memcpy(req.r.id.idiag_src, &p->sin_addr, sizeof(p->sin_addr));
		memcpy(req.r.id.idiag_dst, &l->sin_addr, sizeof(l->sin_addr));
	} else if (peer->ss_family == AF_INET6) {
		const struct sockaddr_in6 *p = (const struct sockaddr_in6 *)peer;
		const struct sockaddr_in6 *l = (const struct sockaddr_in6 *)local;
		req.r.id.idiag_sport = p->sin6_port;
		req.r.id.idiag_dport = l->sin6_port;
		memcpy(req.r.id.idiag_src, &p->sin6_addr, sizeof(p->sin6_addr));
		memcpy(req.r.id.idiag_dst, &l->sin6_addr, sizeof(l->sin6_addr));
	} else {
		return -EAFNOSUPPORT;
	}
	_cleanup_close_ int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0) {
		return negative_errno();
	}
	if (send(nl, &req, sizeof(req), 0) != (ssize_t)sizeof(req)) {
		return -EIO;
	}
	union {
		struct nlmsghdr nlh;
		char buf[1024];
	} resp;
	ssize_t n = recv(nl, &resp, sizeof(resp), 0);
	if (n < (ssize_t)sizeof(struct nlmsghdr) || !NLMSG_OK(&resp.nlh, (size_t)n)) {
		return -EIO;
	}
	if (resp.nlh.nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(&resp.nlh);
		return e->error < 0 ? e->error : -EIO;
	}
	if (resp.nlh.nlmsg_type != SOCK_DIAG_BY_FAMILY ||
	    resp.nlh.nlmsg_len < NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
		return -EIO;
	}
	const struct inet_diag_msg *m = NLMSG_DATA(&resp.nlh);
	*ret = (uid_t)m->idiag_uid;
	return 0;
}

/* Whether a new TCP connection may wait for its request. The server's own user always (ssh -L
 * lands as sshd running as them). Another local user, known by the uid of the connecting socket,
 * while they hold fewer than PEER_PER_SOURCE connections to this server and all other local
 * users together fewer than PEER_OTHERS; a remote address likewise, in a count of its own. So no
 * number of idle or slow connections from others keeps the owner out, and each of theirs ends
 * at the header deadline or after its refusal. */
static bool peer_allowed(int fd)
{
	struct sockaddr_storage local, peer;
	socklen_t llen = sizeof(local), plen = sizeof(peer);
	struct stat st;
	if (getsockname(fd, (struct sockaddr *)&local, &llen) < 0 ||
	    getpeername(fd, (struct sockaddr *)&peer, &plen) < 0 || fstat(fd, &st) < 0) {
		return false;
	}
	uid_t uid = 0;
	int r = peer_uid(&local, &peer, &uid);
	bool remote = r == -ENOENT;
	if (r < 0 && !remote) {
		log_warn("cannot tell who connects to botdesk web (sock_diag: %s): refused",
			 strerror(-r));
		return false;
	}
	if (!remote && uid == geteuid()) {
		return true;
	}
	/* The table keeps others' live connections: an fd that no longer is the socket it was
	 * (closed, or its number reused) is gone. */
	unsigned same = 0, all = 0;
	struct peer *free_slot = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(S.peers); i++) {
		struct peer *p = &S.peers[i];
		struct stat pst;
		if (p->used &&
		    (fstat(p->fd, &pst) < 0 || pst.st_ino != p->ino || pst.st_dev != p->dev)) {
			p->used = false;
		}
		if (!p->used) {
			free_slot = free_slot ? free_slot : p;
			continue;
		}
		if (p->remote != remote) {
			continue;
		}
		all++;
		same += remote ? memcmp(&p->addr, &peer, sizeof(peer)) == 0 : p->uid == uid;
	}
	if (!free_slot || same >= PEER_PER_SOURCE || all >= PEER_OTHERS) {
		return false;
	}
	*free_slot = (struct peer){.used = true,
				   .remote = remote,
				   .fd = fd,
				   .ino = st.st_ino,
				   .dev = st.st_dev,
				   .uid = uid};
	/* A remote source is its address, whatever its port. */
	if (remote) {
		free_slot->addr = peer;
		if (peer.ss_family == AF_INET) {
			((struct sockaddr_in *)&free_slot->addr)->sin_port = 0;
		} else {
			((struct sockaddr_in6 *)&free_slot->addr)->sin6_port = 0;
		}
	}
	return true;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		    size_t len)
{
	struct conn *c = user;
	struct conn *o = lws_get_opaque_user_data(wsi);
	struct release *rel = release_of(o);
	switch (reason) {
	case LWS_CALLBACK_FILTER_NETWORK_CONNECTION: {
		const struct lws_filter_network_conn_args *a = user;
		if (tcp_mode()) {
			return !peer_allowed(a->accept_fd);
		}
		/* The socket's mode already keeps others out; this is the second lock. */
		struct ucred cred;
		socklen_t clen = sizeof(cred);
		return getsockopt(a->accept_fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0 ||
		       cred.uid != geteuid();
	}
	case LWS_CALLBACK_HTTP:
		return http_request(wsi, c, in ? (const char *)in : "/");
	case LWS_CALLBACK_HTTP_WRITEABLE:
		if (c && c->take_answer) {
			c->take_answer = false;
			return lease_answer(wsi);
		}
		return c && !c->is_ws && c->send ? send_more(wsi, c) : 0;
	case LWS_CALLBACK_CLOSED_HTTP:
		http_closed(c);
		return 0;
	case LWS_CALLBACK_HTTP_FILE_COMPLETION:
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		return confirm_upgrade(wsi);
	case LWS_CALLBACK_ESTABLISHED:
		return ws_established(wsi, c);
	case LWS_CALLBACK_CLOSED:
		if (c && c->is_ws) {
			ws_closed(c);
		}
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return c && c->is_ws ? ws_writeable(wsi, c) : 0;
	case LWS_CALLBACK_RECEIVE:
		return c && c->is_ws ? ws_receive(wsi, c, in, len) : -1;
	case LWS_CALLBACK_RAW_RX_FILE:
		if (rel) {
			return release_rx(rel);
		}
		if (o == &S.watch) {
			return watch_rx(wsi);
		}
		if (o == &S.ctl) {
			return ctl_rx(wsi);
		}
		return up_rx(wsi, o);
	case LWS_CALLBACK_RAW_WRITEABLE_FILE:
		return o == &S.watch || o == &S.ctl || rel ? 0 : up_writeable(wsi, o);
	case LWS_CALLBACK_RAW_CLOSE_FILE:
		if (rel) {
			release_closed(rel);
			return 0;
		}
		if (o && o != &S.watch && o != &S.ctl && !S.destroying) {
			o->peer = NULL;
			o->upfd = -1;
			o->closing = true;
			o->door_closed = true;
			lws_callback_on_writable(o->wsi);
		}
		return 0;
	default:
		return 0;
	}
}

static const struct lws_protocols protocols[] = {
	{"http", callback, sizeof(struct conn), PROXY_BUF, 0, NULL, PROXY_BUF},
	{"botdesk-raw", callback, 0, 0, 0, NULL, 0},
	{NULL, NULL, 0, 0, 0, NULL, 0},
};

static int adopt(int fd, struct conn *marker)
{
	lws_sock_file_fd_type u = {.filefd = fd};
	struct lws *w =
		lws_adopt_descriptor_vhost(S.vh, LWS_ADOPT_RAW_FILE_DESC, u, "botdesk-raw", NULL);
	if (!w) {
		return -ENOMEM;
	}
	lws_set_opaque_user_data(w, marker);
	return 0;
}

static struct lws_context *volatile wake_ctx;

void web_wake(void)
{
	if (wake_ctx) {
		lws_cancel_service(wake_ctx);
	}
}

static void lws_logger(int level, const char *line)
{
	log_debug("libwebsockets: %.*s", (int)strcspn(line, "\n"), line);
}

int web_serve(const struct web_config *cfg, volatile sig_atomic_t *stop)
{
	S.cfg = cfg;
	S.tls = cfg->tls_cert != NULL;
	S.watch.kind = K_WATCH;
	S.ctl.kind = K_CTL;
	int r = web_token_new(S.csrf);
	if (r < 0) {
		return r;
	}
	/* This server's own cookie name and the page's key: random per server, never on disk. */
	char id[WEB_TOKEN_HEX + 1];
	if ((r = web_token_new(id)) < 0 || getrandom(S.key, sizeof(S.key), 0) != sizeof(S.key)) {
		return r < 0 ? r : -EIO;
	}
	snprintf(S.cookie_name, sizeof(S.cookie_name), "%s%.*s", WEB_COOKIE_PREFIX,
		 WEB_SERVER_ID_HEX, id);
	hex_of(S.key, sizeof(S.key), S.key_hex);
	if ((r = web_assets_load(&S.assets, cfg->data, cfg->novnc)) < 0) {
		return r;
	}
	/* Compressing took scratch memory that is free now: back to the system, not resident. */
	(void)malloc_trim(0);
	lws_set_log_level(LLL_ERR | LLL_WARN, lws_logger);

	struct lws_context_creation_info info = {0};
	info.protocols = protocols;
	info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_DISABLE_IPV6 * 0;
	/* What the server accepts from a request is bounded here: headers (all of them) in 4 KiB,
	 * 40 requests' headers at once (others' connections hold at most 2 * PEER_OTHERS of them),
	 * HEADERS_SECS for them to arrive. */
	info.max_http_header_data = 4096;
	info.max_http_header_pool = 40;
	info.timeout_secs = HEADERS_SECS;
	info.timeout_secs_ah_idle = HEADERS_SECS;
	info.fd_limit_per_thread = 128;
	info.alpn = "http/1.1";
	info.server_string = "botdesk-web";
	S.ctx = lws_create_context(&info);
	if (!S.ctx) {
		web_assets_free(&S.assets);
		return -ENOMEM;
	}
	wake_ctx = S.ctx;

	struct lws_context_creation_info vi = {0};
	vi.protocols = protocols;
	vi.vhost_name = "botdesk";
	vi.keepalive_timeout = 10;
	if (cfg->unix_path) {
		vi.options |= LWS_SERVER_OPTION_UNIX_SOCK;
		vi.iface = cfg->unix_path;
		vi.port = 0;
	} else {
		vi.iface = cfg->host;
		vi.port = (int)cfg->port;
		if (!strchr(cfg->host, ':')) {
			vi.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
		}
	}
	if (cfg->tls_cert) {
		vi.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
		vi.ssl_cert_filepath = cfg->tls_cert;
		vi.ssl_private_key_filepath = cfg->tls_key;
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	}
	/* The unix socket is created 0600: its owner alone may connect. */
	mode_t old = umask(0177);
	S.vh = lws_create_vhost(S.ctx, &vi);
	umask(old);
	if (!S.vh) {
		r = -EADDRINUSE;
		goto out;
	}

	int ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	char dirpath[64];
	if (path_format(dirpath, sizeof(dirpath), "/proc/self/fd/%d", cfg->dirfd) < 0) {
		errno = ENAMETOOLONG;
		safe_close(ifd);
		ifd = -1;
	}
	if (ifd < 0 ||
	    inotify_add_watch(ifd, dirpath, IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR) < 0) {
		r = negative_errno();
		safe_close(ifd);
		goto out;
	}
	if ((r = adopt(ifd, &S.watch)) < 0) {
		goto out;
	}
	int cfd = -1;
	if (!cfg->unix_path) {
		cfd = webctl_listen(cfg->dirfd);
		if (cfd < 0) {
			r = cfd;
			goto out;
		}
		if ((r = adopt(cfd, &S.ctl)) < 0) {
			goto out;
		}
	}
	struct lease l;
	(void)lease_read_at(cfg->dirfd, &l);
	S.human = l.holder == LEASE_HUMAN;
	char url[512] = "";
	if (!cfg->unix_path) {
		char hex[WEB_TOKEN_HEX + 1];
		if ((r = web_ticket_issue(&S.tickets, now_ms(), hex)) < 0 ||
		    (r = ticket_url(cfg, hex, url, sizeof(url))) < 0) {
			goto out;
		}
	}
	if (cfg->ready && cfg->ready(cfg, url, cfg->userdata)) {
		r = 0;
		goto out;
	}
	while (!*stop) {
		if (lws_service(S.ctx, 0) < 0) {
			break;
		}
	}
	r = 0;
out:
	wake_ctx = NULL;
	S.destroying = true;
	lws_context_destroy(S.ctx);
	S.ctx = NULL;
	/* A release the context did not close (it closes every wsi, so none should be left):
	 * never a zombie. */
	for (size_t i = 0; i < RELEASE_MAX; i++) {
		if (S.releases[i].used) {
			release_closed(&S.releases[i]);
		}
	}
	web_assets_free(&S.assets);
	return r;
}
