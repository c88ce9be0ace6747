/* The Model Context Protocol's wire side (JSON-RPC 2.0, one message a line): a request line into
 * a checked message, a tool call's arguments into an action request (act/actargs.h), and the
 * responses. What differs between the protocol's revisions is mcp-era.h's. Pure: no X, no
 * files, so it is fuzzed as it is. */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "actargs.h"
#include "error.h"

/* The largest request line taken: a `type` of ACT_TEXT_MAX bytes, each escaped as \uXXXX, fits. */
#define MCP_REQUEST_MAX (1024 * 1024)

/* JSON-RPC error codes. */
#define MCP_PARSE_ERROR -32700
#define MCP_INVALID_REQUEST -32600
#define MCP_METHOD_NOT_FOUND -32601
#define MCP_INVALID_PARAMS -32602

struct mcp_msg {
	json_t *root;       /* the whole message (owned) */
	json_t *id;         /* borrowed from root; NULL for a notification */
	const char *method; /* borrowed */
	json_t *params;     /* borrowed; an object, or NULL */
};

/* Parses one line. 0 with msg filled; or a JSON-RPC error code with the message in err and
 * msg->id set when the id could be read (else the error's id is null). mcp_msg_free() either
 * way. */
int mcp_parse(const char *line, size_t len, struct mcp_msg *msg, struct error *err);
void mcp_msg_free(struct mcp_msg *msg);

/* What a tool call is: one of the desktop's actions (its request says which), or one of the
 * server's own tools. */
enum mcp_tool {
	MCP_TOOL_ACTION,
	MCP_TOOL_STATUS,
	MCP_TOOL_START,
	MCP_TOOL_LEASE,
	/* Several of the tools above in one call (mcp/batch.h); its steps go through tools/call's
	 * own path. */
	MCP_TOOL_BATCH,
	/* The models' own vocabularies (issue 25.2, 25.3; mcp-computer.h). */
	MCP_TOOL_COMPUTER,
	MCP_TOOL_COMPUTER_ACTIONS,
	MCP_TOOL_ASK, /* ask_human: its reason in the request's text (NULL: none) */
	MCP_TOOL_COUNT,
};

/* The tools/list result (a new reference). NULL only when out of memory. */
json_t *mcp_tools_list(void);

/* tools/call's params: the tool, and for the desktop's tools the action request (pointers into
 * params stay valid while it lives). start's wait goes to *ret_wait_ms. MCP_INVALID_PARAMS with
 * the message for a call that names no known tool or whose arguments are not an object: a
 * protocol error. -EINVAL for arguments the tool refuses (a missing or unknown member, a value
 * out of range, text that is not printable): a tool error, which the model reads and can
 * correct, as revision 2025-11-25 asks. */
int mcp_tool_args(json_t *params, enum mcp_tool *ret_tool, struct act_req *rq,
		  uint64_t *ret_wait_ms, struct error *err);

/* Responses, as one line each (malloc'ed, ending in a newline). id may be NULL (null). */
char *mcp_result_line(json_t *id, json_t *result); /* steals result */
/* data (stolen) may be NULL: no "data" member. */
char *mcp_error_line(json_t *id, int code, const char *message, json_t *data);
/* A tools/call result: content items (stolen), and isError. */
json_t *mcp_tool_result(json_t *content, bool is_error);
json_t *mcp_text(const char *text);
/* Base64 of data, as an image content item. NULL when out of memory. */
json_t *mcp_image(const unsigned char *data, size_t len, const char *mime);
