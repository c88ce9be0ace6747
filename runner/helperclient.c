/* The runner's side of the wire to botdesk-helper: run it with one end of a socket pair on its
 * fixed fd, send one request, take its lines and its result. Nothing here decides anything. */
#include "helperclient.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "util.h"

_noreturn_ static void exec_helper(const char *path, int sock, int errfd)
{
	/* The socket goes on the helper's fixed fd; everything else we hold is O_CLOEXEC. Move our
	 * two fds out of the way first, should either be fd 3 already. */
	int s = fcntl(sock, F_DUPFD_CLOEXEC, 10), e = fcntl(errfd, F_DUPFD_CLOEXEC, 10);
	if (s >= 0 && e >= 0 && dup2(s, PROTO_HELPER_FD) == PROTO_HELPER_FD) {
		char name[] = "botdesk-helper";
		char *const argv[] = {name, NULL};
		extern char **environ;
		/* The helper clears the environment itself; it has to withstand any we give it. */
		execve(path, argv, environ);
	}
	int saved = errno;
	(void)!write(e >= 0 ? e : errfd, &saved, sizeof(saved));
	_exit(127);
}

static int spawn_helper(const char *path, int *ret_sock, pid_t *ret_pid)
{
	int sv[2], ep[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		return negative_errno();
	}
	if (pipe2(ep, O_CLOEXEC) < 0) {
		int r = negative_errno();
		close(sv[0]);
		close(sv[1]);
		return r;
	}
	pid_t pid = fork();
	if (pid == 0) {
		exec_helper(path, sv[1], ep[1]);
	}
	int r = pid < 0 ? negative_errno() : 0;
	close(sv[1]);
	close(ep[1]);
	if (r == 0) {
		/* The exec either happened (EOF on the CLOEXEC pipe) or failed with an errno. */
		int child_errno = 0;
		ssize_t n = read_all(ep[0], &child_errno, sizeof(child_errno));
		if (n == (ssize_t)sizeof(child_errno)) {
			r = child_errno > 0 ? -child_errno : -EIO;
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
			}
		}
	}
	close(ep[0]);
	if (r < 0) {
		close(sv[0]);
		return r;
	}
	*ret_sock = sv[0];
	*ret_pid = pid;
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
	close(sock);
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
