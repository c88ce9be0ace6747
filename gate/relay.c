#include "relay.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "log.h"
#include "rfbfilter.h"
#include "timeutil.h"
#include "unixsock.h"
#include "util.h"

/* A bigger pipe means fewer wake-ups per frame; 1 MiB is what an unprivileged process may ask
 * for by default (/proc/sys/fs/pipe-max-size). */
#define PIPE_SIZE (1024 * 1024)
/* What a viewer sends is small (requests, input, at most a 256 KiB clipboard): read it in
 * pieces of this size. */
#define READ_SIZE 16384
/* Rounds of splicing per wake-up before another connection gets its turn. */
#define ROUNDS 16
/* A door that turns viewers away says so at most once in this long (with the count since):
 * a flood of refused connections must not become a flood of log lines. */
#define REFUSAL_LOG_MS 10000

enum ep_kind { EP_CONTROL_DOOR, EP_VIEW_DOOR, EP_SIGNALS, EP_LEASE, EP_CLIENT, EP_UPSTREAM };

struct conn;

struct endpoint {
	enum ep_kind kind;
	struct conn *conn;
	uint32_t events; /* the interest registered now */
};

struct conn {
	struct endpoint client_ep, upstream_ep;
	int client, upstream;
	int pipe_r, pipe_w;
	size_t pipe_size;
	size_t piped;                /* server bytes in the pipe, not yet taken by the viewer */
	bool control;                /* came in through rfb.sock */
	uint64_t handshake_deadline; /* monotonic ms; 0 once the handshake is done */
	bool dead;                   /* closed; freed once the events of this wake-up are handled */
	struct rfbfilter filter;
	uint8_t pending[READ_SIZE + RFBFILTER_SLACK]; /* filtered, not yet taken by Xvnc */
	size_t pending_off, pending_len;
};

/* What a door turned away and has not logged yet. */
struct refusals {
	uint64_t last_log_ms;
	unsigned unlogged;
};

struct relay {
	const struct relay_config *cfg;
	struct refusals refused[2]; /* [1]: the controller's door */
	int epfd;
	struct conn *conns[RELAY_MAX_CONNECTIONS];
	/* Closed during this wake-up: the batch may still name them. */
	struct conn *dead[RELAY_MAX_CONNECTIONS];
	size_t n_dead;
};

static int ep_add(struct relay *r, int fd, struct endpoint *ep, uint32_t events)
{
	struct epoll_event ev = {.events = events, .data.ptr = ep};
	ep->events = events;
	return epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? negative_errno() : 0;
}

static void ep_set(struct relay *r, int fd, struct endpoint *ep, uint32_t events)
{
	if (ep->events != events) {
		struct epoll_event ev = {.events = events, .data.ptr = ep};
		ep->events = events;
		(void)epoll_ctl(r->epfd, EPOLL_CTL_MOD, fd, &ev);
	}
}

/* Each side listens for what it can do next: the viewer is read while Xvnc has taken all we
 * filtered, and written while the pipe holds server bytes; Xvnc is read while the pipe is
 * empty (so a slow viewer holds the server back instead of filling our memory), and written
 * while filtered bytes wait. */
static void interest(struct relay *r, struct conn *c)
{
	ep_set(r, c->client, &c->client_ep,
	       (c->pending_len == 0 ? EPOLLIN : 0) | (c->piped > 0 ? EPOLLOUT : 0));
	ep_set(r, c->upstream, &c->upstream_ep,
	       (c->piped == 0 ? EPOLLIN : 0) | (c->pending_len > 0 ? EPOLLOUT : 0));
}

static void close_fds(struct conn *c)
{
	/* Closing an fd removes it from the epoll set. */
	c->client = safe_close(c->client);
	c->upstream = safe_close(c->upstream);
	c->pipe_r = safe_close(c->pipe_r);
	c->pipe_w = safe_close(c->pipe_w);
}

