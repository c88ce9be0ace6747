#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>

#include "identity.h"
#include "proc.h"
#include "profile.h"

static void parse_formats(void **state)
{
	struct identity id = {0};
	assert_int_equal(identity_parse("1234 5678\n", &id), 0);
	assert_int_equal(id.pid, 1234);
	assert_true(id.starttime == 5678);
	assert_int_equal(identity_parse("1234 5678", &id), 0);

	static const char *const bad[] = {
		"1234",                                       /* the old bare-pid format */
		"1234\n",                                     /* likewise */
		"",                                           /* empty */
		"garbage",                                    /* garbage */
		"1234 12345.0",                               /* the original's float create_time */
		"9999999999999999999999999999999999999999 1", /* overflow */
		"0 5",                                        /* pid 0 */
		"1 5",                                        /* init */
		"-5 5",                                       /* negative */
		"1234  5678",                                 /* double space */
		"1234 5678 9",                                /* trailing field */
		"1234 5678\n\n",                              /* trailing lines */
		" 1234 5678",                                 /* leading space */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(identity_parse(bad[i], &id), -EINVAL);
	}
}

static void live_only_with_matching_start_time(void **state)
{
	struct proc_stat st;
	assert_int_equal(proc_stat_read(getpid(), &st), 0);
	struct identity me = {.pid = getpid(), .starttime = st.starttime};
	assert_true(identity_is_live(&me));
	/* Alive, but born at another time: a recycled pid, a stranger. */
	struct identity recycled = {.pid = getpid(), .starttime = st.starttime + 1};
	assert_false(identity_is_live(&recycled));
	/* A pid no process has (or /proc hides from us): not ours, never an error. */
	struct identity gone = {.pid = 4194303, .starttime = 1};
	assert_false(identity_is_live(&gone));
}

static void zombie_is_not_live(void **state)
{
	pid_t child = unit_zombie();
	struct proc_stat st;
	assert_int_equal(proc_stat_read(child, &st), 0);
	struct identity id = {.pid = child, .starttime = st.starttime};
	assert_false(identity_is_live(&id));
	waitpid(child, NULL, 0);
}

static void write_then_read_round_trip(void **state)
{
	char *dir = unit_mkdtemp();
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct identity w, r;
	assert_int_equal(identity_write(dfd, getpid(), &w), 0);
	assert_int_equal(identity_read(dfd, &r), 0);
	assert_int_equal(r.pid, getpid());
	assert_true(r.starttime == w.starttime);
	assert_int_equal(identity_live_launcher(dfd, &r), 0);
	unit_write(dir, STATE_PIDFILE, "12345");
	assert_int_equal(identity_read(dfd, &r), -EINVAL);
	assert_int_equal(identity_live_launcher(dfd, &r), -ESRCH);
	/* A symlink in place of launcher.pid is never followed. */
	unlink(STATE_PIDFILE);
	char link[4200];
	snprintf(link, sizeof(link), "%s/%s", dir, STATE_PIDFILE);
	unlink(link);
	assert_int_equal(symlink("/etc/hostname", link), 0);
	assert_int_equal(identity_read(dfd, &r), -ELOOP);
	close(dfd);
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_formats),
		cmocka_unit_test(live_only_with_matching_start_time),
		cmocka_unit_test(zombie_is_not_live),
		cmocka_unit_test(write_then_read_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
