/* botdesk-web's state and the parts that share it, private to web/: one struct web_server, made
 * by web_serve() (server.c) and passed to every part — the HTTP routes (routes.c), Take over and
 * Hand back (take.c), the WebSocket <-> door proxy (proxy.c), who may connect (peers.c), the
 * page's proofs (proof.c). The lws callback finds it as its context's user data. */
#pragma once

#include <libwebsockets.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "assets.h"
#include "lease.h"
#include "rfbearly.h"
#include "server.h"
#include "tickets.h"

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
/* A websocket whose page has not said "go" this long after it opened is closed, and its door
 * with it: the door's connection made ahead is bounded (web/rfbearly.h). */
#define EARLY_SECS 5

/* The descriptors of our own in the event loop, told apart by the endpoint their wsi points to
 * (its opaque user data): what each is decides what its events mean. */
enum ep_kind {
	EP_DOOR,    /* a websocket's door; owner: its struct conn */
	EP_RELEASE, /* a take's release program, by its pidfd; owner: its struct release */
	EP_WATCH,   /* the lease's inotify */
	EP_CTL,     /* the control socket (web-ctl.sock) */
	EP_WAKE,    /* main's wake-up (web_config.wake_fd) */
};

struct endpoint {
	enum ep_kind kind;
	void *owner;
};

/* Where a websocket is: the page proves its server first (nonce, then "go"), meanwhile the
 * server opens the door's handshake (web/rfbearly.h); after "go" the page is given it piece by
 * piece (REPLAY), then what the door said after it (FLUSH), then the stream is the door's. */
enum ws_stage {
	WS_NONCE,
	WS_GO,
	WS_REPLAY,
	WS_FLUSH,
	WS_PROXY,
};

/* An HTTP connection's user data; a websocket's too (is_ws). */
struct conn {
	struct conn *next; /* the live websockets */
	struct lws *wsi;
	struct lws *peer; /* websocket <-> its door */
	struct endpoint door_ep;
	int upfd;
	bool human_door, closing, is_ws;
	bool door_closed; /* the door ended the stream, not the lease */
	enum ws_stage stage;
	size_t to_ws_len;
	unsigned char *to_ws; /* LWS_PRE + PROXY_BUF */
	size_t to_up_len, to_up_off;
	unsigned char *to_up;    /* PROXY_BUF */
	struct rfb_early *early; /* the door's opening, until the stream is the door's */
	/* A POST /take's answer waits for its release program (take.c). */
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
	struct endpoint ep;
	struct conn *http; /* the request waiting for it; NULL once it went away */
};

/* Another user's or a remote connection (peers.c). */
struct peer {
	bool used, remote;
	int fd;
	ino_t ino;
	dev_t dev;
	uid_t uid;
	struct sockaddr_storage addr;
};

struct web_server {
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
	struct endpoint watch, ctl, wake;
	struct release releases[RELEASE_MAX];
	struct web_assets assets;
	bool tls;
	bool destroying; /* lws_context_destroy() closes everything: no cross-calls */
	struct peer peers[2 * PEER_OTHERS];
};

static inline uint64_t web_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* On host:port (tickets, cookies, others' connections), not the owner's unix socket. */
static inline bool web_tcp(const struct web_server *s)
{
	return s->cfg->unix_path == NULL;
}

/* proof.c: hex, the page's nonces and the proofs of its key. */
void web_hex(const unsigned char *b, size_t n, char *out);
bool web_is_token(const char *t);
int web_proof(const struct web_server *s, const char *what, const char *nonce, char *out);

/* routes.c: the HTTP side. A small answer's body goes out whole from a buffer of this size. */
#define ROUTES_BODY_MAX 1024
int routes_header(struct lws *wsi, const char *name, const char *value, unsigned char **p,
		  unsigned char *end);
/* The body of an answer whose headers are written (at most ROUTES_BODY_MAX bytes; none when len
 * is 0), then the transaction's end; -1 when it cannot go out. */
int routes_send_body(struct lws *wsi, const char *body, size_t len);
int routes_respond(struct lws *wsi, unsigned status, const char *type, const char *body,
		   const char *cookie, const char *location);
int routes_forbidden(struct lws *wsi);
const char *routes_listen_name(const struct web_server *s);
int routes_lease_answer(struct web_server *s, struct lws *wsi);
int routes_http(struct web_server *s, struct lws *wsi, struct conn *c, const char *uri);
int routes_send_more(struct lws *wsi, struct conn *c);
int routes_confirm_upgrade(struct web_server *s, struct lws *wsi);

/* take.c: Take over and Hand back, and the release programs they run. */
int take_post(struct web_server *s, struct lws *wsi, struct conn *c, enum lease_holder to);
int take_rx(struct web_server *s, struct release *rel);
void take_closed(struct web_server *s, struct release *rel);
void take_request_gone(struct conn *c);

/* proxy.c: the websockets and their doors. */
void proxy_lease_changed(struct web_server *s);
int proxy_established(struct web_server *s, struct lws *wsi, struct conn *c);
void proxy_closed(struct web_server *s, struct conn *c);
int proxy_writeable(struct web_server *s, struct lws *wsi, struct conn *c);
int proxy_receive(struct web_server *s, struct lws *wsi, struct conn *c, const void *in,
		  size_t len);
int proxy_door_rx(struct lws *wsi, struct conn *c);
int proxy_door_writeable(struct lws *wsi, struct conn *c);
void proxy_door_closed(struct web_server *s, struct conn *c);

/* peers.c: whether a new connection may wait for its request. */
bool peers_allowed(struct web_server *s, int fd);
