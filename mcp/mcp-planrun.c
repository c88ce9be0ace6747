/* The models' vocabularies run (mcp-server.h): a computer or computer_actions call's plan
 * (mcp-computer.h) run step by step on the desktop, paced, stopping at the first failure or a
 * human's take, and answered as the model's harness answers. */
#include <poll.h>
#include <stdio.h>

#include "acttable.h"
#include "mcp-computer.h"
#include "mcp-server.h"
#include "modelpic.h"
#include "util.h"

/* The settle before the screenshot a `computer` call answers with: the screen quiet this long,
 * or at most the bound (a clock or a video never settles). */
#define COMPUTER_SETTLE_QUIET_MS 300
#define COMPUTER_SETTLE_MAX_MS 2000
/* Between two steps of one call. An application reads the X events waiting for it in one go
 * and merges them: Chromium, handed a list's steps back to back, pressed a drag and a right
 * click where a later step's motion went (e2e-computer fails without the gap). 50 ms lets it
 * read each step on its own on a loaded host; a reference harness spends more than that
 * starting xdotool for each action. */
#define COMPUTER_STEP_GAP_MS 50

/* The default picture after the actions, once the screen has settled (quiet for a moment, or
 * at most a bound): what Anthropic's reference harness sends after each action, and OpenAI's
 * answer to every call. Appended to content. */
static int settled_screenshot(struct server *s, json_t *content, struct error *err)
{
	struct act_req rq;
	struct act_out out;
	act_req_init(&rq, ACT_WAIT_IDLE);
	rq.quiet_ms = COMPUTER_SETTLE_QUIET_MS;
	rq.timeout_ms = COMPUTER_SETTLE_MAX_MS;
	struct error ignored = {{0}};
	/* Not logged: a pause of the server's own, and a screen that keeps changing (a clock, a
	 * video) is no failure. */
	(void)act_run(&s->a, &rq, &out, &ignored);
	act_req_init(&rq, ACT_SCREENSHOT);
	rq.format = ACT_FORMAT_JPEG;
	int r = server_run_one(s, &rq, &out, err);
	json_t *res = r == 0 ? server_action_result(&rq, &out) : NULL;
	free(out.pic.data);
	if (r == 0 && !res) {
		return -ENOMEM;
	}
	size_t i;
	json_t *item;
	json_array_foreach(json_object_get(res, "content"), i, item)
	{
		json_array_append(content, item);
	}
	json_decref(res);
	return r;
}

/* A plan's failure: which step, and what was done before it. */
static json_t *plan_failed(const struct mcp_plan *plan, size_t step, const struct error *err)
{
	if (plan->items <= 1) {
		return server_text(err->msg, true);
	}
	size_t item = plan->item[step];
	char msg[sizeof(err->msg) + 256];
	snprintf(msg, sizeof(msg), "%s at action %zu of %zu (%s): %s. %s",
		 err->kind == ERROR_HUMAN_HOLDS ? "stopped" : "failed", item + 1, plan->items,
		 plan->what[step], err->msg,
		 item == 0 ? "No action before it was done."
			   : "The actions before it were done; none after it was sent.");
	return server_text(msg, true);
}

/* What a `computer` call answers once its steps are done (out: the last step's). */
static json_t *plan_answer(struct server *s, const struct mcp_plan *plan, struct act_out *out)
{
	const struct act_req *last = plan->n ? &plan->steps[plan->n - 1] : NULL;
	char text[2048] = "{}";
	if (plan->answer == MCP_ANSWER_PICTURE && last) {
		json_t *img = mcp_image(out->pic.data, out->pic.len, "image/jpeg");
		return img ? mcp_tool_result(json_pack("[o]", img), false) : NULL;
	}
	if (plan->answer == MCP_ANSWER_CURSOR && last) {
		/* As the reference harness says it, in the picture the model sees. */
		unsigned x = out->from_w ? act_to_picture(out->x, out->sw, out->from_w) : out->x;
		unsigned y = out->from_w ? act_to_picture(out->y, out->sh, out->from_h) : out->y;
		snprintf(text, sizeof(text), "X=%u,Y=%u", x, y);
	} else if (last && !act_actions[last->cmd].result_json(last, out, text, sizeof(text))) {
		snprintf(text, sizeof(text), "{}");
	}
	json_t *content = json_pack("[o]", mcp_text(text));
	struct error err = {{0}};
	if (content && s->settings.computer_screenshots &&
	    settled_screenshot(s, content, &err) < 0) {
		json_decref(content);
		return server_text(err.msg, true);
	}
	return content ? mcp_tool_result(content, false) : NULL;
}

/* OpenAI's answer to every call: the settled screen alone. */
static json_t *screen_answer(struct server *s)
{
	struct error err = {{0}};
	json_t *content = json_array();
	int r = content ? settled_screenshot(s, content, &err) : -ENOMEM;
	if (r == 0) {
		return mcp_tool_result(content, false);
	}
	json_decref(content);
	return r == -ENOMEM ? NULL : server_text(err.msg, true);
}

json_t *server_computer(struct server *s, json_t *params, enum mcp_tool tool)
{
	struct error err = {{0}};
	_cleanup_free_ struct mcp_plan *plan = calloc(1, sizeof(*plan));
	if (!plan) {
		return NULL;
	}
	json_t *args = json_object_get(params, "arguments");
	int r = tool == MCP_TOOL_COMPUTER ? mcp_computer_plan(args, plan, &err)
					  : mcp_computer_actions_plan(args, plan, &err);
	if (r == 0 && plan->zoom) {
		/* The region at the screen's resolution, scaled to fill the model picture's size.
		 */
		r = server_connect(s, &err);
		modelpic_size(s->a.sw, s->a.sh, &plan->steps[plan->n - 1].max_w,
			      &plan->steps[plan->n - 1].max_h);
	}
	if (r < 0) {
		return server_text(err.msg, true);
	}
	struct act_out out = {0};
	for (size_t i = 0; i < plan->n; i++) {
		free(out.pic.data);
		if (i > 0) {
			/* Paced as separate calls would be (see COMPUTER_STEP_GAP_MS). */
			(void)poll(NULL, 0, COMPUTER_STEP_GAP_MS);
		}
		r = server_run_one(s, &plan->steps[i], &out, &err);
		if (r < 0) {
			free(out.pic.data);
			return plan_failed(plan, i, &err);
		}
	}
	json_t *res =
		plan->answer == MCP_ANSWER_SCREEN ? screen_answer(s) : plan_answer(s, plan, &out);
	free(out.pic.data);
	return res;
}
