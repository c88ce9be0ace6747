/* botdesk-web's WebSocket <-> door proxy: a websocket's door (the one the lease gives, connected
 * when the stream opens), its opening made ahead while the page proves its server (rfbearly.h),
 * the stream handed over after the page's "go", then bytes both ways with flow control; a
 * websocket on the door the lease no longer gives is closed (4000), and the page reconnects. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

#include "launcher.h"
#include "log.h"
#include "pathjoin.h"
#include "request.h"
#include "unixsock.h"
#include "util.h"
#include "webstate.h"

/* Closes every websocket that is on the door the lease no longer gives this page. */
void proxy_lease_changed(struct web_server *s)
{
	struct lease l;
	(void)lease_read_at(s->cfg->dirfd, &l);
	bool human = l.holder == LEASE_HUMAN;
	if (human == s->human) {
		return;
	}
	s->human = human;
	for (struct conn *c = s->ws_list; c; c = c->next) {
		if (c->human_door != human && !c->closing) {
			c->closing = true;
			lws_callback_on_writable(c->wsi);
		}
	}
}

static int connect_door(const struct web_server *s, bool human)
{
	const char *name = human ? LAUNCHER_SOCKET : LAUNCHER_VIEW_SOCKET;
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int r;
	if (!human && s->cfg->view_socket) {
		/* The watchers' door where the desktop put it (view_dir), not beside the lease. */
		r = path_format(sa.sun_path, sizeof(sa.sun_path), "%s", s->cfg->view_socket);
	} else {
		/* Through the directory we hold, whatever the length of its path. */
		r = path_format(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s",
				s->cfg->dirfd, name);
	}
	if (r < 0) {
		return r;
	}
	/* connect() waits for room in the door's backlog; the stream is non-blocking after it. */
	_cleanup_close_ int fd = unix_connect(&sa, 0);
	if (fd < 0) {
		return fd;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		return negative_errno();
	}
	return TAKE_FD(fd);
}

/* The door the lease gives now, connected and handed to the event loop as c's peer. */
static int door_open(struct web_server *s, struct conn *c)
{
	struct lease l;
	(void)lease_read_at(s->cfg->dirfd, &l);
	s->human = l.holder == LEASE_HUMAN;
	c->human_door = s->human;
	int fd = connect_door(s, c->human_door);
	if (fd < 0) {
		log_warn("cannot reach the desktop's %s door (%s): %s",
			 c->human_door ? "control" : "view",
			 !c->human_door && s->cfg->view_socket ? s->cfg->view_socket
							       : s->cfg->state,
			 strerror(-fd));
		return fd;
	}
	c->upfd = fd;
	lws_sock_file_fd_type u = {.filefd = fd};
	c->peer =
		lws_adopt_descriptor_vhost(s->vh, LWS_ADOPT_RAW_FILE_DESC, u, "botdesk-raw", NULL);
	if (!c->peer) {
		c->upfd = -1; /* lws closed it */
		return -ENOMEM;
	}
	c->door_ep = (struct endpoint){.kind = EP_DOOR, .owner = c};
	lws_set_opaque_user_data(c->peer, &c->door_ep);
	return 0;
}

static void ws_free(struct conn *c)
{
	free(c->to_ws);
	free(c->to_up);
	free(c->early);
	c->to_ws = c->to_up = NULL;
	c->early = NULL;
}

int proxy_established(struct web_server *s, struct lws *wsi, struct conn *c)
{
	*c = (struct conn){.wsi = wsi, .is_ws = true, .upfd = -1};
	c->to_ws = malloc(LWS_PRE + PROXY_BUF);
	c->to_up = malloc(PROXY_BUF);
	c->early = malloc(sizeof(*c->early));
	if (!c->to_ws || !c->to_up || !c->early) {
		ws_free(c);
		c->is_ws = false;
		return -1;
	}
	rfb_early_init(c->early);
	/* On the list from now: proxy_closed() frees the buffers and lets the door go. */
	c->stage = WS_NONCE;
	c->next = s->ws_list;
	s->ws_list = c;
	s->ws_count++;
	/* The door now, while the page proves its server: its handshake and first update are kept
	 * (up_rx_early) and reach the page only after its "go"; without one in EARLY_SECS, both go.
	 */
	lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, EARLY_SECS);
	return door_open(s, c) < 0 ? -1 : 0;
}

/* The next piece of the door's opening for the page, if the door has said it (web/rfbearly.h),
 * as a message of its own; after the last, the rest (proxy_writeable). The page's answers are not
 * waited for: noVNC answers each message in turn, and they are checked as they come. */
static void early_pump(struct conn *c)
{
	if (c->stage != WS_REPLAY || c->to_ws_len) {
		return;
	}
	const unsigned char *data;
	size_t len;
	bool last;
	rfb_early_next(c->early, &data, &len, &last);
	if (len == 0) {
		return;
	}
	memcpy(c->to_ws + LWS_PRE, data, len);
	c->to_ws_len = len;
	rfb_early_given(c->early);
	if (last) {
		c->stage = WS_FLUSH;
	}
	lws_callback_on_writable(c->wsi);
}

