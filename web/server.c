/* botdesk-web's event loop: the lws context and its listener, the one callback that hands each
 * event to its part (routes.c, take.c, proxy.c, peers.c) with the server's state, and the
 * descriptors of our own (the lease's inotify, the control socket, main's wake-up). */
#include "server.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "pathjoin.h"
#include "util.h"
#include "webctl.h"
#include "webstate.h"

static int watch_rx(struct web_server *s, struct lws *wsi)
{
	char buf[4096];
	while (read(lws_get_socket_fd(wsi), buf, sizeof(buf)) > 0) {
	}
	proxy_lease_changed(s);
	return 0;
}

/* The URL with a ticket for a server on host:port. */
static int ticket_url(const struct web_config *cfg, const char *hex, char *out, size_t size)
{
	bool v6 = strchr(cfg->host, ':') != NULL;
	const char *lb = v6 ? "[" : "", *rb = v6 ? "]" : "";
	int n = snprintf(out, size, "%s://%s%s%s:%u/?ticket=%s", cfg->tls_cert ? "https" : "http",
			 lb, cfg->host, rb, cfg->port, hex);
	if (n < 0 || (size_t)n >= size) {
		return -ENOSPC;
	}
	return 0;
}

/* `botdesk web --ticket`: a fresh ticket's URL for the server's own user, one line. */
static int ctl_rx(struct web_server *s, struct lws *wsi)
{
	_cleanup_close_ int fd =
		accept4(lws_get_socket_fd(wsi), NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0) {
		return 0;
	}
	struct ucred cred;
	socklen_t len = sizeof(cred);
	char line[512];
	char hex[WEB_TOKEN_HEX + 1];
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 && cred.uid == geteuid() &&
	    web_ticket_issue(&s->tickets, web_now_ms(), hex) == 0 &&
	    ticket_url(s->cfg, hex, line, sizeof(line)) == 0) {
		size_t n = strlen(line);
		line[n++] = '\n';
		(void)!write(fd, line, n);
	}
	return 0;
}

/* Main's wake-up: drained; the loop then sees its stop flag. */
static int wake_rx(struct lws *wsi)
{
	uint64_t n;
	(void)!read(lws_get_socket_fd(wsi), &n, sizeof(n));
	return 0;
}

/* An event on one of our own descriptors, by what its endpoint is. */
static int raw_event(struct web_server *s, struct lws *wsi, enum lws_callback_reasons reason)
{
	const struct endpoint *ep = lws_get_opaque_user_data(wsi);
	if (!ep) {
		/* A door whose websocket has gone: it is being closed. */
		return reason == LWS_CALLBACK_RAW_CLOSE_FILE ? 0 : -1;
	}
	if (reason == LWS_CALLBACK_RAW_CLOSE_FILE) {
		if (ep->kind == EP_RELEASE) {
			take_closed(s, ep->owner);
		} else if (ep->kind == EP_DOOR) {
			proxy_door_closed(s, ep->owner);
		}
		return 0;
	}
	bool rx = reason == LWS_CALLBACK_RAW_RX_FILE;
	switch (ep->kind) {
	case EP_DOOR:
		return rx ? proxy_door_rx(wsi, ep->owner) : proxy_door_writeable(wsi, ep->owner);
	case EP_RELEASE:
		return rx ? take_rx(s, ep->owner) : 0;
	case EP_WATCH:
		return rx ? watch_rx(s, wsi) : 0;
	case EP_CTL:
		return rx ? ctl_rx(s, wsi) : 0;
	case EP_WAKE:
		return rx ? wake_rx(wsi) : 0;
	}
	return 0;
}

/* Whether a new connection may wait for its request (peers.c on an address; on the unix socket,
 * whose mode already keeps others out, the second lock: the peer's uid). */
