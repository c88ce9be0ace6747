#include "webexec.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

int webexec_run(const struct settings *s, const struct profile *p, int argc, char **argv,
		struct error *err)
{
	_cleanup_free_ char **args = calloc((size_t)argc + 8, sizeof(char *));
	if (!args) {
		return -ENOMEM;
	}
	size_t n = 0;
	static char o_profile[] = "--profile", o_state[] = "--state", o_data[] = "--data";
	args[n++] = s->web;
	args[n++] = o_profile;
	args[n++] = (char *)(uintptr_t)p->name;
	args[n++] = o_state;
	args[n++] = (char *)(uintptr_t)p->dir;
	args[n++] = o_data;
	args[n++] = s->web_data;
	for (int i = 1; i < argc; i++) {
		args[n++] = argv[i];
	}
	args[n] = NULL;
	execv(s->web, args);
	int r = negative_errno();
	return error_set(err, r,
			 "cannot run %s: %s; botdesk web needs botdesk built with libwebsockets "
			 "(libwebsockets-dev) and installed completely",
			 s->web, strerror(-r));
}
