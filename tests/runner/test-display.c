#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "display.h"
#include "error.h"

static const char table[] =
	"Num       RefCount Protocol Flags    Type St Inode Path\n"
	"0000000000000000: 00000002 00000000 00010000 0001 01 22242 @/tmp/.X11-unix/X20\n"
	"0000000000000000: 00000002 00000000 00010000 0001 01 22243 /tmp/.X11-unix/X21\n"
	"0000000000000000: 00000003 00000000 00000000 0001 03 22244 @/tmp/.X11-unix/X200\n"
	"0000000000000000: 00000003 00000000 00000000 0001 03 22245\n"
	"0000000000000000: 00000003 00000000 00000000 0001 03 22246 /run/other.sock\n"
	"0000000000000000: 00000003 00000000 00000000 0001 03 22247 /tmp/.X11-unix/X023\n"
	"0000000000000000: 00000003 00000000 00000000 0001 03 22248 /tmp/.X11-unix/X99999\n";

static char nonexistent[] = "/nonexistent/unix";

struct fixture {
	char *dir;
	char table[4200], locks[4200];
	struct settings s;
};

static int setup(void **state)
{
	struct fixture *f = unit_fixture(sizeof(*f));
	unit_write(f->dir, "unix", table);
	snprintf(f->table, sizeof(f->table), "%s/unix", f->dir);
	snprintf(f->locks, sizeof(f->locks), "%s/locks", f->dir);
	mkdir(f->locks, 0700);
	f->s = (struct settings){
		.x_lock_dir = f->locks, .x_unix_table = f->table, .band_lo = 20, .band_hi = 24};
	*state = f;
	return 0;
}

static void write_lock(struct fixture *f, unsigned n, long pid)
{
	char name[64], text[64];
	snprintf(name, sizeof(name), "locks/.X%u-lock", n);
	snprintf(text, sizeof(text), "%10ld\n", pid);
	unit_write(f->dir, name, text);
}

static void socket_table_exact_match(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(display_socket_bound(f->table, 20), 1); /* abstract */
	assert_int_equal(display_socket_bound(f->table, 21), 1); /* path */
	assert_int_equal(display_socket_bound(f->table, 22), 0);
	assert_int_equal(display_socket_bound(f->table, 2), 0); /* X20 is not X2 */
	assert_int_equal(display_socket_bound(f->table, 200), 1);
	assert_true(display_socket_bound("/nonexistent/unix", 20) < 0);
	assert_true(display_in_use(&f->s, 20));
	assert_true(display_in_use(&f->s, 21));
	assert_false(display_in_use(&f->s, 22));
	/* No table: the lock alone decides. */
	f->s.x_unix_table = nonexistent;
	assert_false(display_in_use(&f->s, 20));
}

/* One read of the table for a whole band: the same answers as per number; a leading zero or a
 * number beyond X's names no display; the band's count. */
static void socket_table_read_once(void **state)
{
	struct fixture *f = *state;
	struct display_bound b;
	assert_int_equal(display_bound_read(f->table, &b), 0);
	assert_true(b.loaded);
	assert_int_equal(display_socket_bound(f->table, 23), 0); /* X023 */
	assert_int_equal(display_socket_bound(f->table, 999), 0);
	assert_int_equal(display_band_used(&f->s), 2); /* 20 and 21 of 20-24 */
	write_lock(f, 22, (long)getpid());
	assert_int_equal(display_band_used(&f->s), 3);
	assert_true(display_bound_read("/nonexistent/unix", &b) < 0);
	assert_false(b.loaded);
}

static void locks_live_stale_zombie(void **state)
{
	struct fixture *f = *state;
	f->s.x_unix_table = nonexistent;
	write_lock(f, 22, (long)getpid());
	pid_t pid = 0;
	assert_true(display_lock_live(f->locks, 22, &pid));
	assert_int_equal(pid, getpid());
	assert_true(display_in_use(&f->s, 22));

	pid_t child = unit_zombie();
	write_lock(f, 23, (long)child); /* a zombie holds nothing */
	assert_false(display_in_use(&f->s, 23));
	waitpid(child, NULL, 0);
	write_lock(f, 23, (long)child); /* a dead pid: a stale lock */
	assert_false(display_in_use(&f->s, 23));
	unit_write(f->dir, "locks/.X24-lock", "garbage\n");
	assert_false(display_in_use(&f->s, 24));
}

static void pick_reuses_recorded_only_when_free(void **state)
{
	struct fixture *f = *state;
	f->s.x_unix_table = nonexistent;
	int dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	unsigned n;
	unit_write(f->dir, "display", "23\n");
	assert_int_equal(display_pick(&f->s, dfd, 0, &n, NULL), 0);
	assert_int_equal(n, 23);
	write_lock(f, 23, (long)getpid()); /* another profile's live server took 23 */
	assert_int_equal(display_pick(&f->s, dfd, 0, &n, NULL), 0);
	assert_int_equal(n, 20);
	/* avoid skips a number that just failed */
	assert_int_equal(display_pick(&f->s, dfd, 20, &n, NULL), 0);
	assert_int_equal(n, 21);
	close(dfd);
}

static void full_band_names_the_band(void **state)
{
	struct fixture *f = *state;
	f->s.band_lo = 20;
	f->s.band_hi = 21;
	unsigned n;
	struct error err = {{0}};
	assert_int_equal(display_pick(&f->s, AT_FDCWD, 0, &n, &err), -EBUSY);
	assert_non_null(strstr(err.msg, "20-21"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(socket_table_exact_match, setup, unit_fixture_free),
		cmocka_unit_test_setup_teardown(socket_table_read_once, setup, unit_fixture_free),
		cmocka_unit_test_setup_teardown(locks_live_stale_zombie, setup, unit_fixture_free),
		cmocka_unit_test_setup_teardown(pick_reuses_recorded_only_when_free, setup,
						unit_fixture_free),
		cmocka_unit_test_setup_teardown(full_band_names_the_band, setup, unit_fixture_free),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
