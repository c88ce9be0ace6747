#include "mcp-a11y.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acthandoff.h"
#include "exitstatus.h"
#include "spawnproc.h"
#include "timeutil.h"
#include "util.h"

/* What the program reads of an answer at most; the rest is read and dropped. */
#define READ_MAX (1024 * 1024)

struct args {
	char *v[32];
	size_t n;
	char bufs[4][64];
};

static void add(struct args *a, const char *s)
{
	if (a->n + 1 < ARRAY_SIZE(a->v)) {
		a->v[a->n++] = (char *)(uintptr_t)s;
		a->v[a->n] = NULL;
	}
}

/* The command line botdesk-act-a11y parses (act/actargs.h), as `botdesk ACTION` would give it. */
static void build_args(const struct mcp_a11y_call *c, const struct act_req *rq, struct args *a)
{
	snprintf(a->bufs[0], sizeof(a->bufs[0]), "%d", 3);
	add(a, c->program);
	add(a, c->p->name);
	add(a, c->p->dir);
	add(a, a->bufs[0]);
	add(a, c->display);
	add(a, c->xauthority);
	add(a, c->log_text ? "1" : "0");
	add(a, act_cmd_name(rq->cmd));
	if (rq->cmd == ACT_TREE || rq->cmd == ACT_FIND) {
		if (c->pic_w && (c->pic_w != c->sw || c->pic_h != c->sh)) {
			snprintf(a->bufs[1], sizeof(a->bufs[1]), "%ux%u", c->pic_w, c->pic_h);
			add(a, "--from");
			add(a, a->bufs[1]);
		}
		if (rq->window) {
			add(a, "--window");
			add(a, rq->window);
		}
	}
	if (rq->cmd == ACT_TREE) {
		snprintf(a->bufs[2], sizeof(a->bufs[2]), "%u",
			 rq->depth ? rq->depth : MCP_A11Y_DEPTH_DEFAULT);
		add(a, "--depth");
		add(a, a->bufs[2]);
	}
	if (rq->cmd == ACT_FIND && rq->role) {
		add(a, "--role");
		add(a, rq->role);
	}
	if (rq->cmd == ACT_FIND && rq->name) {
		add(a, "--name");
		add(a, rq->name);
	}
	if (rq->element) {
		add(a, "--json");
		add(a, "--element");
		add(a, rq->element);
	}
	if (rq->cmd == ACT_CLICK) {
		add(a, "--button");
		add(a, act_button_name(rq->button));
		if (rq->dbl) {
			add(a, "--double");
		}
	}
	if (rq->cmd == ACT_TYPE) {
		snprintf(a->bufs[3], sizeof(a->bufs[3]), "%u", rq->delay_ms);
		add(a, "--delay");
		add(a, a->bufs[3]);
		/* The text may start with '-': after --, it is the text. */
		add(a, "--");
		add(a, rq->text);
	}
}

/* Reads out and errs until both end, the child's deadline passes (then it is killed) or out has
 * READ_MAX bytes (the rest is dropped). */
static int collect(int out_fd, int err_fd, pid_t pid, uint64_t deadline, char **out,
		   size_t *out_len, char *msg, size_t msg_size)
{
	size_t cap = 65536, len = 0, mlen = 0;
	char *buf = malloc(cap + 1);
	if (!buf) {
		return -ENOMEM;
	}
	struct pollfd pl[2] = {{.fd = out_fd, .events = POLLIN}, {.fd = err_fd, .events = POLLIN}};
	int open_fds = 2;
	while (open_fds > 0) {
		uint64_t now = now_ms();
		if (now >= deadline) {
			kill(pid, SIGKILL);
			break;
		}
		if (poll(pl, 2, (int)(deadline - now)) < 0 && errno != EINTR) {
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pl[i].fd < 0 || !pl[i].revents) {
				continue;
			}
			char chunk[8192];
			ssize_t n = read(pl[i].fd, chunk, sizeof(chunk));
			if (n <= 0) {
				pl[i].fd = -1;
				open_fds--;
				continue;
			}
			if (i == 1) {
				size_t k = (size_t)n < msg_size - 1 - mlen ? (size_t)n
									   : msg_size - 1 - mlen;
				memcpy(msg + mlen, chunk, k);
				mlen += k;
				msg[mlen] = '\0';
				continue;
			}
			if (len + (size_t)n > cap && cap < READ_MAX) {
				cap = cap * 4 > READ_MAX ? READ_MAX : cap * 4;
				char *b = realloc(buf, cap + 1);
				if (!b) {
					free(buf);
					return -ENOMEM;
				}
				buf = b;
			}
			size_t k = (size_t)n < cap - len ? (size_t)n : cap - len;
			memcpy(buf + len, chunk, k);
			len += k;
		}
	}
	buf[len] = '\0';
	*out = buf;
	*out_len = len;
	return 0;
}

