#include "unit.h"

#include <sys/stat.h>

#include "memory.h"

#define GiB (1024LL * 1024 * 1024)
#define MiB (1024LL * 1024)

static char nonexistent[] = "/nonexistent";

struct fixture {
	char *dir;
	char meminfo[4200], cgroup[4200];
	struct settings s;
};

static int setup(void **state)
{
	struct fixture *f = unit_fixture(sizeof(*f));
	snprintf(f->meminfo, sizeof(f->meminfo), "%s/meminfo", f->dir);
	snprintf(f->cgroup, sizeof(f->cgroup), "%s/cg", f->dir);
	mkdir(f->cgroup, 0700);
	unit_write(f->dir, "meminfo",
		   "MemTotal:        8000000 kB\nMemFree:  100 kB\nMemAvailable:    4096000 kB\n");
	f->s = (struct settings){.meminfo = f->meminfo, .cgroup_root = f->cgroup};
	*state = f;
	return 0;
}

static void cg_write(struct fixture *f, const char *name, long long v)
{
	char text[64];
	snprintf(text, sizeof(text), "%lld\n", v);
	unit_write(f->dir, name, text);
}

static void host_only(void **state)
{
	struct fixture *f = *state;
	struct memory_info m;
	memory_read(&f->s, &m);
	assert_int_equal(m.available_mb, 4000);
	assert_int_equal(m.limit_mb, 7812);
}

static void cgroup_v2_tighter_and_page_cache_free(void **state)
{
	struct fixture *f = *state;
	cg_write(f, "cg/memory.max", 2 * GiB);
	cg_write(f, "cg/memory.current", 1536 * MiB);
	/* 1 GiB of that usage is inactive page cache: reclaimable, not working set. */
	unit_write(f->dir, "cg/memory.stat", "anon 1\ninactive_file 1073741824\nactive_file 5\n");
	struct memory_info m;
	memory_read(&f->s, &m);
	assert_int_equal(m.limit_mb, 2048);
	assert_int_equal(m.available_mb, 2048 - 512);
}

static void cgroup_v2_max_means_host(void **state)
{
	struct fixture *f = *state;
	unit_write(f->dir, "cg/memory.max", "max\n");
	cg_write(f, "cg/memory.current", 100 * MiB);
	struct memory_info m;
	memory_read(&f->s, &m);
	assert_int_equal(m.available_mb, 4000);
	assert_int_equal(m.limit_mb, 7812);
}

static void cgroup_v1(void **state)
{
	struct fixture *f = *state;
	char v1[4300];
	snprintf(v1, sizeof(v1), "%s/memory", f->cgroup);
	assert_int_equal(mkdir(v1, 0700), 0);
	cg_write(f, "cg/memory/memory.limit_in_bytes", 3 * GiB);
	cg_write(f, "cg/memory/memory.usage_in_bytes", 2 * GiB);
	unit_write(f->dir, "cg/memory/memory.stat", "cache 5\ntotal_inactive_file 536870912\n");
	struct memory_info m;
	memory_read(&f->s, &m);
	assert_int_equal(m.limit_mb, 3072);
	assert_int_equal(m.available_mb, 3072 - 1536);
	/* v1's "unlimited" is a huge page-aligned number. */
	cg_write(f, "cg/memory/memory.limit_in_bytes", 9223372036854771712LL);
	memory_read(&f->s, &m);
	assert_int_equal(m.available_mb, 4000);
	assert_int_equal(m.limit_mb, 7812);
}

static void mkdirs(struct fixture *f, const char *rel)
{
	char cmd[8400];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", f->dir, rel);
	assert_int_equal(system(cmd), 0);
}

static void read_as(struct fixture *f, const char *self_text, struct memory_info *m)
{
	struct cgroup_view v;
	cgroup_view_read(f->cgroup, self_text, &v);
	memory_read_view(f->meminfo, &v, m);
}

/* Issue 12, defect 2: the limit of the cgroup we run in, set on an ancestor, not at the root. */
static void own_cgroup_v2_limit_on_an_ancestor(void **state)
{
	struct fixture *f = *state;
	mkdirs(f, "cg/user.slice/box/shell");
	cg_write(f, "cg/user.slice/box/memory.max", 300 * MiB);
	cg_write(f, "cg/user.slice/box/memory.current", 100 * MiB);
	unit_write(f->dir, "cg/user.slice/box/shell/memory.max", "max\n");
	cg_write(f, "cg/user.slice/box/shell/memory.current", 90 * MiB);
	struct memory_info m;
	read_as(f, "0::/user.slice/box/shell\n", &m);
	assert_int_equal(m.limit_mb, 300);
	assert_int_equal(m.available_mb, 200);
	/* The same tree seen from a sibling cgroup without a limit: the host's numbers. */
	mkdirs(f, "cg/other");
	read_as(f, "0::/other\n", &m);
	assert_int_equal(m.limit_mb, 7812);
	assert_int_equal(m.available_mb, 4000);
}

