/* Who may connect to botdesk-web on an address (docs/web.md, "What the server accepts"): the
 * server's own user always; another local user, known by the uid of the connecting socket (one
 * sock_diag lookup), and remote addresses within their counts. */
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "util.h"
#include "webstate.h"

/* Where an IPv4 or IPv6 socket address keeps its port and its address bytes; -EAFNOSUPPORT for
 * another family. */
static int inet_parts(const struct sockaddr_storage *a, uint16_t *ret_port, const void **ret_addr,
		      size_t *ret_len)
{
	if (a->ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)a;
		*ret_port = in->sin_port;
		*ret_addr = &in->sin_addr;
		*ret_len = sizeof(in->sin_addr);
		return 0;
	}
	if (a->ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)a;
		*ret_port = in6->sin6_port;
		*ret_addr = &in6->sin6_addr;
		*ret_len = sizeof(in6->sin6_addr);
		return 0;
	}
	return -EAFNOSUPPORT;
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
	/* The socket whose own end is the peer's address and whose other end is ours (both ends of
	 * one TCP connection are of one family). */
	const void *src, *dst;
	size_t src_len, dst_len;
	if (inet_parts(peer, &req.r.id.idiag_sport, &src, &src_len) < 0 ||
	    inet_parts(local, &req.r.id.idiag_dport, &dst, &dst_len) < 0) {
		return -EAFNOSUPPORT;
	}
	memcpy(req.r.id.idiag_src, src, src_len);
	memcpy(req.r.id.idiag_dst, dst, dst_len);
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
bool peers_allowed(struct web_server *s, int fd)
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
	for (size_t i = 0; i < ARRAY_SIZE(s->peers); i++) {
		struct peer *p = &s->peers[i];
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
