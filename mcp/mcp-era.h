/* The Model Context Protocol's two eras, served side by side on one stdio connection:
 *  - modern, revision 2026-07-28: no handshake; every request names its revision and the
 *    client's capabilities in params._meta, server/discover describes the server, and every
 *    result says it is complete;
 *  - legacy, revisions 2024-11-05 to 2025-11-25: initialize negotiates the revision once.
 * A dual-era client probes with server/discover and falls back to initialize on an error; a
 * request is taken in the era it is framed in, so either kind of client is served. Pure, like
 * mcp-proto.h: fuzzed as it is. */
#pragma once

#include <jansson.h>

#include "error.h"
#include "mcp-proto.h"

#define MCP_MODERN_VERSION "2026-07-28"
/* The newest legacy revision: initialize's answer to one it does not know (2026-07-28 among
 * them, which has no initialize). */
#define MCP_LEGACY_VERSION "2025-11-25"

/* 2026-07-28's error for a revision the server does not speak, with data {supported,
 * requested}. */
#define MCP_UNSUPPORTED_VERSION -32022

enum mcp_era {
	MCP_LEGACY,
	MCP_MODERN,
};

enum mcp_method {
	MCP_INITIALIZE,
	MCP_PING,
	MCP_DISCOVER,
	MCP_TOOLS_LIST,
	MCP_TOOLS_CALL,
};

struct mcp_route {
	enum mcp_era era;
	enum mcp_method method;
	const char *requested; /* borrowed: the revision a modern request named */
};

/* A request's era and method. 0; or a JSON-RPC error code with the message in err:
 * MCP_UNSUPPORTED_VERSION (answer with mcp_unsupported_data(route->requested)),
 * MCP_INVALID_PARAMS for a modern request without the _meta it must carry,
 * MCP_METHOD_NOT_FOUND for a method its era does not have. */
int mcp_route(const struct mcp_msg *msg, struct mcp_route *route, struct error *err);

/* MCP_UNSUPPORTED_VERSION's data (a new reference; NULL when out of memory). */
json_t *mcp_unsupported_data(const char *requested);

/* A result as its era sends it: a modern one with resultType and the server's identity in
 * its _meta. Steals result; NULL when result is NULL or memory ran out. */
json_t *mcp_era_result(json_t *result, enum mcp_era era, const char *version);

/* The tools/list result: modern results add how long a client may keep it. */
json_t *mcp_era_tools_list(enum mcp_era era);

/* server/discover's result. */
json_t *mcp_discover_result(const char *version);

/* initialize's result for the client's requested revision (NULL: none given). */
json_t *mcp_initialize_result(const char *requested, const char *version);