/* The tightest headroom wins, wherever on the way up it is. */
static void own_cgroup_tightest_ancestor(void **state)
{
	struct fixture *f = *state;
	mkdirs(f, "cg/a/b");
	cg_write(f, "cg/a/memory.max", 2 * GiB);
	cg_write(f, "cg/a/memory.current", 2 * GiB - 100 * MiB);
	cg_write(f, "cg/a/b/memory.max", 500 * MiB);
	cg_write(f, "cg/a/b/memory.current", 0);
	struct memory_info m;
	read_as(f, "0::/a/b\n", &m);
	assert_int_equal(m.available_mb, 100);
	assert_int_equal(m.limit_mb, 2048);
	cg_write(f, "cg/a/memory.current", 0);
	read_as(f, "0::/a/b\n", &m);
	assert_int_equal(m.available_mb, 500);
	assert_int_equal(m.limit_mb, 500);
}

/* v1's memory controller on a hybrid host: its own line of /proc/self/cgroup, its own mount. */
static void own_cgroup_v1_hybrid(void **state)
{
	struct fixture *f = *state;
	mkdirs(f, "cg/unified/x");
	unit_write(f->dir, "cg/unified/cgroup.controllers", "hugetlb\n");
	mkdirs(f, "cg/memory/process_api/job");
	cg_write(f, "cg/memory/process_api/job/memory.limit_in_bytes", 40 * MiB);
	cg_write(f, "cg/memory/process_api/job/memory.usage_in_bytes", 30 * MiB);
	unit_write(f->dir, "cg/memory/process_api/job/memory.stat", "total_inactive_file 0\n");
	cg_write(f, "cg/memory/memory.limit_in_bytes", 9223372036854771712LL);
	struct memory_info m;
	read_as(f, "9:name=systemd:/\n4:cpu,memory:/process_api/job\n0::/x\n", &m);
	assert_int_equal(m.limit_mb, 40);
	assert_int_equal(m.available_mb, 10);
	struct cgroup_view v;
	cgroup_view_read(f->cgroup, "0::/x\n", &v);
	char want[4300];
	snprintf(want, sizeof(want), "%s/unified/x", f->cgroup);
	assert_string_equal(v.v2.self, want);
}

static void parse_self(void **state)
{
	(void)state;
	char v2[256], v1[256];
	cgroup_parse_self("12:memory:/a:b\n0::/user.slice/x:y.scope\n", v2, sizeof(v2), v1,
			  sizeof(v1));
	assert_string_equal(v2, "/user.slice/x:y.scope");
	assert_string_equal(v1, "/a:b");
	cgroup_parse_self("3:cpu,cpuacct:/c\n4:memsw:/d\ngarbage\n0::relative\n", v2, sizeof(v2),
			  v1, sizeof(v1));
	assert_string_equal(v2, "");
	assert_string_equal(v1, "");
}

static void unknown_memory(void **state)
{
	struct fixture *f = *state;
	f->s.meminfo = nonexistent;
	struct memory_info m;
	memory_read(&f->s, &m);
	assert_int_equal(m.available_mb, -1);
	assert_int_equal(memory_judge(&m, 1536), MEMORY_OK);
}

static void judge(void **state)
{
	struct memory_info m = {.available_mb = 1536, .limit_mb = 4096};
	assert_int_equal(memory_judge(&m, 1536), MEMORY_TIGHT); /* exactly the floor is enough */
	m.available_mb = 1535;
	assert_int_equal(memory_judge(&m, 1536), MEMORY_SHORT);
	assert_int_equal(memory_judge(&m, 0), MEMORY_OK); /* 0 disables the gate */
	m.available_mb = 2047;
	assert_int_equal(memory_judge(&m, 1536), MEMORY_TIGHT);
	m.available_mb = 2048;
	assert_int_equal(memory_judge(&m, 1536), MEMORY_OK);
	m.available_mb = 400;
	char msg[256];
	memory_blocker(&m, 1536, msg, sizeof(msg));
	assert_string_equal(msg, "Not enough free memory for a desktop: 400 MB available of 4096 "
				 "MB, 1536 MB needed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(host_only, setup, unit_fixture_free),
		cmocka_unit_test_setup_teardown(cgroup_v2_tighter_and_page_cache_free, setup,
						unit_fixture_free),
		cmocka_unit_test_setup_teardown(cgroup_v2_max_means_host, setup, unit_fixture_free),
		cmocka_unit_test_setup_teardown(cgroup_v1, setup, unit_fixture_free),
		cmocka_unit_test_setup_teardown(unknown_memory, setup, unit_fixture_free),
		cmocka_unit_test_setup_teardown(own_cgroup_v2_limit_on_an_ancestor, setup,
						unit_fixture_free),
		cmocka_unit_test_setup_teardown(own_cgroup_tightest_ancestor, setup,
						unit_fixture_free),
		cmocka_unit_test_setup_teardown(own_cgroup_v1_hybrid, setup, unit_fixture_free),
		cmocka_unit_test(parse_self),
		cmocka_unit_test(judge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
