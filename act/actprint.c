#include "actprint.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitstatus.h"
#include "log.h"
#include "parse.h"
#include "util.h"

int actprint_take_handoff(int argc, char **argv, const char *prog, struct profile *ret)
{
	unsigned dirfd;
	if (argc < 8 || strlen(argv[1]) > PROFILE_NAME_MAX ||
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
	unsigned x = out->x, y = out->y;
	if (rq->cmd == ACT_CURSOR && rq->from_w) {
		x = act_to_picture(x, out->sw, rq->from_w);
		y = act_to_picture(y, out->sh, rq->from_h);
	}
	switch (rq->cmd) {
	case ACT_CURSOR:
		if (rq->json) {
			printf("{\"x\":%u,\"y\":%u,\"screen\":\"%ux%u\"}\n", x, y, out->sw,
			       out->sh);
		} else {
			printf("%u %u\n", x, y);
		}
		break;
	case ACT_CLICK:
	case ACT_MOVE:
	case ACT_SCROLL:
	case ACT_DRAG:
		if (rq->json && rq->cmd == ACT_DRAG) {
			printf("{\"x\":%u,\"y\":%u,\"x2\":%u,\"y2\":%u,\"screen\":\"%ux%u\"}\n",
			       out->x, out->y, out->x2, out->y2, out->sw, out->sh);
		} else if (rq->json) {
			printf("{\"x\":%u,\"y\":%u,\"screen\":\"%ux%u\"}\n", out->x, out->y,
			       out->sw, out->sh);
		}
		break;
	case ACT_TYPE:
		if (rq->json) {
			printf("{\"characters\":%zu,\"remapped\":%zu}\n", out->chars,
			       out->remapped);
		}
		break;
	case ACT_KEY:
		if (rq->json) {
			printf("{\"keys\":%zu}\n", out->keys);
		}
		break;
	case ACT_WAIT_IDLE:
	case ACT_WAIT_CHANGE:
		if (rq->json) {
			printf("{\"%s\":true,\"waited_ms\":%llu}\n",
			       rq->cmd == ACT_WAIT_IDLE ? "idle" : "changed",
			       (unsigned long long)out->waited_ms);
		} else {
			printf("%s after %llu ms\n", rq->cmd == ACT_WAIT_IDLE ? "idle" : "changed",
			       (unsigned long long)out->waited_ms);
		}
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