static void conn_close(struct relay *r, struct conn *c)
{
	for (size_t i = 0; i < RELAY_MAX_CONNECTIONS; i++) {
		if (r->conns[i] == c) {
			r->conns[i] = NULL;
		}
	}
	close_fds(c);
	if (!c->dead) {
		c->dead = true;
		r->dead[r->n_dead++] = c;
	}
}

static void bury(struct relay *r)
{
	for (size_t i = 0; i < r->n_dead; i++) {
		free(r->dead[i]);
	}
	r->n_dead = 0;
}

static int connect_upstream(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sa.sun_path)) {
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	/* A unix socket connects at once or not at all (EAGAIN: Xvnc's backlog is full). */
	return unix_connect(&sa, SOCK_NONBLOCK);
}

/* Whether a door may take one more viewer: -EMFILE when the door has all it may hold, -EBUSY
 * when it has RELAY_MAX_HANDSHAKES viewers still in the handshake. Each door is counted alone,
 * so what comes in on view.sock never counts against rfb.sock. */
static int door_admits(const struct relay *r, bool control)
{
	size_t all = 0, mine = 0, shaking = 0;
	for (size_t i = 0; i < RELAY_MAX_CONNECTIONS; i++) {
		const struct conn *c = r->conns[i];
		if (!c) {
			continue;
		}
		all++;
		if (c->control == control) {
			mine++;
			shaking += c->handshake_deadline != 0;
		}
	}
	size_t cap =
		control ? RELAY_MAX_CONNECTIONS : RELAY_MAX_CONNECTIONS - RELAY_CONTROL_RESERVED;
	if (all >= RELAY_MAX_CONNECTIONS || mine >= cap) {
		return -EMFILE;
	}
	return shaking >= RELAY_MAX_HANDSHAKES ? -EBUSY : 0;
}

static int conn_open(struct relay *r, int client, bool control)
{
	int admit = door_admits(r, control);
	if (admit < 0) {
		safe_close(client);
		return admit;
	}
	size_t slot = RELAY_MAX_CONNECTIONS;
	for (size_t i = 0; i < RELAY_MAX_CONNECTIONS && slot == RELAY_MAX_CONNECTIONS; i++) {
		if (!r->conns[i]) {
			slot = i;
		}
	}
	struct conn *c = calloc(1, sizeof(*c));
	if (!c) {
		safe_close(client);
		return -ENOMEM;
	}
	*c = (struct conn){.client = client,
			   .upstream = -1,
			   .pipe_r = -1,
			   .pipe_w = -1,
			   .control = control,
			   .handshake_deadline = now_ms() + RELAY_HANDSHAKE_MS};
	c->client_ep = (struct endpoint){.kind = EP_CLIENT, .conn = c};
	c->upstream_ep = (struct endpoint){.kind = EP_UPSTREAM, .conn = c};
	rfbfilter_init(&c->filter);
	int p[2];
	int e = 0;
	c->upstream = connect_upstream(r->cfg->upstream);
	if (c->upstream < 0) {
		e = c->upstream;
	} else if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0) {
		e = negative_errno();
	} else {
		c->pipe_r = p[0];
		c->pipe_w = p[1];
		int size = fcntl(c->pipe_w, F_SETPIPE_SZ, PIPE_SIZE);
		c->pipe_size = size > 0 ? (size_t)size : (size_t)fcntl(c->pipe_w, F_GETPIPE_SZ);
		if ((e = ep_add(r, c->client, &c->client_ep, 0)) == 0) {
			e = ep_add(r, c->upstream, &c->upstream_ep, 0);
		}
	}
	if (e < 0) {
		/* No event of this wake-up can name a connection this new: freed at once. */
		close_fds(c);
		free(c);
		return e;
	}
	r->conns[slot] = c;
	interest(r, c);
	return 0;
}

/* Server bytes: from Xvnc into the pipe, from the pipe to the viewer, both in the kernel. 0, or
 * -EPIPE when either side is done. */
