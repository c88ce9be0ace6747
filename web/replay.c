/* The replay's routes (replay.h). Each file goes out through lws_serve_http_file() from the
 * profile's directory we hold (/proc/self/fd/N/...), never a path from the request: the id is
 * checked by the recorder's own rule and the file names are ours. */
#include "replay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recording.h"
#include "util.h"
#include "webstate.h"

#define REPLAY_PREFIX "/replay/"

/* The page: a canvas, the player's controls and the timeline, filled in by replay.js. */
static const char page_head[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	"<meta name=\"viewport\" content=\"width=device-width\">"
	"<title>botdesk replay</title>"
	"<link rel=\"stylesheet\" href=\"/web/replay.css\">"
	"</head><body>"
	"<div id=\"player\"><canvas id=\"screen\"></canvas>"
	"<div id=\"controls\"><button id=\"play\" type=\"button\">Play</button>"
	"<input id=\"seek\" type=\"range\" min=\"0\" max=\"0\" value=\"0\">"
	"<span id=\"clock\">0.0 s</span></div></div>"
	"<ol id=\"timeline\"></ol>"
	"<script type=\"module\" src=\"/web/replay.js\" data-id=\"";
static const char page_tail[] = "\"></script></body></html>\n";

bool replay_route(const char *uri)
{
	return startswith(uri, REPLAY_PREFIX);
}

/* The replay's answers from memory (its page, "not found"): no-store, and nosniff besides. */
static int answer(struct lws *wsi, unsigned status, const char *type, const char *body)
{
	unsigned char buf[LWS_PRE + 1024];
	unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof(buf) - 1;
	size_t len = strlen(body);
	if (lws_add_http_common_headers(wsi, status, type, len, &p, end) ||
	    routes_header(wsi, "x-frame-options:", "DENY", &p, end) ||
	    routes_header(wsi, "x-content-type-options:", "nosniff", &p, end) ||
	    routes_header(wsi, "referrer-policy:", "no-referrer", &p, end) ||
	    routes_header(wsi, "cache-control:", "no-store", &p, end) ||
	    lws_finalize_write_http_header(wsi, start, &p, end)) {
		return -1;
	}
	return routes_send_body(wsi, body, len);
}

static int not_found(struct lws *wsi)
{
	return answer(wsi, HTTP_STATUS_NOT_FOUND, "text/plain", "not found\n");
}

/* A file of the profile's directory (name relative to it), as it is. */
static int send_file(struct lws *wsi, int dirfd, const char *name, const char *type)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode)) {
		return not_found(wsi);
	}
	char path[128];
	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dirfd, name);
	static const char extra[] = "x-frame-options: DENY\r\n"
				    "x-content-type-options: nosniff\r\n"
				    "referrer-policy: no-referrer\r\n"
				    "cache-control: no-store\r\n";
	int r = lws_serve_http_file(wsi, path, type, extra, (int)sizeof(extra) - 1);
	if (r < 0 || (r > 0 && lws_http_transaction_completed(wsi))) {
		return -1;
	}
	return 0;
}

static int send_page(struct lws *wsi, const char *id)
{
	char body[sizeof(page_head) + RECORDING_ID_MAX + sizeof(page_tail)];
	snprintf(body, sizeof(body), "%s%s%s", page_head, id, page_tail);
	return answer(wsi, HTTP_STATUS_OK, "text/html; charset=utf-8", body);
}

int replay_request(struct lws *wsi, int dirfd, const char *uri)
{
	const char *rest = uri + strlen(REPLAY_PREFIX);
	if (streq(rest, "actions")) {
		return send_file(wsi, dirfd, "actions.jsonl", "text/plain; charset=utf-8");
	}
	if (streq(rest, "actions.1")) {
		return send_file(wsi, dirfd, "actions.jsonl.1", "text/plain; charset=utf-8");
	}
	char id[RECORDING_ID_MAX + 1];
	const char *slash = strchr(rest, '/');
	size_t len = slash ? (size_t)(slash - rest) : strlen(rest);
	if (len > RECORDING_ID_MAX) {
		return not_found(wsi);
	}
	memcpy(id, rest, len);
	id[len] = '\0';
	if (!rec_id_valid(id)) {
		return not_found(wsi);
	}
	/* A recording is one with its index (the recorder writes it first). */
	char meta[RECORDING_ID_MAX + 24];
	snprintf(meta, sizeof(meta), RECORDINGS_DIR "/%s.meta", id);
	struct stat st;
	if (fstatat(dirfd, meta, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		return not_found(wsi);
	}
	if (!slash) {
		return send_page(wsi, id);
	}
	static const struct {
		const char *route, *ext, *type;
	} files[] = {
		{"/stream", "rfb", "application/octet-stream"},
		{"/meta", "meta", "text/plain; charset=utf-8"},
		{"/events", "events", "text/plain; charset=utf-8"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		if (streq(slash, files[i].route)) {
			char name[RECORDING_ID_MAX + 24];
			snprintf(name, sizeof(name), RECORDINGS_DIR "/%s.%s", id, files[i].ext);
			return send_file(wsi, dirfd, name, files[i].type);
		}
	}
	return not_found(wsi);
}
