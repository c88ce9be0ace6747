#include "assets.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>
#include <zlib.h>

#include "array.h"
#include "fileio.h"
#include "modules.h"
#include "pathjoin.h"
#include "request.h"
#include "util.h"

/* Bounds on what is held in memory: noVNC 1.3's graph is 43 files, 0.5 MiB. */
#define ASSETS_MAX 256
#define ASSET_FILE_MAX (4u << 20)
#define ASSETS_BYTES_MAX (16u << 20)
/* The page, built from index.html. */
#define PAGE_MAX (1u << 20)
/* What the page says for each module (docs/web.md, "Caching"). */
#define PRELOAD_OPEN "<link rel=\"modulepreload\" fetchpriority=\"low\" href=\""
#define PRELOAD_CLOSE "\">\n"
/* The module the page imports: the root of the graph. */
#define GRAPH_ROOT "core/rfb.js"

static int read_whole(const char *path, unsigned char **ret, size_t *ret_len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		return negative_errno();
	}
	if (!S_ISREG(st.st_mode)) {
		return -EINVAL;
	}
	if ((size_t)st.st_size > ASSET_FILE_MAX) {
		return -EFBIG;
	}
	_cleanup_free_ unsigned char *buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		return -ENOMEM;
	}
	/* One byte more than its size: a file that grew while read is not a file to serve. */
	ssize_t n = read_all(fd, buf, (size_t)st.st_size + 1);
	if (n < 0) {
		return (int)n;
	}
	if ((size_t)n > (size_t)st.st_size) {
		return -EFBIG;
	}
	*ret = TAKE_PTR(buf);
	*ret_len = (size_t)n;
	return 0;
}

/* A gzip copy, kept only when it is smaller. */
static int gzip_of(struct web_asset *a)
{
	z_stream z = {0};
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
		return -ENOMEM;
	}
	size_t cap = deflateBound(&z, (uLong)a->len);
	unsigned char *out = malloc(cap);
	if (!out) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = a->body;
	z.avail_in = (uInt)a->len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	int r = deflate(&z, Z_FINISH);
	size_t n = z.total_out;
	deflateEnd(&z);
	if (r != Z_STREAM_END || n >= a->len) {
		free(out);
		return 0;
	}
	a->gz = out;
	a->gz_len = n;
	return 0;
}

static void hash_hex(const unsigned char *salt, size_t salt_len, const void *data, size_t len,
		     char *out)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) ||
	    !EVP_DigestUpdate(ctx, salt, salt_len) || !EVP_DigestUpdate(ctx, data, len) ||
	    !EVP_DigestFinal_ex(ctx, md, &mdlen)) {
		mdlen = 0;
	}
	EVP_MD_CTX_free(ctx);
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < WEB_ASSET_VERSION_HEX / 2; i++) {
		unsigned char b = i < mdlen ? md[i] : 0;
		out[2 * i] = digits[b >> 4];
		out[2 * i + 1] = digits[b & 15];
	}
	out[WEB_ASSET_VERSION_HEX] = '\0';
}

static void etag_of(const struct web_assets *as, struct web_asset *a)
{
	char hex[WEB_ASSET_VERSION_HEX + 1];
	hash_hex(as->salt, sizeof(as->salt), a->body, a->len, hex);
	snprintf(a->etag, sizeof(a->etag), "\"%s\"", hex);
}

/* Takes body (freed on failure). */
static int add(struct web_assets *as, const char *url, unsigned char *body, size_t len)
{
	_cleanup_free_ unsigned char *b = body;
	const char *type = web_content_type(url);
	if (!type || strlen(url) >= sizeof(as->list[0].url)) {
		return -EINVAL;
	}
	if (as->n == ASSETS_MAX || as->bytes + len > ASSETS_BYTES_MAX) {
		return -E2BIG;
	}
	if (ARRAY_RESERVE(as->list, as->cap, as->n + 1, 64) < 0) {
		return -ENOMEM;
	}
	struct web_asset *a = &as->list[as->n];
	*a = (struct web_asset){.type = type, .body = TAKE_PTR(b), .len = len};
	snprintf(a->url, sizeof(a->url), "%s", url);
	as->n++;
	as->bytes += len;
	return gzip_of(a);
}

