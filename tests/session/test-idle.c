/* The idle stop's decision: how long until a use is old enough, the activity stamp and the
 * session's start as uses, and a human's hold (or an unreadable lease) as a reason never to
 * stop. */
#include "session-test.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "idle.h"
#include "lease.h"
#include "timeutil.h"

static void remaining_time(void **state)
{
	assert_true(idle_remaining_ms(1000, 1000, 2000) == 2000);
	assert_true(idle_remaining_ms(1000, 2500, 2000) == 500);
	assert_true(idle_remaining_ms(1000, 3000, 2000) == 0);
	assert_true(idle_remaining_ms(1000, 99999, 2000) == 0);
	/* A stamp from the future (the clock went back) is a use now. */
	assert_true(idle_remaining_ms(5000, 1000, 2000) == 2000);
}

static void set_mtime(const char *dir, const char *name, time_t t)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct timespec ts[2] = {{.tv_sec = t}, {.tv_sec = t}};
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void decides_from_the_stamp_and_the_lease(void **state)
{
	char dir[] = "/tmp/botdesk-idle.XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct idle i;
	uint64_t deadline;
	/* Off: nothing opened, nothing due, ever. */
	assert_int_equal(idle_open(&i, dir, 0), 0);
	assert_int_equal(i.dirfd, -1);
	assert_int_equal(idle_check(&i, &deadline), 0);
	assert_true(deadline == 0);
	assert_int_equal(idle_open(&i, dir, 60000), 0);
	/* Just started: due a whole limit from now. */
	uint64_t now = now_ms();
	assert_int_equal(idle_check(&i, &deadline), 0);
	assert_true(deadline >= now + 59000 && deadline <= now_ms() + 60000);
	/* Started and last used long ago: stop. */
	i.started = time(NULL) - 3600;
	unit_write(dir, "activity", "");
	set_mtime(dir, "activity", time(NULL) - 120);
	assert_int_equal(idle_check(&i, &deadline), 1);
	/* Used 30 s ago: due in about 30 s. */
	set_mtime(dir, "activity", time(NULL) - 30);
	assert_int_equal(idle_check(&i, &deadline), 0);
	assert_true(deadline > now_ms() + 28000 && deadline <= now_ms() + 31000);
	/* Idle, but a human holds it: not stopped, looked at again a limit later. */
	set_mtime(dir, "activity", time(NULL) - 120);
	unit_write(dir, LEASE_FILE, "holder=human\nepoch=1\nsince=1\nreason=\n");
	assert_int_equal(idle_check(&i, &deadline), 0);
	assert_true(deadline > now_ms() + 59000);
	/* An unreadable lease is a human's too. */
	unit_write(dir, LEASE_FILE, "garbage");
	assert_int_equal(idle_check(&i, &deadline), 0);
	unit_write(dir, LEASE_FILE, "holder=agent\nepoch=2\nsince=1\nreason=\n");
	assert_int_equal(idle_check(&i, &deadline), 1);
	idle_close(&i);
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(remaining_time),
		cmocka_unit_test(decides_from_the_stamp_and_the_lease),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
