/* The runner's side of the wire to botdesk-helper: run it with one end of a socket pair on its
 * fixed fd, send one request, take its lines and its result. Nothing here decides anything. */
#include "helperclient.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "spawnproc.h"
#include "util.h"

static int spawn_helper(const char *path, int *ret_sock, pid_t *ret_pid)
{
	_cleanup_close_pair_ int sv[2] = {-1, -1};
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		return negative_errno();
	}
	char name[] = "botdesk-helper";
	char *const argv[] = {name, NULL};
	extern char **environ;
	/* The socket goes on the helper's fixed fd. The helper clears the environment itself; it
	 * has to withstand any we give it. */
	const struct spawn_fd fds[] = {{sv[1], PROTO_HELPER_FD}};
	const struct spawn_opts opts = {.fds = fds, .n_fds = ARRAY_SIZE(fds)};
	int r = spawn_program(path, argv, environ, &opts, ret_pid);
	if (r < 0) {
		return r;
	}
	*ret_sock = TAKE_FD(sv[0]);
	return 0;
}

int helperclient_call(const char *path, enum proto_op op, helperclient_line_fn on_line,
		      void *userdata, struct helperclient_outcome *ret)
{
	uint8_t req[PROTO_REQUEST_SIZE];
	struct proto_request rq = {.op = op};
	int r = proto_request_encode(&rq, req);
	if (r < 0) {
		return r;
	}
	int sock;
	pid_t pid;
	if ((r = spawn_helper(path, &sock, &pid)) < 0) {
		return r;
	}
	/* One request, then the end of our side: the helper refuses anything after it. A helper
	 * that answered without reading (not privileged, not permitted) may be gone already; its
	 * reply is still there to read. */
	(void)!send(sock, req, sizeof(req), MSG_NOSIGNAL);
	shutdown(sock, SHUT_WR);
	struct helperclient_outcome o = {.outcome = PROTO_INTERNAL};
	bool have_result = false;
	for (;;) {
		uint8_t buf[PROTO_REPLY_SIZE + 1];
		ssize_t n = recv(sock, buf, sizeof(buf), 0);
		/* A helper that answered without reading our request closes with it unread: the
		 * kernel reports ECONNRESET once, then hands over the replies still queued. */
		if (n < 0 && (errno == EINTR || errno == ECONNRESET)) {
			continue;
		}
		if (n <= 0) {
			break;
		}
		struct proto_reply rep;
		if (proto_reply_decode(buf, (size_t)n, &rep) < 0 || have_result) {
			continue;
		}
		if (rep.kind == PROTO_REPLY_LINE) {
			if (on_line) {
				on_line(rep.text, userdata);
			}
		} else {
			o.outcome = rep.outcome;
			o.manager = rep.manager;
			o.detail = rep.detail;
			have_result = true;
		}
	}
	safe_close(sock);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = 0;
			break;
		}
	}
	o.wait_status = status;
	if (!have_result) {
		/* The exit status is the outcome when the helper could not reply (usage, bad
		 * socket, a failed start-up step). */
		o.detail = status;
		if (WIFEXITED(status) && WEXITSTATUS(status) < PROTO_OUTCOME_COUNT) {
			o.outcome = (enum proto_outcome)WEXITSTATUS(status);
		}
	}
	*ret = o;
	return 0;
}