static bool connection_allowed(struct web_server *s, int fd)
{
	if (web_tcp(s)) {
		return peers_allowed(s, fd);
	}
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0 && cred.uid == geteuid();
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
		    size_t len)
{
	struct web_server *s = lws_context_user(lws_get_context(wsi));
	struct conn *c = user;
	switch (reason) {
	case LWS_CALLBACK_FILTER_NETWORK_CONNECTION: {
		const struct lws_filter_network_conn_args *a = user;
		return !connection_allowed(s, a->accept_fd);
	}
	case LWS_CALLBACK_HTTP:
		return routes_http(s, wsi, c, in ? (const char *)in : "/");
	case LWS_CALLBACK_HTTP_WRITEABLE:
		if (c && c->take_answer) {
			c->take_answer = false;
			return routes_lease_answer(s, wsi);
		}
		return c && !c->is_ws && c->send ? routes_send_more(wsi, c) : 0;
	case LWS_CALLBACK_CLOSED_HTTP:
		take_request_gone(c);
		return 0;
	case LWS_CALLBACK_HTTP_FILE_COMPLETION:
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
		return routes_confirm_upgrade(s, wsi);
	case LWS_CALLBACK_ESTABLISHED:
		return proxy_established(s, wsi, c);
	case LWS_CALLBACK_CLOSED:
		if (c && c->is_ws) {
			proxy_closed(s, c);
		}
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return c && c->is_ws ? proxy_writeable(s, wsi, c) : 0;
	case LWS_CALLBACK_RECEIVE:
		return c && c->is_ws ? proxy_receive(s, wsi, c, in, len) : -1;
	case LWS_CALLBACK_RAW_RX_FILE:
	case LWS_CALLBACK_RAW_WRITEABLE_FILE:
	case LWS_CALLBACK_RAW_CLOSE_FILE:
		return raw_event(s, wsi, reason);
	default:
		return 0;
	}
}

static const struct lws_protocols protocols[] = {
	{"http", callback, sizeof(struct conn), PROXY_BUF, 0, NULL, PROXY_BUF},
	{"botdesk-raw", callback, 0, 0, 0, NULL, 0},
	{NULL, NULL, 0, 0, 0, NULL, 0},
};

/* fd into the loop as one of our own descriptors; lws owns it from here, even on failure. */
static int adopt(struct web_server *s, int fd, struct endpoint *ep)
{
	lws_sock_file_fd_type u = {.filefd = fd};
	struct lws *w =
		lws_adopt_descriptor_vhost(s->vh, LWS_ADOPT_RAW_FILE_DESC, u, "botdesk-raw", NULL);
	if (!w) {
		return -ENOMEM;
	}
	lws_set_opaque_user_data(w, ep);
	return 0;
}

static void lws_logger(int level, const char *line)
{
	log_debug("libwebsockets: %.*s", (int)strcspn(line, "\n"), line);
}

/* The server's secrets, random per start and never on disk: the CSRF token, the cookie's name,
 * the page's key. Then the page's files and noVNC's graph, into memory. */
static int state_init(struct web_server *s, const struct web_config *cfg)
{
	s->cfg = cfg;
	s->tls = cfg->tls_cert != NULL;
	s->watch.kind = EP_WATCH;
	s->ctl.kind = EP_CTL;
	s->wake.kind = EP_WAKE;
	char id[WEB_TOKEN_HEX + 1];
	int r = web_token_new(s->csrf);
	if (r < 0 || (r = web_token_new(id)) < 0) {
		return r;
	}
	if (getrandom(s->key, sizeof(s->key), 0) != sizeof(s->key)) {
		return -EIO;
	}
	snprintf(s->cookie_name, sizeof(s->cookie_name), "%s%.*s", WEB_COOKIE_PREFIX,
		 WEB_SERVER_ID_HEX, id);
	web_hex(s->key, sizeof(s->key), s->key_hex);
	if ((r = web_assets_load(&s->assets, cfg->data, cfg->novnc)) < 0) {
		return r;
	}
	/* Compressing took scratch memory that is free now: back to the system, not resident. */
	(void)malloc_trim(0);
	return 0;
}

/* The context, with every bound on what a request may hold, and TLS's global init when the
 * listener will need it (an option of the context: it must be there when the context is made). */