struct walk {
	struct web_assets *as;
	const char *novnc;
	const char *from;
};

static int add_module(struct web_assets *as, const char *novnc, const char *rel)
{
	char url[WEB_MODULE_PATH_MAX + 8], path[1024];
	snprintf(url, sizeof(url), "/novnc/%s", rel);
	if (web_assets_find(as, url)) {
		return 0;
	}
	/* The same rules as a request's path: what the graph names, a request could name too. */
	const char *type = web_content_type(url);
	if (web_static_path(url, "/novnc/", novnc, path, sizeof(path)) < 0 || !type ||
	    !startswith(type, "text/javascript")) {
		return 0;
	}
	unsigned char *body;
	size_t len;
	if (read_whole(path, &body, &len) < 0) {
		return 0; /* left to the disk, where it gets the 404 it would have got */
	}
	int r = add(as, url, body, len);
	return r == -E2BIG || r == -EINVAL ? 0 : r;
}

static int on_import(const char *spec, size_t n, void *userdata)
{
	struct walk *w = userdata;
	char rel[WEB_MODULE_PATH_MAX];
	if (web_module_resolve(w->from, spec, n, rel, sizeof(rel)) < 0) {
		return 0; /* a bare name or outside the tree: the browser's to resolve */
	}
	return add_module(w->as, w->novnc, rel);
}

/* Breadth first from the root: the list is the queue. */
static int walk_graph(struct web_assets *as, const char *novnc)
{
	size_t first = as->n;
	int r = add_module(as, novnc, GRAPH_ROOT);
	if (r < 0) {
		return r;
	}
	for (size_t i = first; i < as->n; i++) {
		/* add() may move the list: the module's name and text are copied out first. */
		char from[WEB_MODULE_PATH_MAX];
		snprintf(from, sizeof(from), "%s", as->list[i].url + strlen("/novnc/"));
		const unsigned char *body = as->list[i].body;
		size_t len = as->list[i].len;
		struct walk w = {as, novnc, from};
		if ((r = web_module_imports((const char *)body, len, on_import, &w)) < 0) {
			return r;
		}
	}
	return 0;
}

/* The page's own files: every file of data with a type the server serves, but index.html. */
static int read_data(struct web_assets *as, const char *data)
{
	_cleanup_closedir_ DIR *d = opendir(data);
	if (!d) {
		return negative_errno();
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || streq(e->d_name, "index.html") ||
		    !web_content_type(e->d_name)) {
			continue;
		}
		char url[300], path[1024];
		snprintf(url, sizeof(url), "/web/%s", e->d_name);
		if (web_static_path(url, "/web/", data, path, sizeof(path)) < 0) {
			continue;
		}
		unsigned char *body;
		size_t len;
		int r = read_whole(path, &body, &len);
		if (r == -EINVAL) {
			continue; /* a directory */
		}
		if (r < 0 || (r = add(as, url, body, len)) < 0) {
			return r;
		}
	}
	return 0;
}

/* The version: every file's name and text, after the salt. */
static int version_of(struct web_assets *as)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned mdlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) &&
		  EVP_DigestUpdate(ctx, as->salt, sizeof(as->salt));
	for (size_t i = 0; ok && i < as->n; i++) {
		const struct web_asset *a = &as->list[i];
		ok = EVP_DigestUpdate(ctx, a->url, strlen(a->url) + 1) &&
		     EVP_DigestUpdate(ctx, a->body, a->len);
	}
	ok = ok && EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	if (!ok || mdlen < WEB_ASSET_VERSION_HEX / 2) {
		return -EIO;
	}
	char *p = as->prefix + snprintf(as->prefix, sizeof(as->prefix), "/v/");
	for (size_t i = 0; i < WEB_ASSET_VERSION_HEX / 2; i++) {
		p += sprintf(p, "%02x", md[i]);
	}
	return 0;
}

/* A growing text, bounded: the page is built from a template anyone with the data directory
 * writes, so no size is assumed of it. */
struct text {
	char *s;
	size_t len, cap;
};

