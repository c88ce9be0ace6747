#include "actprint.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acttable.h"
#include "exitstatus.h"
#include "fileio.h"
#include "log.h"
#include "parse.h"
#include "util.h"

int actprint_take_handoff(int argc, char **argv, const char *prog, struct profile *ret)
{
	unsigned dirfd;
	if (argc < 8 || !profile_name_valid(argv[1]) ||
	    parse_uint_range(argv[3], 3, 65535, &dirfd) < 0 || fcntl((int)dirfd, F_GETFD) < 0) {
		log_error(
			"usage: %s PROFILE DIR DIRFD DISPLAY XAUTHORITY LOG_TEXT ACTION [ARG...] (run by 'botdesk ACTION')",
			prog);
		return -EINVAL;
	}
	/* From here on the directory is ours alone: no child of ours inherits it. */
	(void)fcntl((int)dirfd, F_SETFD, FD_CLOEXEC);
	ret->dir = argv[2];
	ret->dirfd = (int)dirfd;
	snprintf(ret->name, sizeof(ret->name), "%s", argv[1]);
	return 0;
}

void actprint_result(const struct act_req *rq, const struct act_out *out)
{
	char json[2048];
	/* A result of any size (the clipboard's text, the windows) comes whole. */
	if (rq->json && out->json) {
		puts(out->json);
		return;
	}
	if (rq->json && act_actions[rq->cmd].result_json(rq, out, json, sizeof(json))) {
		puts(json);
		return;
	}
	/* Without --json, the answers a caller asked for: the position, how long a wait took. */
	switch (rq->cmd) {
	case ACT_CURSOR:
		if (rq->from_w) {
			printf("%u %u\n", act_to_picture(out->x, out->sw, rq->from_w),
			       act_to_picture(out->y, out->sh, rq->from_h));
		} else {
			printf("%u %u\n", out->x, out->y);
		}
		break;
	case ACT_CLIPBOARD_GET:
		/* The text exactly: no newline added. */
		if (out->data_len > 0) {
			fwrite(out->data, 1, out->data_len, stdout);
		}
		break;
	case ACT_WINDOWS:
		fputs(out->data ? out->data : "", stdout);
		break;
	case ACT_OPEN:
	case ACT_LAUNCH:
		printf("0x%lx\n", out->win);
		break;
	case ACT_WINDOW:
		printf("0x%lx %d %d %ux%u\n", rq->win_id, out->wx, out->wy, out->ww, out->wh);
		break;
	case ACT_WAIT_IDLE:
	case ACT_WAIT_CHANGE:
		printf("%s after %llu ms\n", rq->cmd == ACT_WAIT_IDLE ? "idle" : "changed",
		       (unsigned long long)out->waited_ms);
		break;
	default:
		break;
	}
}

int actprint_exit(int r, const struct error *err)
{
	if (r == 0) {
		return 0;
	}
	log_error("%s", error_isset(err) ? err->msg : strerror(-r));
	int status = exit_status_of(r, err);
	if (status == EXIT_USAGE) {
		fputs("Try 'botdesk --help'.\n", stderr);
	}
	return status;
}

int actprint_read_text(struct act_req *rq, char **ret, struct error *err)
{
	if (rq->text) {
		return 0;
	}
	int fd = 0;
	if (rq->file) {
		fd = open(rq->file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			return error_set(err, negative_errno(), "cannot read --file %s: %s",
					 rq->file, strerror(errno));
		}
	}
	char *buf = malloc(ACT_TEXT_MAX + 2);
	ssize_t n = buf ? read_all(fd, buf, ACT_TEXT_MAX + 1) : -ENOMEM;
	if (fd > 0) {
		safe_close(fd);
	}
	if (n < 0) {
		free(buf);
		return error_set(err, (int)n, "cannot read the text: %s", strerror((int)-n));
	}
	rq->text = buf;
	rq->text_len = (size_t)n;
	*ret = buf;
	size_t chars;
	return act_check_text(buf, (size_t)n, rq->file ? rq->file : "standard input", &chars, err);
}