static int context_create(struct web_server *s)
{
	struct lws_context_creation_info info = {0};
	info.protocols = protocols;
	info.user = s;
	info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
	if (s->tls) {
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	}
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
	lws_set_log_level(LLL_ERR | LLL_WARN, lws_logger);
	s->ctx = lws_create_context(&info);
	return s->ctx ? 0 : -ENOMEM;
}

/* The listener: the profile's unix socket (created 0600: its owner alone may connect), or
 * host:port, with TLS when configured. */
static int vhost_create(struct web_server *s)
{
	const struct web_config *cfg = s->cfg;
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
	}
	mode_t old = umask(0177);
	s->vh = lws_create_vhost(s->ctx, &vi);
	umask(old);
	return s->vh ? 0 : -EADDRINUSE;
}

/* Our own descriptors into the loop: the lease's directory watched (a take or release by
 * anyone moves the page's stream), main's wake-up, and on host:port the control socket. */
static int own_fds_adopt(struct web_server *s)
{
	const struct web_config *cfg = s->cfg;
	char dirpath[64];
	int r = path_format(dirpath, sizeof(dirpath), "/proc/self/fd/%d", cfg->dirfd);
	if (r < 0) {
		return r;
	}
	_cleanup_close_ int ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (ifd < 0 ||
	    inotify_add_watch(ifd, dirpath, IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR) < 0) {
		return negative_errno();
	}
	if ((r = adopt(s, TAKE_FD(ifd), &s->watch)) < 0) {
		return r;
	}
	if (cfg->wake_fd >= 0) {
		_cleanup_close_ int wfd = fcntl(cfg->wake_fd, F_DUPFD_CLOEXEC, 3);
		if (wfd < 0) {
			return negative_errno();
		}
		if ((r = adopt(s, TAKE_FD(wfd), &s->wake)) < 0) {
			return r;
		}
	}
	if (cfg->unix_path) {
		return 0;
	}
	int cfd = webctl_listen(cfg->dirfd);
	if (cfd < 0) {
		return cfd;
	}
	return adopt(s, cfd, &s->ctl);
}

/* Listening: the lease as it is, the first ticket on host:port, and the caller told. >0: the
 * caller asked to stop. */
static int announce(struct web_server *s)
{
	const struct web_config *cfg = s->cfg;
	struct lease l;
	(void)lease_read_at(cfg->dirfd, &l);
	s->human = l.holder == LEASE_HUMAN;
	char url[512] = "";
	if (!cfg->unix_path) {
		char hex[WEB_TOKEN_HEX + 1];
		int r = web_ticket_issue(&s->tickets, web_now_ms(), hex);
		if (r < 0 || (r = ticket_url(cfg, hex, url, sizeof(url))) < 0) {
			return r;
		}
	}
	return cfg->ready && cfg->ready(cfg, url, cfg->userdata) ? 1 : 0;
}

static void server_destroy(struct web_server *s)
{
	s->destroying = true;
	if (s->ctx) {
		lws_context_destroy(s->ctx);
	}
	s->ctx = NULL;
	/* A release the context did not close (it closes every wsi, so none should be left):
	 * never a zombie. */
	for (size_t i = 0; i < RELEASE_MAX; i++) {
		if (s->releases[i].used) {
			take_closed(s, &s->releases[i]);
		}
	}
	web_assets_free(&s->assets);
}

int web_serve(const struct web_config *cfg, volatile sig_atomic_t *stop)
{
	struct web_server *s = calloc(1, sizeof(*s));
	if (!s) {
		return -ENOMEM;
	}
	int r = state_init(s, cfg);
	if (r < 0) {
		free(s);
		return r;
	}
	if ((r = context_create(s)) < 0 || (r = vhost_create(s)) < 0 ||
	    (r = own_fds_adopt(s)) < 0 || (r = announce(s)) != 0) {
		goto out;
	}
	while (!*stop) {
		if (lws_service(s->ctx, 0) < 0) {
			break;
		}
	}
out:
	server_destroy(s);
	free(s);
	return r > 0 ? 0 : r;
}
