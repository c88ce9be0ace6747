/* What botdesk-web serves from memory (docs/web.md, "Caching"): the page's own files and noVNC's
 * module graph, read once at start, each with its ETag and a gzip copy, and the page built from
 * index.html with every module named (modulepreload) under the versioned prefix /v/VERSION/.
 * VERSION is a hash of all these files and a salt random per server start: a changed file (at
 * the next start) or another server gives other URLs, so the browser may keep these for good
 * (immutable) and nothing cached leaks from one server to the next. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#define WEB_ASSET_VERSION_HEX 16
/* "/v/" VERSION */
#define WEB_ASSET_PREFIX_MAX (3 + WEB_ASSET_VERSION_HEX + 1)
/* A strong ETag: a quoted hash. */
#define WEB_ETAG_MAX (2 + WEB_ASSET_VERSION_HEX + 1)
/* The page's template marks where the module list goes and what the version replaces. */
#define WEB_ASSET_PRELOAD_MARK "<!-- botdesk: modulepreload -->"
#define WEB_ASSET_VERSION_MARK "@V@"

struct web_asset {
	char url[300]; /* "/", "/web/bar.js", "/novnc/core/rfb.js" */
	const char *type;
	unsigned char *body, *gz; /* gz: NULL when gzip does not make it smaller */
	size_t len, gz_len;
	char etag[WEB_ETAG_MAX];
};

struct web_assets {
	struct web_asset *list;
	size_t n, cap, bytes;
	unsigned char salt[16];
	char prefix[WEB_ASSET_PREFIX_MAX]; /* "/v/VERSION" */
};

/* Reads data's files (the page: index.html, its script and style) and the module graph of
 * novnc from core/rfb.js, builds the page. -errno when a file of data cannot be read; a module
 * that cannot be read is left to the disk (served as before, just not preloaded). */
int web_assets_load(struct web_assets *as, const char *data, const char *novnc);
void web_assets_free(struct web_assets *as);

/* The asset at url ("/web/bar.js"), NULL when there is none. */
const struct web_asset *web_assets_find(const struct web_assets *as, const char *url);

/* An ETag for a file served from disk (one outside the graph), from what stat says and the
 * salt: it changes when the file does, and with the server. */
void web_assets_file_etag(const struct web_assets *as, const struct stat *st, char *out);
