#include "xptr.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <xcb/xtest.h>

#include "lease.h"
#include "ptrseq.h"
#include "util.h"
#include "xcookie.h"
#include "xsocket.h"

/* Connects to one address: the fd, 0 when nothing is there (refused, missing, or not ours to
 * reach, as for the runner's check), or -errno. */
static int connect_to(const struct sockaddr_un *sa, socklen_t len)
{
	_cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		return negative_errno();
	}
	if (connect(fd, (const struct sockaddr *)sa, len) < 0) {
		return errno == ECONNREFUSED || errno == ENOENT || errno == EACCES
			       ? 0
			       : negative_errno();
	}
	return TAKE_FD(fd);
}

/* libxcb's order: the abstract name first, the path only when nothing listens there. */
static int connect_display(unsigned n)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int len = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, XSOCKET_DIR "/X%u", n);
	int fd = connect_to(&sa,
			    (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len));
	if (fd != 0) {
		return fd;
	}
	sa = (struct sockaddr_un){.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), XSOCKET_DIR "/X%u", n);
	fd = connect_to(&sa, sizeof(sa));
	return fd == 0 ? -ECONNREFUSED : fd;
}

/* The peer of the very socket the cookie and the events will go through. */
static int peer_is_us(int fd, uid_t *ret_uid)
{
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0) {
		return negative_errno();
	}
	*ret_uid = cred.uid;
	return cred.uid == geteuid() ? 0 : -EPERM;
}

/* The messages are the runner's (desktop.h), whose check this replaces for these commands. */
static int open_socket(const char *profile, unsigned n, struct error *err)
{
	int fd = connect_display(n);
	if (fd < 0) {
		return error_set(
			err, fd,
			"the X server of profile '%s' on :%u does not answer (%s); restart it with 'botdesk stop' and 'botdesk start'",
			profile, n, strerror(-fd));
	}
	uid_t owner = 0;
	int r = peer_is_us(fd, &owner);
	if (r == -EPERM) {
		error_set(
			err, r,
			"refusing to use :%u: the X server answering there runs as uid %u, not as you, so it is not the desktop of profile '%s'. Stop it with 'botdesk stop' and start it again",
			n, (unsigned)owner, profile);
	} else if (r < 0) {
		error_set(err, r, "cannot tell who runs the X server of profile '%s' on :%u: %s",
			  profile, n, strerror(-r));
	}
	if (r < 0) {
		safe_close(fd);
		return r;
	}
	return fd;
}

int xptr_open(struct xptr *x, const char *profile, const char *display, const char *xauthority,
	      struct error *err)
{
	x->c = NULL;
	unsigned n;
	if (xcookie_display_number(display, &n) < 0) {
		return error_set(
			err, -ENXIO,
			"the desktop of profile '%s' published DISPLAY='%s', which is no local display; stop and start it again",
			profile, display);
	}
	/* Checked before the cookie is even read: it goes out only on this socket, and only
	 * when the server at the other end runs as us. */
	int fd = open_socket(profile, n, err);
	if (fd < 0) {
		return fd;
	}
	char cookie[XCOOKIE_MAX];
	int cookie_len = 0;
	int r = xcookie_read(display, xauthority, cookie, &cookie_len, err);
	if (r < 0) {
		safe_close(fd);
		return r;
	}
	char name[] = XCOOKIE_NAME;
	xcb_auth_info_t auth = {
		.namelen = (int)strlen(name),
		.name = name,
		.datalen = cookie_len,
		.data = cookie,
	};
	/* From here the connection owns fd, and closes it even when the set-up fails. */
	xcb_connection_t *c = xcb_connect_to_fd(fd, &auth);
	explicit_bzero(cookie, sizeof(cookie));
	if (xcb_connection_has_error(c)) {
		xcb_disconnect(c);
		return error_set(err, -ECONNREFUSED,
				 "cannot connect to the desktop's X server %s with its cookie",
				 display);
	}
	/* The first screen: botdesk's desktops have one. */
	xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
	if (!it.rem) {
		xcb_disconnect(c);
		return error_set(err, -EIO, "the desktop's X server %s has no screen", display);
	}
	x->c = c;
	x->root = it.data->root;
	x->sw = it.data->width_in_pixels;
	x->sh = it.data->height_in_pixels;
	snprintf(x->display, sizeof(x->display), "%s", display);
	/* Asked now, answered while the caller reads the lease: a question, no action yet. */
	xcb_prefetch_extension_data(c, &xcb_test_id);
	xcb_flush(c);
	return 0;
}

