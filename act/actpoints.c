/* A request's points on the screen (actargs.h): a picture's pixel to the screen's and back, and
 * the checks that the points, a drag's path and a screenshot's region lie on it. */
#include "actargs.h"

#include <errno.h>
#include <stdio.h>

unsigned act_from_picture(unsigned p, unsigned pic, unsigned screen)
{
	return (unsigned)(((2 * (uint64_t)p + 1) * screen) / (2 * (uint64_t)pic));
}

unsigned act_to_picture(unsigned s, unsigned screen, unsigned pic)
{
	return (unsigned)(((2 * (uint64_t)s + 1) * pic) / (2 * (uint64_t)screen));
}

static int point(const struct act_req *rq, const char *xn, const char *yn, unsigned x, unsigned y,
		 unsigned sw, unsigned sh, unsigned *rx, unsigned *ry, struct error *err)
{
	if (rq->from_w) {
		if (x >= rq->from_w || y >= rq->from_h) {
			return error_set_kind(
				err, ERROR_BAD_INPUT, -EINVAL,
				"%s,%s = %u,%u is off the %ux%u picture named by --from (0 to %u, 0 to %u)",
				xn, yn, x, y, rq->from_w, rq->from_h, rq->from_w - 1,
				rq->from_h - 1);
		}
		*rx = act_from_picture(x, rq->from_w, sw);
		*ry = act_from_picture(y, rq->from_h, sh);
		return 0;
	}
	if (x >= sw || y >= sh) {
		return error_set_kind(
			err, ERROR_BAD_INPUT, -EINVAL,
			"%s,%s = %u,%u is off the %ux%u screen (0 to %u, 0 to %u); a point in a smaller picture needs --from WIDTHxHEIGHT (MCP: from)",
			xn, yn, x, y, sw, sh, sw - 1, sh - 1);
	}
	*rx = x;
	*ry = y;
	return 0;
}

int act_resolve_points(const struct act_req *rq, unsigned sw, unsigned sh, unsigned *x, unsigned *y,
		       unsigned *x2, unsigned *y2, struct error *err)
{
	bool two = rq->cmd == ACT_DRAG;
	const char *xn = two ? "X1" : "X", *yn = two ? "Y1" : "Y";
	int r = 0;
	/* at_pointer: the first point is where the pointer is, which the caller asks the server. */
	if (!rq->at_pointer) {
		r = point(rq, xn, yn, rq->x, rq->y, sw, sh, x, y, err);
	}
	if (r == 0 && two) {
		r = point(rq, "X2", "Y2", rq->x2, rq->y2, sw, sh, x2, y2, err);
	}
	return r;
}

int act_check_region(const struct act_req *rq, unsigned sw, unsigned sh, struct error *err)
{
	if (rq->region && ((uint64_t)rq->rx + rq->rw > sw || (uint64_t)rq->ry + rq->rh > sh)) {
		return error_set_kind(err, ERROR_BAD_INPUT, -EINVAL,
				      "--region %u,%u,%u,%u reaches outside the %ux%u screen",
				      rq->rx, rq->ry, rq->rw, rq->rh, sw, sh);
	}
	return 0;
}

int act_resolve_path(const struct act_req *rq, unsigned sw, unsigned sh, unsigned (*ret)[2],
		     struct error *err)
{
	for (size_t i = 0; i < rq->n_path; i++) {
		char xn[32], yn[32];
		snprintf(xn, sizeof(xn), "point %zu's X", i + 1);
		snprintf(yn, sizeof(yn), "Y");
		int r = point(rq, xn, yn, rq->path[i][0], rq->path[i][1], sw, sh, &ret[i][0],
			      &ret[i][1], err);
		if (r < 0) {
			return r;
		}
	}
	return 0;
}