static int pump_down(struct conn *c)
{
	for (int round = 0; round < ROUNDS; round++) {
		if (c->piped > 0) {
			ssize_t n = splice(c->pipe_r, NULL, c->client, NULL, c->piped,
					   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (n < 0) {
				return errno == EAGAIN ? 0 : -EPIPE;
			}
			c->piped -= (size_t)n;
			if (c->piped > 0) {
				return 0;
			}
		}
		ssize_t n = splice(c->upstream, NULL, c->pipe_w, NULL, c->pipe_size,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
		if (n == 0) {
			return -EPIPE;
		}
		if (n < 0) {
			return errno == EAGAIN ? 0 : -EPIPE;
		}
		c->piped += (size_t)n;
	}
	return 0;
}

static int flush_up(struct conn *c)
{
	while (c->pending_len > 0) {
		ssize_t n = send(c->upstream, c->pending + c->pending_off, c->pending_len,
				 MSG_NOSIGNAL);
		if (n < 0) {
			return errno == EAGAIN ? 0 : -EPIPE;
		}
		c->pending_off += (size_t)n;
		c->pending_len -= (size_t)n;
	}
	c->pending_off = 0;
	return 0;
}

/* Viewer bytes: read, filtered, handed to Xvnc. -EPIPE at the end, -EPROTO when the viewer
 * sent what the filter refuses. */
static int pump_up(struct relay *r, struct conn *c)
{
	uint8_t buf[READ_SIZE];
	ssize_t n = recv(c->client, buf, sizeof(buf), 0);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		return -EPIPE;
	}
	if (n < 0) {
		return 0;
	}
	/* The lease as it stands now, not as it stood at the last wake-up: a `botdesk release`
	 * that has returned has been seen before any of these bytes pass. */
	struct watch *w = r->cfg->watch;
	bool allowed = false;
	if (c->control) {
		watch_refresh(w);
		allowed = watch_human_holds(w);
	}
	uint64_t before = c->filter.input_passed;
	size_t len;
	int e = rfbfilter_feed(&c->filter, buf, (size_t)n, allowed, c->pending, &len);
	c->pending_off = 0;
	c->pending_len = len;
	if (c->filter.input_passed != before) {
		watch_stamp_activity(w);
	}
	if (c->filter.state == RFBFILTER_HEAD || c->filter.state == RFBFILTER_BODY) {
		c->handshake_deadline = 0;
	}
	int f = flush_up(c);
	return e < 0 ? e : f;
}

static void on_conn(struct relay *r, struct endpoint *ep, uint32_t events)
{
	struct conn *c = ep->conn;
	if (c->dead) {
		return;
	}
	int e = 0;
	if (events & EPOLLERR) {
		e = -EPIPE;
	} else if (ep->kind == EP_CLIENT) {
		if (events & (EPOLLIN | EPOLLHUP)) {
			/* A viewer that hung up while Xvnc is not taking its bytes is done. */
			e = c->pending_len == 0 ? pump_up(r, c) : -EPIPE;
		}
		if (e == 0 && (events & EPOLLOUT)) {
			e = pump_down(c);
		}
	} else {
		if (events & EPOLLOUT) {
			e = flush_up(c);
		}
		if (e == 0 && (events & (EPOLLIN | EPOLLHUP))) {
			if (c->piped == 0) {
				e = pump_down(c);
			} else if (events & EPOLLHUP) {
				e = -EPIPE;
			}
		}
	}
	if (e == -EPROTO) {
		log_warn(
			"closed a viewer on %s: it sent what a viewer may not (a message that cannot be framed, a security type other than None, or a clipboard over %d bytes)",
			c->control ? "rfb.sock" : "view.sock", RFBFILTER_MAX_CUT_TEXT);
	}
	if (e < 0) {
		conn_close(r, c);
		return;
	}
	interest(r, c);
}

/* Logs a refusal, at most one line per door every REFUSAL_LOG_MS with the count since. */
static void refused(struct relay *r, bool control, int e)
{
	struct refusals *f = &r->refused[control];
	f->unlogged++;
	uint64_t now = now_ms();
	if (f->last_log_ms && now - f->last_log_ms < REFUSAL_LOG_MS) {
		return;
	}
	const char *why = strerror(-e);
	if (e == -EMFILE) {
		why = "the door holds all the viewers it may";
	} else if (e == -EBUSY) {
		why = "too many viewers are still in their handshake";
	}
	log_warn("%s turned %u viewer(s) away: %s", control ? "rfb.sock" : "view.sock", f->unlogged,
		 why);
	f->last_log_ms = now;
	f->unlogged = 0;
}

/* Closes every viewer whose handshake is overdue; the milliseconds until the next one is due,
 * or -1 when none is pending. */
static int expire_handshakes(struct relay *r)
{
	uint64_t now = now_ms(), next = 0;
	for (size_t i = 0; i < RELAY_MAX_CONNECTIONS; i++) {
		struct conn *c = r->conns[i];
		if (!c || c->handshake_deadline == 0) {
			continue;
		}
		if (c->handshake_deadline <= now) {
			log_debug("closed a viewer on %s: no handshake within %d ms",
				  c->control ? "rfb.sock" : "view.sock", RELAY_HANDSHAKE_MS);
			conn_close(r, c);
		} else if (next == 0 || c->handshake_deadline < next) {
			next = c->handshake_deadline;
		}
	}
	return next ? (int)(next - now) : -1;
}

static void on_door(struct relay *r, int fd, bool control)
{
	for (;;) {
		int client = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (client < 0) {
			if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED) {
				log_warn("accept on %s: %s", control ? "rfb.sock" : "view.sock",
					 strerror(errno));
			}
			return;
		}
		int e = conn_open(r, client, control);
		if (e < 0) {
			refused(r, control, e);
		}
	}
}

