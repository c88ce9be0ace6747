/* botdesk-mcp's own parts and what they share: the server's state, its connection to the desktop
 * and the tools it runs on it. mcp-main.c reads the requests and dispatches them; mcp-desktop.c
 * holds the connection, status, start, lease and the desktop's actions; mcp-planrun.c runs the
 * models' vocabularies (mcp-computer.h); mcp-batchrun.c runs batches (batch.h), for the MCP tool
 * and for `botdesk batch`. A tool's function returns its result (a new reference), or NULL when
 * memory ran out. */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "act.h"
#include "desktop.h"
#include "error.h"
#include "mcp-proto.h"
#include "profile.h"
#include "settings.h"

struct server {
	struct settings settings;
	const char *profile;
	struct profile p;
	struct act a;
	struct identity launcher;   /* the launcher of the desktop a is connected to */
	struct desktop_probe probe; /* its last probe: the environment open and launch give */
	const char *source;         /* actions.jsonl's source: "mcp", or "cli" for botdesk batch */
	uint64_t epoch;             /* the lease's epoch a running batch began under */
};

/* A tool result of one text item. */
json_t *server_text(const char *text, bool is_error);

/* The profile's directory, opened once it exists (start makes it). */
int server_open_profile(struct server *s, bool create, struct error *err);

/* Connected to the running desktop: the connection is made again when the desktop was
 * restarted (another launcher) or its server went away. */
int server_connect(struct server *s, struct error *err);

/* One action on the desktop, connected and with the lease checked, logged in actions.jsonl.
 * The caller frees out->pic.data. */
int server_run_one(struct server *s, const struct act_req *rq, struct act_out *out,
		   struct error *err);

/* The action's result as its row gives it (act/acttable.c: what `--json` prints too), after the
 * picture for a screenshot. */
json_t *server_action_result(const struct act_req *rq, struct act_out *out);

/* status, and start (start: the desktop started unless it runs, waiting at most wait_ms). */
json_t *server_status(struct server *s, bool start, uint64_t wait_ms);

/* lease, and ask_human (ask, reason or NULL): the request recorded first (common/lease.h); never
 * refused while a human holds the desktop. */
json_t *server_lease(struct server *s, bool ask, const char *reason);

/* A desktop action's tool: rq run in-process, or by botdesk-act-a11y (mcp-a11y.h). */
json_t *server_action(struct server *s, const struct act_req *rq);

/* computer and computer_actions: the call's steps in order, the first failure or a human's take
 * stopping the rest. */
json_t *server_computer(struct server *s, json_t *params, enum mcp_tool tool);

/* tools/call: the tool's result, or NULL with a JSON-RPC error code in *code (mcp-main.c). A
 * batch's steps are calls too. */
json_t *server_call(struct server *s, json_t *params, int *code, struct error *err);

/* The batch tool. */
json_t *server_batch(struct server *s, json_t *params);

/* botdesk batch: the whole batch from stdin, its result on stdout, the stop's reason on stderr
 * too. The exit status. */
int server_batch_cli(struct server *s);
