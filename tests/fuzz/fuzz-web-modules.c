/* botdesk-web's module walker (web/modules.c) over any text: it never reads past the text, every
 * specifier it hands on lies within the text and holds no newline, and a specifier resolves, if
 * at all, to a path under the root: relative, no "..", "." or empty component, no component
 * starting with a dot, only [A-Za-z0-9._-/]. The text is also tried as a specifier itself, from
 * a module at the root and from one two levels down. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-text.h"
#include "modules.h"

struct input {
	const char *text;
	size_t len;
};

static void check_path(const char *p)
{
	size_t n = strlen(p);
	if (n == 0 || n >= WEB_MODULE_PATH_MAX || p[0] == '/' || p[n - 1] == '/' ||
	    strstr(p, "//") || strstr(p, "/.") || p[0] == '.' ||
	    strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/") != n) {
		abort();
	}
}

static void try_resolve(const char *from, const char *spec, size_t n)
{
	char out[WEB_MODULE_PATH_MAX];
	if (web_module_resolve(from, spec, n, out, sizeof(out)) == 0) {
		check_path(out);
	}
}

static int on_spec(const char *spec, size_t n, void *userdata)
{
	const struct input *in = userdata;
	if (spec < in->text || spec + n > in->text + in->len || n == 0 || memchr(spec, '\n', n)) {
		abort();
	}
	try_resolve("core/input/keyboard.js", spec, n);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size copy: reading past it is what the sanitizer catches. */
	char *text = malloc(size ? size : 1);
	if (!text) {
		return 0;
	}
	memcpy(text, data, size);
	struct input in = {text, size};
	(void)web_module_imports(text, size, on_spec, &in);
	try_resolve("rfb.js", text, size);
	try_resolve("core/decoders/tight.js", text, size);
	free(text);
	return 0;
}