/* delay_ms: XTEST's delay, the time the server waits before it takes the event. */
static void fake(struct xptr *x, uint8_t type, uint8_t detail, unsigned px, unsigned py,
		 unsigned delay_ms)
{
	xcb_test_fake_input(x->c, type, detail, delay_ms, x->root, (int16_t)px, (int16_t)py, 0);
}

static void seq_motion(void *ctx, unsigned px, unsigned py)
{
	fake(ctx, XCB_MOTION_NOTIFY, 0, px, py, 0);
}

static void seq_button(void *ctx, unsigned b, bool down, unsigned delay_ms)
{
	fake(ctx, down ? XCB_BUTTON_PRESS : XCB_BUTTON_RELEASE, (uint8_t)b, 0, 0, delay_ms);
}

static int gone(struct xptr *x, struct error *err)
{
	return error_set(err, -ECONNRESET, "the desktop's X server %s went away", x->display);
}

/* Waits until the server has handled everything sent before: the reply comes after it. */
static int sync_server(struct xptr *x, struct error *err)
{
	xcb_generic_error_t *e = NULL;
	free(xcb_get_input_focus_reply(x->c, xcb_get_input_focus(x->c), &e));
	if (xcb_connection_has_error(x->c)) {
		return gone(x, err);
	}
	if (e) {
		free(e);
		return error_set(err, -EIO, "the desktop's X server %s refused an event",
				 x->display);
	}
	return 0;
}

static int has_xtest(struct xptr *x, struct error *err)
{
	const xcb_query_extension_reply_t *ext = xcb_get_extension_data(x->c, &xcb_test_id);
	if (xcb_connection_has_error(x->c)) {
		return gone(x, err);
	}
	if (!ext || !ext->present) {
		return error_set(
			err, -ENOTSUP,
			"the desktop's X server %s has no XTEST extension: botdesk's own Xvnc always has it; is this display botdesk's?",
			x->display);
	}
	return 0;
}

int xptr_run(struct xptr *x, const struct act_req *rq, struct act_out *out,
	     int (*check)(void *ctx, struct error *err), void *ctx, int dirfd, struct error *err)
{
	*out = (struct act_out){.sw = x->sw, .sh = x->sh};
	unsigned path[ACT_PATH_MAX][2];
	int r = act_resolve_points(rq, x->sw, x->sh, &out->x, &out->y, &out->x2, &out->y2, err);
	if (r == 0) {
		r = act_resolve_path(rq, x->sw, x->sh, path, err);
	}
	if (r < 0 || (check && (r = check(ctx, err)) < 0) || (r = has_xtest(x, err)) < 0) {
		return r;
	}
	/* The gesture inside the watch, until the server has it: a take waits for it instead of
	 * cutting a click in two, and one that came first stops it here. */
	struct lease_watch w = LEASE_WATCH_INIT;
	struct lease l;
	if (dirfd >= 0 && (lease_watch_begin(dirfd, &w, &l) < 0 || lease_watch_enter(&w) < 0)) {
		lease_watch_end(&w);
		return error_set_kind(err, ERROR_HUMAN_HOLDS, -EACCES,
				      "a human took the desktop just now; nothing was sent");
	}
	seq_motion(x, out->x, out->y);
	static const struct ptrseq_ops ops = {.motion = seq_motion, .button = seq_button};
	ptrseq_emit(rq, out->x, out->y, out->x2, out->y2, rq->n_path ? path : NULL, &ops, x);
	r = sync_server(x, err);
	lease_watch_end(&w);
	out->sent = r == 0;
	return r;
}

static xcb_atom_t intern_reply(xcb_connection_t *c, xcb_intern_atom_cookie_t k)
{
	xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c, k, NULL);
	xcb_atom_t a = r ? r->atom : XCB_NONE;
	free(r);
	return a;
}