static int put(struct text *t, const void *s, size_t n)
{
	if (n > PAGE_MAX - t->len) {
		return -E2BIG;
	}
	if (t->len + n > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		while (cap < t->len + n) {
			cap *= 2;
		}
		char *g = realloc(t->s, cap);
		if (!g) {
			return -ENOMEM;
		}
		t->s = g;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	return 0;
}

static int put_str(struct text *t, const char *s)
{
	return put(t, s, strlen(s));
}

static int put_preloads(struct web_assets *as, struct text *t)
{
	int r = 0;
	for (size_t k = 0; r == 0 && k < as->n; k++) {
		if (!startswith(as->list[k].url, "/novnc/")) {
			continue;
		}
		if ((r = put_str(t, PRELOAD_OPEN)) < 0 || (r = put_str(t, as->prefix)) < 0 ||
		    (r = put_str(t, as->list[k].url)) < 0) {
			return r;
		}
		r = put_str(t, PRELOAD_CLOSE);
	}
	return r;
}

/* index.html with the version in place of its marks and a modulepreload per module. */
static int build_page(struct web_assets *as, const char *data)
{
	char path[1024];
	unsigned char *tpl;
	size_t tlen;
	int r = path_join(path, sizeof(path), data, "index.html");
	if (r < 0 || (r = read_whole(path, &tpl, &tlen)) < 0) {
		return r;
	}
	_cleanup_free_ unsigned char *t = tpl;
	struct text page = {0};
	size_t vlen = strlen(WEB_ASSET_VERSION_MARK), plen = strlen(WEB_ASSET_PRELOAD_MARK);
	for (size_t i = 0; r == 0 && i < tlen;) {
		const char *s = (const char *)t + i;
		size_t left = tlen - i;
		if (left >= vlen && memcmp(s, WEB_ASSET_VERSION_MARK, vlen) == 0) {
			r = put_str(&page, as->prefix);
			i += vlen;
		} else if (left >= plen && memcmp(s, WEB_ASSET_PRELOAD_MARK, plen) == 0) {
			r = put_preloads(as, &page);
			i += plen;
		} else {
			r = put(&page, s, 1);
			i++;
		}
	}
	if (r < 0) {
		free(page.s);
		return r;
	}
	/* add() takes the text, and frees it when it fails. */
	if ((r = add(as, "/index.html", (unsigned char *)page.s, page.len)) < 0) {
		return r;
	}
	struct web_asset *a = &as->list[as->n - 1];
	snprintf(a->url, sizeof(a->url), "/");
	etag_of(as, a);
	return 0;
}

int web_assets_load(struct web_assets *as, const char *data, const char *novnc)
{
	*as = (struct web_assets){0};
	if (getrandom(as->salt, sizeof(as->salt), 0) != sizeof(as->salt)) {
		return -EIO;
	}
	int r;
	if ((r = read_data(as, data)) < 0 || (r = walk_graph(as, novnc)) < 0 ||
	    (r = version_of(as)) < 0) {
		web_assets_free(as);
		return r;
	}
	for (size_t i = 0; i < as->n; i++) {
		etag_of(as, &as->list[i]);
	}
	if ((r = build_page(as, data)) < 0) {
		web_assets_free(as);
		return r;
	}
	return 0;
}

void web_assets_free(struct web_assets *as)
{
	for (size_t i = 0; i < as->n; i++) {
		free(as->list[i].body);
		free(as->list[i].gz);
	}
	free(as->list);
	*as = (struct web_assets){0};
}

const struct web_asset *web_assets_find(const struct web_assets *as, const char *url)
{
	for (size_t i = 0; i < as->n; i++) {
		if (streq(as->list[i].url, url)) {
			return &as->list[i];
		}
	}
	return NULL;
}

void web_assets_file_etag(const struct web_assets *as, const struct stat *st, char *out)
{
	/* Numbers only, no padding: what is hashed is exactly these. */
	long long id[] = {(long long)st->st_dev, (long long)st->st_ino, (long long)st->st_size,
			  (long long)st->st_mtim.tv_sec, (long long)st->st_mtim.tv_nsec};
	char hex[WEB_ASSET_VERSION_HEX + 1];
	hash_hex(as->salt, sizeof(as->salt), id, sizeof(id), hex);
	snprintf(out, WEB_ETAG_MAX, "\"%s\"", hex);
}
