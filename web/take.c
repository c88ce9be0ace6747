/* Take over and Hand back (docs/web.md, "Take over stops the agent's hands"): the lease written,
 * and for a take the release program (common/acthandoff.h) run and watched by its pidfd in the
 * event loop; the take is answered once it has ended, and it is reaped whatever happens to the
 * request. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "acthandoff.h"
#include "log.h"
#include "request.h"
#include "webstate.h"

static struct release *release_free_slot(struct web_server *s)
{
	for (size_t i = 0; i < RELEASE_MAX; i++) {
		if (!s->releases[i].used) {
			return &s->releases[i];
		}
	}
	return NULL;
}

/* Starts the release program for a take and hands its pidfd to the event loop; c (may be NULL)
 * is the request that waits for it. 0, or -errno with nothing left running. */
static int release_start(struct web_server *s, struct release *rel, struct conn *c)
{
	const struct web_config *cfg = s->cfg;
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
		lws_adopt_descriptor_vhost(s->vh, LWS_ADOPT_RAW_FILE_DESC, u, "botdesk-raw", NULL);
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
	rel->ep = (struct endpoint){.kind = EP_RELEASE, .owner = rel};
	lws_set_opaque_user_data(w, &rel->ep);
	/* Past its bound the wsi closes, and take_closed() kills what is left. */
	lws_set_timeout(w, PENDING_TIMEOUT_USER_OK, ACT_RELEASE_WAIT_MS / 1000);
	return 0;
}

/* The pidfd is readable: the program has ended (or this is a spurious wake). -1 closes the
 * pidfd's wsi, which answers the take (take_closed()). */
int take_rx(struct web_server *s, struct release *rel)
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
			s->cfg->profile);
	}
	return -1;
}

/* The pidfd's wsi is gone: the program ended, ran past its bound, or the server stops. Whatever
 * still runs is killed and reaped; the take waiting for it, if still there, is answered. */
void take_closed(struct web_server *s, struct release *rel)
{
	if (!rel->reaped) {
		kill(rel->pid, SIGKILL);
		(void)waitpid(rel->pid, NULL, 0);
		if (!s->destroying) {
			log_warn(
				"the release of the agent's keys and buttons on the desktop of profile '%s' took over %d s (its X server did not answer) and was stopped",
				s->cfg->profile, ACT_RELEASE_WAIT_MS / 1000);
		}
	}
	struct conn *c = rel->http;
	if (c && !s->destroying) {
		c->release = NULL;
		c->take_answer = true;
		lws_callback_on_writable(c->wsi);
	}
	*rel = (struct release){0};
}

/* The request behind c went away: its release still runs, and is reaped, without it. */
void take_request_gone(struct conn *c)
{
	if (c && c->release) {
		c->release->http = NULL;
		c->release = NULL;
	}
}

/* Take over and Hand back. A take, once the lease is the human's, runs the release program
 * (common/acthandoff.h) and is answered when it has ended: after the answer nothing of the
 * agent's is on its way and nothing it pressed is still down, as after `botdesk take`. */
int take_post(struct web_server *s, struct lws *wsi, struct conn *c, enum lease_holder to)
{
	char origin[256] = "", host[256] = "", csrf[WEB_TOKEN_HEX + 2] = "";
	lws_hdr_copy(wsi, origin, sizeof(origin), WSI_TOKEN_ORIGIN);
	lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST);
	int n = lws_hdr_custom_copy(wsi, csrf, sizeof(csrf), "x-botdesk-csrf:", 15);
	if (!web_origin_ok(origin, host, s->tls, routes_listen_name(s)) || n != WEB_TOKEN_HEX ||
	    strcmp(csrf, s->csrf) != 0) {
		return routes_forbidden(wsi);
	}
	struct release *rel = NULL;
	if (to == LEASE_HUMAN && s->cfg->act_pointer) {
		/* Refused before the lease changes: a 503 has done nothing. */
		rel = release_free_slot(s);
		if (!rel) {
			return routes_respond(
				wsi, HTTP_STATUS_SERVICE_UNAVAILABLE, "text/plain",
				"other takes are still releasing the agent's keys; try again in a moment\n",
				NULL, NULL);
		}
	}
	struct lease l;
	bool changed;
	int r = lease_set_at(s->cfg->dirfd, to,
			     to == LEASE_HUMAN ? "taken over in botdesk web" : NULL,
			     (int64_t)time(NULL), &l, &changed);
	if (r < 0) {
		log_warn("cannot write the lease in %s: %s", s->cfg->state, strerror(-r));
		return routes_respond(wsi, HTTP_STATUS_SERVICE_UNAVAILABLE, "text/plain",
				      "the lease could not be written; see botdesk web's output\n",
				      NULL, NULL);
	}
	proxy_lease_changed(s);
	if (rel) {
		if (c) {
			c->wsi = wsi;
		}
		r = release_start(s, rel, c);
		if (r == 0 && c) {
			/* The request outlives the request timeout while it waits: past the
			 * program's own bound, with a second to spare for its kill. */
			lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK,
					ACT_RELEASE_WAIT_MS / 1000 + 2);
			return 0; /* answered by take_closed() */
		}
		if (r < 0) {
			log_warn(
				"cannot run %s: %s; the keys and buttons the agent holds on the desktop of profile '%s' stay down",
				s->cfg->act_pointer, strerror(-r), s->cfg->profile);
		}
	}
	return routes_lease_answer(s, wsi);
}