/* The last piece has gone: what the door said after it (the first update) follows as a message
 * of its own (noVNC takes one handshake message per websocket message), then the door's own. */
static void early_flush(struct lws *wsi, struct conn *c)
{
	size_t len;
	const unsigned char *rest = rfb_early_rest(c->early, &len);
	memcpy(c->to_ws + LWS_PRE, rest, len);
	c->to_ws_len = len;
	c->stage = WS_PROXY;
	if (len) {
		lws_callback_on_writable(wsi);
	} else if (c->peer) {
		lws_rx_flow_control(c->peer, 1);
	}
}

/* The page's side of the stream before the door: its nonce (32 hex digits), answered with the
 * proof that this is the server the page was loaded from; then its "go", and only then what the
 * door said. A page that does not get a good proof sends nothing more (data/web/bar.js). */
static int ws_challenge(struct web_server *s, struct lws *wsi, struct conn *c, const void *in,
			size_t len)
{
	if (c->stage == WS_NONCE) {
		char nonce[WEB_TOKEN_HEX + 1];
		if (len != WEB_TOKEN_HEX) {
			return -1;
		}
		memcpy(nonce, in, len);
		nonce[len] = '\0';
		if (!web_is_token(nonce) ||
		    web_proof(s, "websocket", nonce, (char *)c->to_ws + LWS_PRE) < 0) {
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
	lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0);
	/* The door was the lease's when the stream opened; if the lease has moved since, the page
	 * reconnects to the other (as when it moves later). */
	struct lease l;
	(void)lease_read_at(s->cfg->dirfd, &l);
	if ((l.holder == LEASE_HUMAN) != c->human_door) {
		c->closing = true;
		lws_callback_on_writable(wsi);
		return 0;
	}
	c->stage = WS_REPLAY;
	early_pump(c);
	return 0;
}

void proxy_closed(struct web_server *s, struct conn *c)
{
	for (struct conn **pp = &s->ws_list; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			s->ws_count--;
			break;
		}
	}
	if (c->peer && !s->destroying) {
		lws_set_opaque_user_data(c->peer, NULL);
		lws_set_timeout(c->peer, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
		c->peer = NULL;
	}
	ws_free(c);
}

int proxy_writeable(struct web_server *s, struct lws *wsi, struct conn *c)
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
	} else if (c->stage == WS_FLUSH) {
		early_flush(wsi, c);
	} else if (c->stage == WS_REPLAY) {
		early_pump(c);
	} else if (c->peer && c->stage == WS_PROXY) {
		lws_rx_flow_control(c->peer, 1);
	}
	return 0;
}

static int to_door(struct lws *wsi, struct conn *c, const void *in, size_t len);

int proxy_receive(struct web_server *s, struct lws *wsi, struct conn *c, const void *in, size_t len)
{
	if (c->stage == WS_NONCE || c->stage == WS_GO) {
		return ws_challenge(s, wsi, c, in, len);
	}
	if (c->early) {
		/* First the page's answers to the pieces the server answered the door already. */
		int n = rfb_early_page(c->early, in, len);
		if (n < 0) {
			log_warn(
				"the page's RFB handshake differs from the one botdesk web made with the desktop's door (is this noVNC 1.3?); the stream is closed");
			return -1;
		}
		in = (const unsigned char *)in + n;
		len -= (size_t)n;
		if (rfb_early_page_done(c->early)) {
			free(c->early);
			c->early = NULL;
		}
		if (len == 0) {
			return 0;
		}
	}
	return to_door(wsi, c, in, len);
}

/* The page's bytes for the door: written now, or kept (one frame at most, the page's stream
 * paused) until the door takes them. */
static int to_door(struct lws *wsi, struct conn *c, const void *in, size_t len)
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

/* The door before the stream is its own: kept in c->early, answered there. */
static int up_rx_early(struct lws *wsi, struct conn *c)
{
	size_t room;
	unsigned char *space = rfb_early_space(c->early, &room);
	if (room == 0) {
		lws_rx_flow_control(wsi, 0); /* the rest waits in the door's socket */
		return 0;
	}
	ssize_t n = read(c->upfd, space, room);
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		return 0;
	}
	if (n <= 0) {
		return -1;
	}
	unsigned char reply[RFB_EARLY_REPLY_MAX];
	size_t rlen;
	if (rfb_early_door(c->early, (size_t)n, reply, &rlen) < 0 ||
	    (rlen && write(c->upfd, reply, rlen) != (ssize_t)rlen)) {
		return -1;
	}
	early_pump(c);
	return 0;
}

int proxy_door_rx(struct lws *wsi, struct conn *c)
{
	if (c && c->stage < WS_FLUSH) {
		return up_rx_early(wsi, c);
	}
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

int proxy_door_writeable(struct lws *wsi, struct conn *c)
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

/* The door ended its connection (not the page, not the lease): the page's stream ends too, with
 * "desktop", and the page reconnects. */
void proxy_door_closed(struct web_server *s, struct conn *c)
{
	if (s->destroying) {
		return;
	}
	c->peer = NULL;
	c->upfd = -1;
	c->closing = true;
	c->door_closed = true;
	lws_callback_on_writable(c->wsi);
}
