/* The JSON-RPC side of mcp-proto.h: a request line into a checked message, and the responses as
 * lines (a result's pictures spliced in whole). */
#include "mcp-proto.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "base64.h"
#include "util.h"

int mcp_parse(const char *line, size_t len, struct mcp_msg *msg, struct error *err)
{
	*msg = (struct mcp_msg){0};
	json_error_t jerr;
	/* Duplicate keys are refused: two "method"s would let a reader and this server disagree
	 * about what was asked. jansson checks UTF-8 and refuses NUL in strings. */
	msg->root = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!msg->root) {
		return error_set(err, MCP_PARSE_ERROR, "parse error: %s (at character %d)",
				 jerr.text, jerr.position);
	}
	if (!json_is_object(msg->root)) {
		return error_set(
			err, MCP_INVALID_REQUEST,
			"invalid request: a message is one JSON object (batches are not part of this protocol revision)");
	}
	json_t *id = json_object_get(msg->root, "id");
	if (id && (json_is_string(id) || json_is_integer(id))) {
		msg->id = id;
	} else if (id) {
		return error_set(err, MCP_INVALID_REQUEST,
				 "invalid request: id must be a string or an integer");
	}
	json_t *v = json_object_get(msg->root, "jsonrpc");
	if (!json_is_string(v) || !streq(json_string_value(v), "2.0")) {
		return error_set(err, MCP_INVALID_REQUEST,
				 "invalid request: jsonrpc must be \"2.0\"");
	}
	json_t *m = json_object_get(msg->root, "method");
	if (!json_is_string(m)) {
		return error_set(
			err, MCP_INVALID_REQUEST,
			"invalid request: method must be a string (this server sends no requests, so it expects no responses)");
	}
	msg->method = json_string_value(m);
	json_t *params = json_object_get(msg->root, "params");
	if (params && !json_is_object(params)) {
		return error_set(err, MCP_INVALID_REQUEST,
				 "invalid request: params must be an object");
	}
	msg->params = params;
	return 0;
}

void mcp_msg_free(struct mcp_msg *msg)
{
	json_decref(msg->root);
	*msg = (struct mcp_msg){0};
}

/* msg (stolen; NULL when building it failed) as one line, or NULL. */
static char *line_of(json_t *msg)
{
	_cleanup_free_ char *s = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
	json_decref(msg);
	char *line = NULL;
	if (s && asprintf(&line, "%s\n", s) < 0) {
		line = NULL;
	}
	return line;
}

/* A result's images, taken out of it while jansson writes the rest: jansson walks a string one
 * code point at a time, 5 ms for a screenshot's megabyte of base64, which needs no escaping and
 * is copied in whole instead. Each leaves a marker no other string holds (a random nonce). */
#define MCP_IMAGES_MAX 8

struct spliced {
	json_t *data[MCP_IMAGES_MAX]; /* the base64 strings taken out (owned) */
	char marker[MCP_IMAGES_MAX][48];
	size_t n;
};

static void take_images(json_t *result, struct spliced *sp)
{
	json_t *content = json_object_get(result, "content"), *item;
	size_t i;
	uint64_t nonce = 0;
	if (getrandom(&nonce, sizeof(nonce), 0) != sizeof(nonce)) {
		return; /* written whole, as jansson does */
	}
	json_array_foreach(content, i, item)
	{
		json_t *data = json_object_get(item, "data");
		if (sp->n == MCP_IMAGES_MAX || !json_is_string(data)) {
			continue;
		}
		snprintf(sp->marker[sp->n], sizeof(sp->marker[0]), "bd-image-%016llx-%zu",
			 (unsigned long long)nonce, sp->n);
		json_t *marker = json_string(sp->marker[sp->n]);
		if (!marker) {
			continue;
		}
		sp->data[sp->n] = json_incref(data);
		json_object_set_new(item, "data", marker);
		sp->n++;
	}
}

/* s with each marker replaced by its base64, and a newline; NULL when out of memory. */
static char *splice(const char *s, const struct spliced *sp)
{
	size_t len = strlen(s) + 2;
	for (size_t k = 0; k < sp->n; k++) {
		len += json_string_length(sp->data[k]);
	}
	char *line = malloc(len), *o = line;
	if (!line) {
		return NULL;
	}
	for (size_t k = 0; k < sp->n; k++) {
		const char *m = strstr(s, sp->marker[k]);
		if (!m) {
			continue;
		}
		memcpy(o, s, (size_t)(m - s));
		o += m - s;
		memcpy(o, json_string_value(sp->data[k]), json_string_length(sp->data[k]));
		o += json_string_length(sp->data[k]);
		s = m + strlen(sp->marker[k]);
	}
	size_t rest = strlen(s);
	memcpy(o, s, rest);
	o[rest] = '\n';
	o[rest + 1] = '\0';
	return line;
}

char *mcp_result_line(json_t *id, json_t *result)
{
	struct spliced sp = {.n = 0};
	if (result) {
		take_images(result, &sp);
	}
	json_t *msg = json_pack("{s:s,s:O?,s:o}", "jsonrpc", "2.0", "id", id, "result", result);
	char *s = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
	json_decref(msg);
	char *line = s ? splice(s, &sp) : NULL;
	free(s);
	for (size_t k = 0; k < sp.n; k++) {
		json_decref(sp.data[k]);
	}
	return line;
}

char *mcp_error_line(json_t *id, int code, const char *message, json_t *data)
{
	return line_of(json_pack("{s:s,s:O?,s:{s:i,s:s,s:o*}}", "jsonrpc", "2.0", "id", id, "error",
				 "code", code, "message", message, "data", data));
}

json_t *mcp_tool_result(json_t *content, bool is_error)
{
	return json_pack("{s:o,s:b}", "content", content, "isError", is_error);
}

json_t *mcp_text(const char *text)
{
	return json_pack("{s:s,s:s}", "type", "text", "text", text);
}

json_t *mcp_image(const unsigned char *data, size_t len, const char *mime)
{
	size_t n = base64_len(len);
	_cleanup_free_ char *out = malloc(n + 1);
	if (!out) {
		return NULL;
	}
	base64_encode(data, len, out);
	json_t *s = json_stringn_nocheck(out, n);
	return s ? json_pack("{s:s,s:o,s:s}", "type", "image", "data", s, "mimeType", mime) : NULL;
}
