#include "actprint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

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
	if (r == -EINVAL) {
		fputs("Try 'botdesk --help'.\n", stderr);
		return ACTPRINT_EXIT_USAGE;
	}
	return r == -EACCES ? ACTPRINT_EXIT_HUMAN : r == -EINTR ? 130 : EXIT_FAILURE;
}