char *mcp_a11y_bound(char *text, size_t len)
{
	if (len <= MCP_A11Y_TEXT_MAX) {
		return text;
	}
	size_t keep = MCP_A11Y_TEXT_MAX;
	while (keep > 0 && text[keep - 1] != '\n') {
		keep--;
	}
	size_t lines = 0;
	for (size_t i = keep; i < len; i++) {
		lines += text[i] == '\n';
	}
	char *s = NULL;
	if (asprintf(
		    &s,
		    "%.*s(cut here: %zu more lines; ask for one window (window) or fewer levels (depth))\n",
		    (int)keep, text, lines) < 0) {
		return text;
	}
	free(text);
	return s;
}

/* The program's message without its prefix and the --help hint. */
static void tidy(char *msg)
{
	char *hint = strstr(msg, "Try 'botdesk --help'.");
	if (hint) {
		*hint = '\0';
	}
	size_t n = strlen(msg);
	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) {
		msg[--n] = '\0';
	}
	if (startswith(msg, "botdesk: ")) {
		memmove(msg, msg + 9, strlen(msg + 9) + 1);
	}
}

int mcp_a11y_run(const struct mcp_a11y_call *c, const struct act_req *rq, char **ret,
		 struct error *err)
{
	char *env[ACT_ENV_MAX];
	act_program_env(env);
	struct args a = {0};
	build_args(c, rq, &a);
	_cleanup_close_pair_ int outp[2] = {-1, -1};
	_cleanup_close_pair_ int errp[2] = {-1, -1};
	_cleanup_close_ int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (pipe2(outp, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0 || devnull < 0) {
		return error_set(err, negative_errno(), "pipe: %s", strerror(errno));
	}
	struct spawn_fd fds[] = {{devnull, 0}, {outp[1], 1}, {errp[1], 2}, {c->p->dirfd, 3}};
	struct spawn_opts o = {.fds = fds, .n_fds = ARRAY_SIZE(fds)};
	pid_t pid;
	int r = spawn_program(c->program, a.v, env, &o, &pid);
	if (r < 0) {
		return error_set(err, r, "cannot run %s: %s; is botdesk installed completely?",
				 c->program, strerror(-r));
	}
	outp[1] = safe_close(outp[1]);
	errp[1] = safe_close(errp[1]);
	/* The program bounds its own walk (rq's timeout); this is the guard behind it, with
	 * room for a click and typing after the walk. */
	uint64_t typing = rq->cmd == ACT_TYPE ? (uint64_t)rq->text_len * (rq->delay_ms + 20) : 0;
	uint64_t deadline = now_ms() + rq->timeout_ms + 5000 + typing;
	char *out = NULL, msg[2048] = "";
	size_t len = 0;
	r = collect(outp[0], errp[0], pid, deadline, &out, &len, msg, sizeof(msg));
	int status = 0;
	if (waitpid(pid, &status, 0) < 0) {
		free(out);
		return error_set(err, negative_errno(), "waitpid: %s", strerror(errno));
	}
	if (r < 0) {
		free(out);
		return error_set(err, r, "cannot read the answer: %s", strerror(-r));
	}
	if (WIFSIGNALED(status)) {
		free(out);
		return error_set(
			err, -ETIMEDOUT,
			"the accessibility tree did not answer in time (the call was stopped)");
	}
	tidy(msg);
	int code = WEXITSTATUS(status);
	if (code != 0) {
		free(out);
		enum error_kind kind = ERROR_FAILED;
		if (code == EXIT_HUMAN) {
			kind = ERROR_HUMAN_HOLDS;
		} else if (code == EXIT_USAGE) {
			kind = ERROR_BAD_INPUT;
		}
		return error_set_kind(err, kind, code == EXIT_HUMAN ? -EACCES : -EINVAL, "%s",
				      *msg ? msg : "the accessibility tree's program failed");
	}
	*ret = mcp_a11y_bound(out, len);
	return 0;
}
