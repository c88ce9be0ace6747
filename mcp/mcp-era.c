#include "mcp-era.h"

#include <string.h>

#include "util.h"

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define META_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"
#define META_SERVER "io.modelcontextprotocol/serverInfo"

/* Every legacy revision whose tool calls look like ours, newest first. */
static const char *const legacy_versions[] = {MCP_LEGACY_VERSION, "2025-06-18", "2025-03-26",
					      "2024-11-05"};

/* How long a client may keep the tool list and the server's description: both are fixed for
 * the life of this binary, and the same for every user, so any cache may share them. */
#define CACHE_TTL_MS 3600000

static const char instructions[] =
	"One desktop of botdesk. Look with screenshot, act with click, type, key, scroll, drag; after an action, call wait (for=change or idle) instead of sleeping. Coordinates are screen pixels unless 'from' names the size of the picture they were read from. Every action fails while a human holds the desktop (see lease).";

static const struct {
	const char *name;
	bool legacy, modern;
} methods[] = {
	[MCP_INITIALIZE] = {"initialize", true, false},
	[MCP_PING] = {"ping", true, false},
	[MCP_DISCOVER] = {"server/discover", false, true},
	[MCP_TOOLS_LIST] = {"tools/list", true, true},
	[MCP_TOOLS_CALL] = {"tools/call", true, true},
};

/* A modern request names a revision we speak, and the client's capabilities. */
static int check_modern(json_t *meta, json_t *version, struct mcp_route *route, struct error *err)
{
	if (!json_is_string(version)) {
		return error_set(err, MCP_INVALID_PARAMS,
				 "invalid params: _meta's \"" META_VERSION "\" must be a string");
	}
	route->requested = json_string_value(version);
	if (!streq(route->requested, MCP_MODERN_VERSION)) {
		return error_set(
			err, MCP_UNSUPPORTED_VERSION,
			"unsupported protocol version '%s': per-request _meta carries " MCP_MODERN_VERSION
			"; older revisions are negotiated with initialize",
			route->requested);
	}
	if (!json_is_object(json_object_get(meta, META_CAPABILITIES))) {
		return error_set(err, MCP_INVALID_PARAMS,
				 "invalid params: a " MCP_MODERN_VERSION
				 " request carries _meta \"" META_CAPABILITIES
				 "\" (an object; {} for none)");
	}
	return 0;
}

int mcp_route(const struct mcp_msg *msg, struct mcp_route *route, struct error *err)
{
	*route = (struct mcp_route){.era = MCP_LEGACY};
	/* Legacy requests may carry _meta too (a progress token): the revision in it is what
	 * makes a request modern. */
	json_t *meta = msg->params ? json_object_get(msg->params, "_meta") : NULL;
	json_t *version = json_is_object(meta) ? json_object_get(meta, META_VERSION) : NULL;
	if (version) {
		route->era = MCP_MODERN;
		int r = check_modern(meta, version, route, err);
		if (r) {
			return r;
		}
	}
	bool modern = route->era == MCP_MODERN;
	for (size_t i = 0; i < ARRAY_SIZE(methods); i++) {
		if (!streq(msg->method, methods[i].name)) {
			continue;
		}
		if (modern ? methods[i].modern : methods[i].legacy) {
			route->method = (enum mcp_method)i;
			return 0;
		}
		if (modern) {
			return error_set(
				err, MCP_METHOD_NOT_FOUND,
				"method not found: %s is not part of revision " MCP_MODERN_VERSION,
				msg->method);
		}
		/* Modern only (server/discover): it exists, its _meta is what is missing. */
		return error_set(err, MCP_INVALID_PARAMS,
				 "invalid params: %s carries params._meta with \"" META_VERSION
				 "\": \"" MCP_MODERN_VERSION "\"",
				 msg->method);
	}
	return error_set(err, MCP_METHOD_NOT_FOUND, "method not found: %s", msg->method);
}

static json_t *all_versions(void)
{
	json_t *v = json_pack("[s]", MCP_MODERN_VERSION);
	for (size_t i = 0; v && i < ARRAY_SIZE(legacy_versions); i++) {
		if (json_array_append_new(v, json_string(legacy_versions[i])) < 0) {
			json_decref(v);
			return NULL;
		}
	}
	return v;
}

json_t *mcp_unsupported_data(const char *requested)
{
	return json_pack("{s:o,s:s}", "supported", all_versions(), "requested",
			 requested ? requested : "");
}

static json_t *server_info(const char *version)
{
	return json_pack("{s:s,s:s}", "name", "botdesk", "version", version);
}

json_t *mcp_era_result(json_t *result, enum mcp_era era, const char *version)
{
	if (!result || era == MCP_LEGACY) {
		return result;
	}
	/* 2026-07-28 results are "complete" or ask the client for input first; ours never ask. */
	if (json_object_set_new(result, "resultType", json_string("complete")) < 0 ||
	    json_object_set_new(result, "_meta",
				json_pack("{s:o}", META_SERVER, server_info(version))) < 0) {
		json_decref(result);
		return NULL;
	}
	return result;
}

static json_t *cacheable(json_t *result)
{
	if (result && (json_object_set_new(result, "ttlMs", json_integer(CACHE_TTL_MS)) < 0 ||
		       json_object_set_new(result, "cacheScope", json_string("public")) < 0)) {
		json_decref(result);
		return NULL;
	}
	return result;
}

json_t *mcp_era_tools_list(enum mcp_era era)
{
	json_t *r = mcp_tools_list();
	return era == MCP_MODERN ? cacheable(r) : r;
}

json_t *mcp_discover_result(const char *version)
{
	/* serverInfo also in the body, where the revision's release candidates had it; the final
	 * schema moved it to _meta (mcp_era_result adds it there). */
	return cacheable(json_pack("{s:o,s:{s:{}},s:o,s:s}", "supportedVersions", all_versions(),
				   "capabilities", "tools", "serverInfo", server_info(version),
				   "instructions", instructions));
}

json_t *mcp_initialize_result(const char *requested, const char *version)
{
	/* A revision we speak is answered as asked; any other gets our newest legacy one, and the
	 * client decides whether it can go on. */
	const char *answer = MCP_LEGACY_VERSION;
	for (size_t i = 0; requested && i < ARRAY_SIZE(legacy_versions); i++) {
		if (streq(requested, legacy_versions[i])) {
			answer = legacy_versions[i];
		}
	}
	return json_pack("{s:s,s:{s:{s:b}},s:o,s:s}", "protocolVersion", answer, "capabilities",
			 "tools", "listChanged", 0, "serverInfo", server_info(version),
			 "instructions", instructions);
}
