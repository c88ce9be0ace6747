#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "profile.h"

static void names(void **state)
{
	static const char *const good[] = {"default", "a", "A.b_c-9", "x.", "0"};
	static const char *const bad[] = {"",     ".hidden", ".",     "..",     "a/b",
					  "../x", "x y",     "tab\t", "ümlaut", "a\n"};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_true(profile_name_valid(good[i]));
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_false(profile_name_valid(bad[i]));
	}
	char longname[66];
	memset(longname, 'a', 65);
	longname[65] = '\0';
	assert_false(profile_name_valid(longname));
	longname[64] = '\0';
	assert_true(profile_name_valid(longname));
}

/* A profile that was never opened (zeroed) closes nothing: its dirfd 0 is stdin. */
static void close_zeroed(void **state)
{
	if (fcntl(0, F_GETFD) < 0) {
		assert_int_equal(open("/dev/null", O_RDONLY), 0);
	}
	struct profile p = {0};
	profile_close(&p);
	assert_true(fcntl(0, F_GETFD) >= 0);
	assert_int_equal(p.dirfd, -1);
}

/* Issue 13: one started with PROFILE_INIT, closed once or twice, closes nothing either. */
static void close_initialised(void **state)
{
	if (fcntl(0, F_GETFD) < 0) {
		assert_int_equal(open("/dev/null", O_RDONLY), 0);
	}
	struct profile p = PROFILE_INIT;
	profile_close(&p);
	profile_close(&p);
	assert_true(fcntl(0, F_GETFD) >= 0);
	assert_int_equal(p.dirfd, -1);
	assert_null(p.dir);
}

static void directories_are_private(void **state)
{
	char *root = unit_mkdtemp();
	char state_root[4200];
	snprintf(state_root, sizeof(state_root), "%s/a/b/botdesk", root);
	struct settings s = {.state_root = state_root};
	mode_t old = umask(0);
	struct profile p;
	assert_int_equal(profile_open(&s, "work", true, &p, NULL), 0);
	umask(old);
	struct stat st;
	assert_int_equal(stat(p.dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(stat(state_root, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	profile_close(&p);

	/* Without create, an absent profile is not an error. */
	assert_int_equal(profile_open(&s, "other", false, &p, NULL), 0);
	assert_int_equal(p.dirfd, -1);
	profile_close(&p);

	/* A symlink in place of the profile directory is refused. */
	char link[4300];
	snprintf(link, sizeof(link), "%s/evil", state_root);
	assert_int_equal(symlink(root, link), 0);
	struct error err = {{0}};
	assert_true(profile_open(&s, "evil", true, &p, &err) < 0);
	assert_non_null(strstr(err.msg, "symbolic link"));
	unit_rm_rf(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names),
		cmocka_unit_test(close_zeroed),
		cmocka_unit_test(close_initialised),
		cmocka_unit_test(directories_are_private),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
