/* `/replay/ID` in botdesk web: a recording of the flight recorder (common/recording.h) played in
 * the browser with its timeline beside it (data/web/replay.js decodes the stream). This file
 * serves the page and the recording's own files, raw; the caller has authorized the request
 * (the live view's ticket and cookie) and checked it is a GET. */
#pragma once

#include <libwebsockets.h>
#include <stdbool.h>

/* Whether uri is one of ours: "/replay/..." */
bool replay_route(const char *uri);
/* Answers it: the page for /replay/ID; /replay/ID/stream, /meta, /events; /replay/actions and
 * /replay/actions.1 (the action log the timeline is read from). 404 for an id or a file that is
 * not there. The server's return value for the request. */
int replay_request(struct lws *wsi, int dirfd, const char *uri);
