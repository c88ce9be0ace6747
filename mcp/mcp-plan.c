#include "mcp-plan.h"

#include <string.h>

#include "util.h"

void plan_begin(struct mcp_plan *p, size_t items, enum mcp_answer answer)
{
	p->n = p->n_strings = 0;
	p->items = items;
	p->zoom = false;
	p->answer = answer;
}

struct act_req *plan_add(struct mcp_plan *p, enum act_cmd cmd, const char *what, size_t item,
			 struct error *err)
{
	if (p->n == MCP_STEPS_MAX) {
		error_set(err, -EINVAL,
			  "invalid arguments: the call comes to more than %d steps; split it",
			  MCP_STEPS_MAX);
		return NULL;
	}
	struct act_req *rq = &p->steps[p->n];
	act_req_init(rq, cmd);
	p->item[p->n] = item;
	p->what[p->n] = what;
	p->n++;
	return rq;
}

const char *plan_keep(struct mcp_plan *p, const char *s, size_t len, struct error *err)
{
	if (p->n_strings == ARRAY_SIZE(p->strings) || len >= sizeof(p->strings[0])) {
		error_set(err, -EINVAL, "invalid arguments: a key combo too long, or too many");
		return NULL;
	}
	char *d = p->strings[p->n_strings++];
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

int plan_coord(json_t *v, const char *name, unsigned *ret, struct error *err)
{
	double d = -1;
	if (json_is_integer(v)) {
		d = (double)json_integer_value(v);
	} else if (json_is_real(v)) {
		d = json_real_value(v);
	}
	if (!(d >= 0) || d > ACT_COORD_MAX) {
		return error_set(err, -EINVAL,
				 "invalid arguments: '%s' must hold pixel coordinates from 0 to %d",
				 name, ACT_COORD_MAX);
	}
	*ret = (unsigned)(d + 0.5);
	return 0;
}

const char *plan_string(json_t *args, const char *name)
{
	json_t *v = json_object_get(args, name);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

int plan_text(struct act_req *rq, const char *text, struct error *err)
{
	size_t chars;
	rq->text = text;
	rq->text_len = strlen(text);
	return act_check_text(rq->text, rq->text_len, "'text'", &chars, err);
}
