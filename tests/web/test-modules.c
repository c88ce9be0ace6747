/* botdesk-web's module walker without a server (web/modules.c): which specifiers a module's
 * import and export-from statements name, in noVNC's shapes, and what is never taken for one;
 * how a relative specifier resolves, and that nothing resolves above the root. Also the
 * If-None-Match match the cache answers by (web/request.c). */
#include "unit.h"

#include <errno.h>
#include <string.h>

#include "modules.h"
#include "request.h"

struct seen {
	char specs[16][WEB_MODULE_PATH_MAX];
	size_t n;
};

static int collect(const char *spec, size_t n, void *userdata)
{
	struct seen *s = userdata;
	assert_true(s->n < 16);
	memcpy(s->specs[s->n], spec, n);
	s->specs[s->n][n] = '\0';
	s->n++;
	return 0;
}

static void imports_of_novnc_shapes(void **state)
{
	static const char src[] =
		"/*\n * import notme from './comment.js';\n */\n"
		"import * as Log from './util/logging.js';\n"
		"import { encodeUTF8,\n         decodeUTF8 } from \"./util/strings.js\";\n"
		"import Base64 from './base64.js'\n"
		"  import './side-effect.js';\n"
		"export { default as RawDecoder } from './decoders/raw.js';\n"
		"export * from '../vendor/pako/lib/zlib/inflate.js';\n"
		"export default class RFB { m() { return \"./not-a-module.js\"; } }\n"
		"export const name = './no.js';\n"
		"export function f(a = './no2.js') {}\n"
		"const x = import('./dynamic.js');\n"
		"if (import.meta.url) {}\n"
		"importer('./no3.js');\n"
		"import bad from './a\\'b.js';\n"
		"import last from './unterminated.js";
	struct seen s = {0};
	assert_int_equal(web_module_imports(src, sizeof(src) - 1, collect, &s), 0);
	assert_int_equal(s.n, 6);
	assert_string_equal(s.specs[0], "./util/logging.js");
	assert_string_equal(s.specs[1], "./util/strings.js");
	assert_string_equal(s.specs[2], "./base64.js");
	assert_string_equal(s.specs[3], "./side-effect.js");
	assert_string_equal(s.specs[4], "./decoders/raw.js");
	assert_string_equal(s.specs[5], "../vendor/pako/lib/zlib/inflate.js");
}

static int stop_at_second(const char *spec, size_t n, void *userdata)
{
	(void)spec;
	(void)n;
	int *count = userdata;
	return ++*count == 2 ? -ECANCELED : 0;
}

static void imports_stop_on_error(void **state)
{
	static const char src[] = "import a from './a.js';\nimport b from './b.js';\n"
				  "import c from './c.js';\n";
	int count = 0;
	assert_int_equal(web_module_imports(src, sizeof(src) - 1, stop_at_second, &count),
			 -ECANCELED);
	assert_int_equal(count, 2);
	/* Not NUL-terminated: the walker stays within len. */
	struct seen s = {0};
	assert_int_equal(web_module_imports(src, 20, collect, &s), 0);
	assert_int_equal(s.n, 0);
}

static void resolve(void **state)
{
	char out[WEB_MODULE_PATH_MAX];
	struct {
		const char *from, *spec, *want;
	} ok[] = {
		{"core/rfb.js", "./util/int.js", "core/util/int.js"},
		{"core/rfb.js", "../vendor/pako/lib/zlib/inflate.js",
		 "vendor/pako/lib/zlib/inflate.js"},
		{"core/input/keyboard.js", "../util/./events.js", "core/util/events.js"},
		{"core/a/b/c.js", "../../x.js", "core/x.js"},
		{"rfb.js", "./x.js", "x.js"},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(web_module_resolve(ok[i].from, ok[i].spec, strlen(ok[i].spec), out,
						    sizeof(out)),
				 0);
		assert_string_equal(out, ok[i].want);
	}
	const char *bad[] = {
		"util/int.js",      /* bare: a package name, not a file */
		"/core/rfb.js",     /* absolute */
		"https://x/y.js",   /* another origin */
		"../../etc/passwd", /* above the root */
		"../../../x.js",    "./a//b.js", "./.hidden.js", "./a/",      "./a/..",
		"./a b.js",         "./a%2e.js", "./",           "./a\\b.js", "..",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(
			web_module_resolve("core/rfb.js", bad[i], strlen(bad[i]), out, sizeof(out)),
			-EINVAL);
	}
	assert_int_equal(web_module_resolve("core/rfb.js", "./util/int.js", 13, out, 8),
			 -ENAMETOOLONG);
}

static void etag_match(void **state)
{
	assert_true(web_etag_match("\"abc\"", "\"abc\""));
	assert_true(web_etag_match("\"x\", W/\"abc\"", "\"abc\""));
	assert_true(web_etag_match("*", "\"abc\""));
	assert_false(web_etag_match("\"abcd\"", "\"abc\""));
	assert_false(web_etag_match("\"ab\"", "\"abc\""));
	assert_false(web_etag_match("abc", "\"abc\""));
	assert_false(web_etag_match("", "\"abc\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(imports_of_novnc_shapes),
		cmocka_unit_test(imports_stop_on_error),
		cmocka_unit_test(resolve),
		cmocka_unit_test(etag_match),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
