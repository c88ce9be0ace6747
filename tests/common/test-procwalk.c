#include "unit.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "procwalk.h"

struct look {
	pid_t want;
	bool seen;
	pid_t ppid;
	size_t n;
};

static int count_and_find(pid_t pid, const struct proc_stat *st, void *userdata)
{
	struct look *l = userdata;
	l->n++;
	if (pid == l->want) {
		l->seen = true;
		l->ppid = st->ppid;
	}
	return 0;
}

static void finds_a_child_with_its_parent(void **state)
{
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	struct look l = {.want = child};
	assert_int_equal(proc_walk(count_and_find, &l), 0);
	assert_true(l.seen);
	assert_int_equal(l.ppid, getpid());
	assert_true(l.n >= 2);

	/* Once it is a zombie the walk no longer hands it out: only live processes are. */
	kill(child, SIGKILL);
	unit_wait_zombie(child);
	l = (struct look){.want = child};
	assert_int_equal(proc_walk(count_and_find, &l), 0);
	assert_false(l.seen);
	assert_int_equal(waitpid(child, NULL, 0), child);
}

static int stop_at_self(pid_t pid, const struct proc_stat *st, void *userdata)
{
	size_t *calls = userdata;
	(*calls)++;
	return pid == getpid() ? 7 : 0;
}

static int fail_at_once(pid_t pid, const struct proc_stat *st, void *userdata)
{
	size_t *calls = userdata;
	(*calls)++;
	return -EIO;
}

static void the_filter_ends_the_walk_with_its_value(void **state)
{
	size_t calls = 0;
	assert_int_equal(proc_walk(stop_at_self, &calls), 7);
	assert_true(calls >= 1);
	calls = 0;
	assert_int_equal(proc_walk(fail_at_once, &calls), -EIO);
	assert_int_equal(calls, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_a_child_with_its_parent),
		cmocka_unit_test(the_filter_ends_the_walk_with_its_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
