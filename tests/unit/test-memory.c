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
	struct fixture *f = calloc(1, sizeof(*f));
	f->dir = unit_mkdtemp();
	snprintf(f->meminfo, sizeof(f->meminfo), "%s/meminfo", f->dir);
	snprintf(f->cgroup, sizeof(f->cgroup), "%s/cg", f->dir);
	mkdir(f->cgroup, 0700);
	unit_write(f->dir, "meminfo",
		   "MemTotal:        8000000 kB\nMemFree:  100 kB\nMemAvailable:    4096000 kB\n");
	f->s = (struct settings){.meminfo = f->meminfo, .cgroup_root = f->cgroup};
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	unit_rm_rf(f->dir);
	free(f);
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
		cmocka_unit_test_setup_teardown(host_only, setup, teardown),
		cmocka_unit_test_setup_teardown(cgroup_v2_tighter_and_page_cache_free, setup,
						teardown),
		cmocka_unit_test_setup_teardown(cgroup_v2_max_means_host, setup, teardown),
		cmocka_unit_test_setup_teardown(cgroup_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(unknown_memory, setup, teardown),
		cmocka_unit_test(judge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