/* A property's bytes (format 8) into buf, cut at a UTF-8 character's end; false when none. */
static bool text_property(xcb_connection_t *c, xcb_window_t w, xcb_atom_t prop, xcb_atom_t type,
			  char *buf, size_t size)
{
	xcb_get_property_reply_t *r =
		xcb_get_property_reply(c, xcb_get_property(c, 0, w, prop, type, 0, 64), NULL);
	if (!r || r->format != 8 || r->type == XCB_NONE) {
		free(r);
		return false;
	}
	size_t n = (size_t)xcb_get_property_value_length(r);
	n = n < size - 1 ? n : size - 1;
	memcpy(buf, xcb_get_property_value(r), n);
	/* Not in the middle of a character. */
	size_t end = n;
	while (end > 0 && ((unsigned char)buf[end - 1] & 0xc0) == 0x80) {
		end--;
	}
	if (end > 0 && (unsigned char)buf[end - 1] >= 0xc0) {
		unsigned char lead = (unsigned char)buf[end - 1];
		size_t want = 2;
		if (lead >= 0xf0) {
			want = 4;
		} else if (lead >= 0xe0) {
			want = 3;
		}
		end = n - (end - 1) >= want ? n : end - 1;
	}
	buf[end] = '\0';
	free(r);
	return true;
}

void xptr_landed(struct xptr *x, struct act_out *out)
{
	xcb_intern_atom_cookie_t ks = xcb_intern_atom(x->c, 0, 8, "WM_STATE"),
				 kn = xcb_intern_atom(x->c, 0, 12, "_NET_WM_NAME"),
				 ku = xcb_intern_atom(x->c, 0, 11, "UTF8_STRING");
	xcb_atom_t wm_state = intern_reply(x->c, ks), name = intern_reply(x->c, kn),
		   utf8 = intern_reply(x->c, ku);
	xcb_window_t w = x->root, client = XCB_NONE;
	/* Root, then the frame, then (at most a few levels down) the client. */
	for (int depth = 0; depth < 8 && client == XCB_NONE; depth++) {
		xcb_query_pointer_reply_t *p =
			xcb_query_pointer_reply(x->c, xcb_query_pointer(x->c, w), NULL);
		xcb_window_t child = p ? p->child : XCB_NONE;
		free(p);
		if (child == XCB_NONE) {
			break;
		}
		xcb_get_property_reply_t *r = xcb_get_property_reply(
			x->c, xcb_get_property(x->c, 0, child, wm_state, XCB_ATOM_ANY, 0, 0), NULL);
		if (r && r->type != XCB_NONE) {
			client = child;
		}
		free(r);
		w = child;
	}
	out->landed_known = true;
	out->landed = client;
	out->landed_title[0] = '\0';
	if (client != XCB_NONE && !text_property(x->c, client, name, utf8, out->landed_title,
						 sizeof(out->landed_title))) {
		(void)text_property(x->c, client, XCB_ATOM_WM_NAME, XCB_ATOM_STRING,
				    out->landed_title, sizeof(out->landed_title));
	}
}

int xptr_release_held(struct xptr *x, unsigned *ret_n, struct error *err)
{
	int r = has_xtest(x, err);
	if (r < 0) {
		return r;
	}
	xcb_query_keymap_reply_t *km = xcb_query_keymap_reply(x->c, xcb_query_keymap(x->c), NULL);
	xcb_query_pointer_reply_t *ptr =
		xcb_query_pointer_reply(x->c, xcb_query_pointer(x->c, x->root), NULL);
	if (!km || !ptr) {
		free(km);
		free(ptr);
		return gone(x, err);
	}
	unsigned n = 0;
	/* Buttons first: a drag let go where it is, then the keys (modifiers among them). */
	for (unsigned b = 1; b <= 5; b++) {
		if (ptr->mask & (XCB_BUTTON_MASK_1 << (b - 1))) {
			fake(x, XCB_BUTTON_RELEASE, (uint8_t)b, 0, 0, 0);
			n++;
		}
	}
	for (unsigned kc = 8; kc < 256; kc++) {
		if (km->keys[kc / 8] & (1u << (kc % 8))) {
			fake(x, XCB_KEY_RELEASE, (uint8_t)kc, 0, 0, 0);
			n++;
		}
	}
	free(km);
	free(ptr);
	*ret_n = n;
	return sync_server(x, err);
}
