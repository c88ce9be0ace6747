#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <libwebsockets.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

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
	size_t to_ws_len;
	unsigned char *to_ws; /* LWS_PRE + PROXY_BUF */
	size_t to_up_len, to_up_off;
	unsigned char *to_up; /* PROXY_BUF */
};

static struct {
	const struct web_config *cfg;
	struct lws_context *ctx;
	struct lws_vhost *vh;
	struct web_tickets tickets;
	char csrf[WEB_TOKEN_HEX + 1];
	struct conn *ws_list;
	unsigned ws_count;
	bool human; /* the lease's holder as last seen */
	struct conn watch, ctl;
	bool tls;
	bool destroying; /* lws_context_destroy() closes everything: no cross-calls */
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

static int forbidden(struct lws *wsi)
{
	return respond(wsi, HTTP_STATUS_FORBIDDEN, "text/plain", "forbidden\n", NULL, NULL);
}

static int serve_file(struct lws *wsi, const char *path)
{
	const char *type = web_content_type(path);
	if (!type || access(path, R_OK) < 0) {
		return respond(wsi, HTTP_STATUS_NOT_FOUND, "text/plain", "not found\n", NULL, NULL);
	}
	static const char extra[] = "x-frame-options: DENY\r\n"
				    "x-content-type-options: nosniff\r\n"
				    "referrer-policy: no-referrer\r\n";
	int r = lws_serve_http_file(wsi, path, type, extra, (int)sizeof(extra) - 1);
	if (r < 0 || (r > 0 && lws_http_transaction_completed(wsi))) {
		return -1;
	}
	return 0;
}

/* ---- the lease ------------------------------------------------------------------------------ */

static int lease_json(char *out, size_t size)
{
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
	int n = snprintf(
		out, size,
		"{\"profile\":\"%s\",\"holder\":\"%s\",\"since\":%lld,\"reason\":\"%s\",\"epoch\":%llu,\"readable\":%s,\"csrf\":\"%s\"}\n",
		profile, lease_holder_name(l.holder), (long long)l.since, reason,
		(unsigned long long)l.epoch, l.unreadable ? "false" : "true", S.csrf);
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

static int lease_post(struct lws *wsi, enum lease_holder to)
{
	char origin[256] = "", host[256] = "", csrf[WEB_TOKEN_HEX + 2] = "";
	lws_hdr_copy(wsi, origin, sizeof(origin), WSI_TOKEN_ORIGIN);
	lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST);
	int n = lws_hdr_custom_copy(wsi, csrf, sizeof(csrf), "x-botdesk-csrf:", 15);
	if (!web_origin_ok(origin, host, S.tls) || n != WEB_TOKEN_HEX ||
	    strcmp(csrf, S.csrf) != 0) {
		return forbidden(wsi);
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
	char body[1024];
	if (lease_json(body, sizeof(body)) < 0) {
		return -1;
	}
	return respond(wsi, HTTP_STATUS_OK, "application/json", body, NULL, NULL);
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
	return web_cookie_token(cookie, token) == 0 && web_session_valid(&S.tickets, token);
}

static int http_request(struct lws *wsi, const char *uri)
{
	bool post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
	bool get = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0;
	char arg[128];
	const char *ticket = lws_get_urlarg_by_name(wsi, "ticket=", arg, sizeof(arg));
	if (ticket && tcp_mode()) {
		char session[WEB_TOKEN_HEX + 1];
		if (!get || web_ticket_redeem(&S.tickets, ticket, now_ms(), session) < 0) {
			return forbidden(wsi);
		}
		char cookie[160];
		snprintf(cookie, sizeof(cookie), "%s=%s; Path=/; HttpOnly; SameSite=Strict%s",
			 WEB_COOKIE_NAME, session, S.tls ? "; Secure" : "");
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
		return lease_post(wsi, LEASE_HUMAN);
	}
	if (post && streq(uri, "/release")) {
		return lease_post(wsi, LEASE_AGENT);
	}
	if (!get) {
		return respond(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, "text/plain",
			       "method not allowed\n", NULL, NULL);
	}
	if (streq(uri, "/lease")) {
		char body[1024];
		if (lease_json(body, sizeof(body)) < 0) {
			return -1;
		}
		return respond(wsi, HTTP_STATUS_OK, "application/json", body, NULL, NULL);
	}
	char path[1024];
	if (streq(uri, "/")) {
		/* Too long a path is left empty: no file, rather than a file it was cut to. */
		(void)path_join(path, sizeof(path), S.cfg->data, "index.html");
		return serve_file(wsi, path);
	}
	if (web_static_path(uri, "/web/", S.cfg->data, path, sizeof(path)) == 0 ||
	    web_static_path(uri, "/novnc/", S.cfg->novnc, path, sizeof(path)) == 0) {
		return serve_file(wsi, path);
	}
	return respond(wsi, HTTP_STATUS_NOT_FOUND, "text/plain", "not found\n", NULL, NULL);
}

/* A websocket upgrade: the same authorization, its own Origin, one path. >0 when refused. */
static int confirm_upgrade(struct lws *wsi)
{
	char uri[64] = "", origin[256] = "", host[256] = "";
	lws_hdr_copy(wsi, uri, sizeof(uri), WSI_TOKEN_GET_URI);
	lws_hdr_copy(wsi, origin, sizeof(origin), WSI_TOKEN_ORIGIN);
	lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST);
	if (!streq(uri, "/websockify") || !authorized(wsi) || !web_origin_ok(origin, host, S.tls) ||
	    S.ws_count >= WS_MAX) {
		respond(wsi, HTTP_STATUS_FORBIDDEN, "text/plain", "forbidden\n", NULL, NULL);
		return 1;
	}
	return 0;
}

/* ---- the proxy ------------------------------------------------------------------------------ */

static int connect_door(bool human)
{
	const char *name = human ? "rfb.sock" : "view.sock";
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	/* Through the directory we hold, whatever the length of its path. */
	int r = path_format(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s", S.cfg->dirfd,
			    name);
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
	int fd = connect_door(c->human_door);
	if (fd < 0) {
		log_warn("cannot reach the desktop's %s door in %s: %s",
			 c->human_door ? "control" : "view", S.cfg->state, strerror(-fd));
		/* Not on the list: nothing else frees these. */
		free(c->to_ws);
		free(c->to_up);
		c->to_ws = c->to_up = NULL;
		c->is_ws = false;
		return -1;
	}
	c->upfd = fd;
	lws_sock_file_fd_type u = {.filefd = fd};
	c->peer = lws_adopt_descriptor_vhost(S.vh, LWS_ADOPT_RAW_FILE_DESC, u, "botdesk-raw", NULL);
	if (!c->peer) {
		c->upfd = -1; /* lws closed it */
		free(c->to_ws);
		free(c->to_up);
		c->to_ws = c->to_up = NULL;
		c->is_ws = false;
		return -1;
	}
	lws_set_opaque_user_data(c->peer, c);
	c->next = S.ws_list;
	S.ws_list = c;
	S.ws_count++;
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

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		    size_t len)
{
	struct conn *c = user;
	struct conn *o = lws_get_opaque_user_data(wsi);
	switch (reason) {
	case LWS_CALLBACK_FILTER_NETWORK_CONNECTION: {
		if (tcp_mode()) {
			return 0;
		}
		/* The socket's mode already keeps others out; this is the second lock. */
		const struct lws_filter_network_conn_args *a = user;
		struct ucred cred;
		socklen_t clen = sizeof(cred);
		return getsockopt(a->accept_fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) < 0 ||
		       cred.uid != geteuid();
	}
	case LWS_CALLBACK_HTTP:
		return http_request(wsi, in ? (const char *)in : "/");
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
		if (o == &S.watch) {
			return watch_rx(wsi);
		}
		if (o == &S.ctl) {
			return ctl_rx(wsi);
		}
		return up_rx(wsi, o);
	case LWS_CALLBACK_RAW_WRITEABLE_FILE:
		return o == &S.watch || o == &S.ctl ? 0 : up_writeable(wsi, o);
	case LWS_CALLBACK_RAW_CLOSE_FILE:
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
	lws_set_log_level(LLL_ERR | LLL_WARN, lws_logger);

	struct lws_context_creation_info info = {0};
	info.protocols = protocols;
	info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_DISABLE_IPV6 * 0;
	/* What the server accepts from a request is bounded here: headers (all of them) in 4 KiB,
	 * 16 requests' headers at once, 10 s for anything to arrive. */
	info.max_http_header_data = 4096;
	info.max_http_header_pool = 16;
	info.timeout_secs = 10;
	info.fd_limit_per_thread = 128;
	info.alpn = "http/1.1";
	info.server_string = "botdesk-web";
	S.ctx = lws_create_context(&info);
	if (!S.ctx) {
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
	return r;
}
