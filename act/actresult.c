#include "actresult.h"

#include <string.h>

#include "act.h"
#include "strescape.h"

/* ,"window":{"id","title"} (null over the root) when the action looked (pointer actions). */
static void landed_json(const struct act_out *out, char *buf, size_t size)
{
	buf[0] = '\0';
	if (!out->landed_known) {
		return;
	}
	if (!out->landed) {
		snprintf(buf, size, ",\"window\":null");
		return;
	}
	char title[sizeof(out->landed_title) * 6 + 1];
	(void)escape_to_buf(title, sizeof(title), out->landed_title, strlen(out->landed_title),
			    &escape_json);
	snprintf(buf, size, ",\"window\":{\"id\":\"0x%lx\",\"title\":\"%s\"}", out->landed, title);
}

/* With --changes: ,"changed":[{"x","y","width","height"}...] in screen pixels ([] when nothing
 * was drawn). */
static void regions_json(const struct act_req *rq, const struct act_out *out, char *buf,
			 size_t size)
{
	buf[0] = '\0';
	if (!rq->changes) {
		return;
	}
	size_t o = (size_t)snprintf(buf, size, ",\"changed\":[");
	for (size_t i = 0; i < out->n_regions && o < size; i++) {
		const struct act_rect *r = &out->regions[i];
		o += (size_t)snprintf(buf + o, size - o,
				      "%s{\"x\":%u,\"y\":%u,\"width\":%u,\"height\":%u}",
				      i ? "," : "", r->x, r->y, r->w, r->h);
	}
	if (o < size) {
		snprintf(buf + o, size - o, "]");
	}
}

/* Where the pointer went (a drag: from and to), what it landed on, what changed. */
bool actresult_point(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	char to[64] = "";
	char landed[sizeof(out->landed_title) * 6 + 64];
	char regions[ACT_CHANGED_MAX * 64 + 16];
	if (rq->cmd == ACT_DRAG) {
		snprintf(to, sizeof(to), ",\"x2\":%u,\"y2\":%u", out->x2, out->y2);
	}
	landed_json(out, landed, sizeof(landed));
	regions_json(rq, out, regions, sizeof(regions));
	snprintf(buf, size, "{\"x\":%u,\"y\":%u%s,\"screen\":\"%ux%u\"%s%s}", out->x, out->y, to,
		 out->sw, out->sh, landed, regions);
	return true;
}

/* The cursor in the picture's pixels when the request was read in one (--from, or the MCP
 * server's model picture). */
bool actresult_cursor(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	unsigned x = out->x, y = out->y;
	if (out->from_w) {
		x = act_to_picture(x, out->sw, out->from_w);
		y = act_to_picture(y, out->sh, out->from_h);
	}
	snprintf(buf, size, "{\"x\":%u,\"y\":%u,\"screen\":\"%ux%u\"}", x, y, out->sw, out->sh);
	return true;
}

bool actresult_type(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	snprintf(buf, size, "{\"characters\":%zu,\"remapped\":%zu}", out->chars, out->remapped);
	return true;
}

bool actresult_key(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	snprintf(buf, size, "{\"keys\":%zu}", out->keys);
	return true;
}

/* A scaled picture says how to click on it: coordinates read from it go with from = its size. */
bool actresult_picture(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	bool scaled = !rq->region && (out->pic.w != out->sw || out->pic.h != out->sh);
	char from[64] = "";
	if (scaled) {
		snprintf(from, sizeof(from), ",\"from\":\"%ux%u\"", out->pic.w, out->pic.h);
	}
	snprintf(buf, size, "{\"width\":%u,\"height\":%u,\"screen\":\"%ux%u\"%s}", out->pic.w,
		 out->pic.h, out->sw, out->sh, from);
	return true;
}

bool actresult_paused(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	snprintf(buf, size, "{\"waited_ms\":%llu}", (unsigned long long)out->waited_ms);
	return true;
}

bool actresult_wait(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	snprintf(buf, size, "{\"%s\":true,\"waited_ms\":%llu}",
		 rq->cmd == ACT_WAIT_IDLE ? "idle" : "changed", (unsigned long long)out->waited_ms);
	return true;
}

/* clipboard get and windows: a result of any size, in out->json (act.c); the text alone
 * without --json. */
bool actresult_none(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	return false;
}

bool actresult_clip_set(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	snprintf(buf, size, "{\"selection\":\"%s\",\"bytes\":%zu,\"characters\":%zu}",
		 rq->primary ? "PRIMARY" : "CLIPBOARD", rq->text_len, out->chars);
	return true;
}

bool actresult_window(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	snprintf(
		buf, size,
		"{\"id\":\"0x%lx\",\"action\":\"%s\",\"x\":%d,\"y\":%d,\"width\":%u,\"height\":%u}",
		rq->win_id, act_win_op_name(rq->win_op), out->wx, out->wy, out->ww, out->wh);
	return true;
}

bool actresult_opened(const struct act_req *rq, const struct act_out *out, char *buf, size_t size)
{
	snprintf(buf, size, "{\"id\":\"0x%lx\"}", out->win);
	return true;
}
