/* The module graph of noVNC's ES modules, as pure functions over bounded text (no I/O): which
 * files a module imports, so that botdesk-web can load the whole graph at start and name every
 * module in the page (modulepreload) instead of letting the browser discover it level by level.
 * Fuzzed by tests/fuzz/fuzz-web-modules.c, unit-tested by tests/web/test-modules.c. */
#pragma once

#include <stddef.h>

/* The longest specifier and resolved path the walker takes; longer ones are skipped. */
#define WEB_MODULE_PATH_MAX 256

/* Calls fn(spec, len, userdata) for each static import's specifier in src (len bytes, not
 * NUL-terminated): `import ... from 'S'`, `import 'S'` and `export ... from 'S'`, each starting
 * a line. A statement that does not look like one is skipped, never guessed at: the walker only
 * decides what is preloaded, the browser still resolves every import itself. Stops at the first
 * fn that returns nonzero and returns that; 0 otherwise. */
int web_module_imports(const char *src, size_t len,
		       int (*fn)(const char *spec, size_t n, void *userdata), void *userdata);

/* The path (relative to the modules' root, as from is: "core/rfb.js") that the relative
 * specifier spec (n bytes: "./util/int.js", "../vendor/x.js") names from the module from, in
 * out: normalised, never above the root, only [A-Za-z0-9._-] in its components, none of them
 * empty or starting with a dot. -EINVAL for a bare or absolute specifier or one that leaves the
 * root, -ENAMETOOLONG when it does not fit. */
int web_module_resolve(const char *from, const char *spec, size_t n, char *out, size_t size);