static int signals_fd(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0) {
		return negative_errno();
	}
	int fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return fd < 0 ? negative_errno() : fd;
}

int relay_run(const struct relay_config *cfg)
{
	struct relay r = {.cfg = cfg};
	/* A viewer that goes away mid-write must end its connection, not the gate. */
	signal(SIGPIPE, SIG_IGN);
	_cleanup_close_ int sigfd = signals_fd();
	if (sigfd < 0) {
		return sigfd;
	}
	_cleanup_close_ int epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0) {
		return negative_errno();
	}
	r.epfd = epfd;
	struct endpoint control = {.kind = EP_CONTROL_DOOR}, view = {.kind = EP_VIEW_DOOR},
			sig = {.kind = EP_SIGNALS}, lease = {.kind = EP_LEASE};
	int e = ep_add(&r, cfg->control_fd, &control, EPOLLIN);
	e = e < 0 ? e : ep_add(&r, cfg->view_fd, &view, EPOLLIN);
	e = e < 0 ? e : ep_add(&r, sigfd, &sig, EPOLLIN);
	e = e < 0 ? e : ep_add(&r, cfg->watch->inotify_fd, &lease, EPOLLIN);
	bool running = e == 0;
	while (running) {
		struct epoll_event evs[32];
		int timeout = expire_handshakes(&r);
		bury(&r);
		int n = epoll_wait(epfd, evs, 32, timeout);
		if (n < 0 && errno != EINTR) {
			e = negative_errno();
			break;
		}
		for (int i = 0; i < n && running; i++) {
			struct endpoint *ep = evs[i].data.ptr;
			switch (ep->kind) {
			case EP_CONTROL_DOOR:
				on_door(&r, cfg->control_fd, true);
				break;
			case EP_VIEW_DOOR:
				on_door(&r, cfg->view_fd, false);
				break;
			case EP_SIGNALS:
				running = false;
				break;
			case EP_LEASE:
				watch_refresh(cfg->watch);
				break;
			case EP_CLIENT:
			case EP_UPSTREAM:
			default:
				on_conn(&r, ep, evs[i].events);
				break;
			}
		}
		bury(&r);
	}
	for (size_t i = 0; i < RELAY_MAX_CONNECTIONS; i++) {
		if (r.conns[i]) {
			conn_close(&r, r.conns[i]);
		}
	}
	bury(&r);
	return e;
}
