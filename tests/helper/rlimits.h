/* The resource limits the helper's tests know by name: the ones bdh-client can set on the helper
 * (--limit NAME=SOFT[:HARD]) are exactly the ones the stub package manager reports, so a limit
 * added to one is seen by the other. */
#pragma once

#include <sys/resource.h>

static const struct {
	const char *name;
	int res;
} test_limits[] = {
	{"fsize", RLIMIT_FSIZE},
	{"nofile", RLIMIT_NOFILE},
	{"nproc", RLIMIT_NPROC},
	{"stack", RLIMIT_STACK},
	{"core", RLIMIT_CORE},
	{"cpu", RLIMIT_CPU},
	{"as", RLIMIT_AS},
	{"data", RLIMIT_DATA},
	{"sigpending", RLIMIT_SIGPENDING},
	{"msgqueue", RLIMIT_MSGQUEUE},
	{"rttime", RLIMIT_RTTIME},
	{"memlock", RLIMIT_MEMLOCK},
};
#define TEST_LIMITS_COUNT (sizeof(test_limits) / sizeof(test_limits[0]))
