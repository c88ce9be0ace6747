#include "unit.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "proc.h"

static void parses_names_with_spaces_and_parentheses(void **state)
{
	struct proc_stat st;
	const char *text = "1234 (my (evil) ) name) S 1 1234 1234 0 -1 4194560 100 0 0 0 1 2 0 0 "
			   "20 0 1 0 987654321 1000 100 18446744073709551615\n";
	assert_int_equal(proc_stat_parse(text, &st), 0);
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.ppid, 1);
	assert_int_equal(st.pgid, 1234);
	assert_int_equal(st.sid, 1234);
	assert_true(st.starttime == 987654321ULL);
}

static void refuses_truncated_and_garbage(void **state)
{
	struct proc_stat st;
	assert_int_equal(proc_stat_parse("", &st), -EINVAL);
	assert_int_equal(proc_stat_parse("1 (x) S 1 2 3", &st), -EINVAL);
	assert_int_equal(
		proc_stat_parse("1 x S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19", &st),
		-EINVAL);
	assert_int_equal(
		proc_stat_parse("1 (x) SS 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5 0 0", &st),
		-EINVAL);
	assert_int_equal(proc_stat_parse("1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 5x 0", &st),
			 -EINVAL);
}

static void reads_ourselves_and_sees_zombies(void **state)
{
	struct proc_stat self;
	assert_int_equal(proc_stat_read(getpid(), &self), 0);
	assert_true(proc_stat_is_live(&self));
	assert_int_equal(self.pgid, getpgrp());

	pid_t child = unit_zombie();
	struct proc_stat st;
	assert_int_equal(proc_stat_read(child, &st), 0);
	assert_int_equal(st.state, 'Z');
	assert_false(proc_stat_is_live(&st));
	waitpid(child, NULL, 0);
	assert_true(proc_stat_read(child, &st) < 0);
}

static void implausible_pids(void **state)
{
	struct proc_stat st;
	assert_int_equal(proc_stat_read(0, &st), -ESRCH);
	assert_int_equal(proc_stat_read(1, &st), -ESRCH);
	assert_int_equal(proc_stat_read(-5, &st), -ESRCH);
	assert_false(pid_is_plausible(0));
	assert_false(pid_is_plausible(1));
	assert_true(pid_is_plausible(2));
	assert_false(pid_is_plausible(99999999999ULL));
}

static void cmdline(void **state)
{
	char *buf;
	size_t len;
	assert_int_equal(proc_cmdline_read(getpid(), &buf, &len), 0);
	assert_non_null(strstr(buf, "test-proc"));
	free(buf);
	uid_t uid;
	assert_int_equal(proc_owner(getpid(), &uid), 0);
	assert_int_equal(uid, getuid());
}

static void reads_our_own_pss(void **state)
{
	uint64_t kb = 0;
	int r = proc_pss_kb(getpid(), &kb);
	if (r == -ENOENT) {
		skip(); /* a kernel before smaps_rollup */
	}
	assert_int_equal(r, 0);
	assert_true(kb > 0);
	assert_int_equal(proc_pss_kb(0, &kb), -ESRCH);
}

/* The private RSS grows by what we dirty ourselves and stays within the resident set. */
static void reads_our_own_private_rss(void **state)
{
	(void)state;
	uint64_t before, after, res;
	assert_int_equal(proc_rss_kb(getpid(), NULL, &before), 0);
	size_t size = 8u << 20;
	char *p = malloc(size);
	assert_non_null(p);
	memset(p, 1, size);
	assert_int_equal(proc_rss_kb(getpid(), &res, &after), 0);
	assert_true(after >= before + 7 * 1024);
	assert_true(after <= res);
	/* Read back, so that the stores are not optimised away. */
	assert_int_equal(((volatile char *)p)[size - 1], 1);
	free(p);
	assert_int_equal(proc_rss_kb(0, NULL, &after), -ESRCH);
}

/* Our X servers by either of Debian's names, wherever they live; not a client that names one. */
static void knows_our_x_servers(void **state)
{
	(void)state;
	assert_true(proc_cmdline_is_xvnc("/usr/bin/Xvnc\0:5\0"));
	assert_true(proc_cmdline_is_xvnc("Xtigervnc"));
	assert_true(proc_cmdline_is_xvnc("/usr/bin/Xtigervnc\0-desktop\0"));
	assert_false(proc_cmdline_is_xvnc("/usr/bin/vncviewer\0Xvnc\0"));
	assert_false(proc_cmdline_is_xvnc("/opt/Xvnc/bin/xterm"));
	assert_false(proc_cmdline_is_xvnc(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_our_own_pss),
		cmocka_unit_test(reads_our_own_private_rss),
		cmocka_unit_test(knows_our_x_servers),
		cmocka_unit_test(parses_names_with_spaces_and_parentheses),
		cmocka_unit_test(refuses_truncated_and_garbage),
		cmocka_unit_test(reads_ourselves_and_sees_zombies),
		cmocka_unit_test(implausible_pids),
		cmocka_unit_test(cmdline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
