/* bench-a11y BOTDESK [N]: the accessibility tree's figures (issue 27.6), whole process each time
 * (spawn to exit, as an agent pays them), N runs each (default 30), as the desktop's user, on a
 * desktop where Chromium shows tests/e2e/a11y/form.html (title "Form test"):
 *   botdesk exec -- chromium --user-data-dir=DIR --no-first-run
 * file://$PWD/tests/e2e/a11y/form.html First `botdesk --version` (the runner's start: the floor of
 * every command) and `botdesk cursor` (an action's whole path through botdesk-act), then tree of
 * the Chromium window, find of its button, and tree and find over the whole desktop. docs/mcp.md
 * has the last figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlib.h"
#include "parse.h"

static void measure(const char *what, const char *botdesk, const char *const *words, unsigned n)
{
	double *v = calloc(n, sizeof(*v));
	char *args[16] = {strdup(botdesk)};
	for (size_t i = 0; words[i] && i + 2 < 16; i++) {
		args[i + 1] = strdup(words[i]);
	}
	if (!v) {
		exit(1);
	}
	/* One run first, not counted: the page cache and Chromium's lazily built tree. */
	if (bench_time_quiet(botdesk, args, 0) < 0) {
		fprintf(stderr,
			"bench-a11y: '%s' failed; is Chromium showing the form (see the top of bench-a11y.c)?\n",
			what);
		exit(1);
	}
	for (unsigned i = 0; i < n; i++) {
		v[i] = bench_time_quiet(botdesk, args, 0);
		if (v[i] < 0) {
			fprintf(stderr, "bench-a11y: '%s' failed on run %u\n", what, i + 1);
			exit(1);
		}
	}
	bench_report(what, v, n);
	free(v);
	for (size_t i = 0; args[i]; i++) {
		free(args[i]);
	}
}

int main(int argc, char **argv)
{
	unsigned n = 30;
	if (argc < 2 || argc > 3 || (argc == 3 && parse_uint_range(argv[2], 1, 10000, &n) < 0)) {
		fprintf(stderr, "usage: bench-a11y BOTDESK [N]\n");
		return 2;
	}
	const char *b = argv[1];
	static const char *const version[] = {"--version", NULL};
	static const char *const cursor[] = {"cursor", NULL};
	static const char *const tree_win[] = {"tree", "--window", "Form test", NULL};
	static const char *const find_win[] = {"find",   "--window", "Form test",   "--role",
					       "button", "--name",   "Send report", NULL};
	static const char *const find_all[] = {"find",   "--role",      "button",
					       "--name", "Send report", NULL};
	static const char *const tree_all[] = {"tree", NULL};
	measure("botdesk --version", b, version, n);
	measure("botdesk cursor", b, cursor, n);
	measure("tree --window 'Form test'", b, tree_win, n);
	measure("find --window 'Form test' --role button --name 'Send report'", b, find_win, n);
	measure("find --role button --name 'Send report' (the desktop)", b, find_all, n);
	measure("tree (the desktop)", b, tree_all, n);
	return 0;
}
