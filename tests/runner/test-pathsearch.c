#include "unit.h"

#include <errno.h>
#include <sys/stat.h>

#include "pathsearch.h"
#include "programs.h"
#include "util.h"

/* A scratch directory holding bin/botdesk-unit-prog, executable; the test runs inside it. */
struct scratch {
	char *dir;
	char *old_cwd;
	char bin[4200];
};

static int setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));
	assert_non_null(s);
	s->dir = unit_mkdtemp();
	s->old_cwd = getcwd(NULL, 0);
	assert_non_null(s->old_cwd);
	snprintf(s->bin, sizeof(s->bin), "%s/bin", s->dir);
	assert_int_equal(mkdir(s->bin, 0755), 0);
	unit_write(s->bin, "botdesk-unit-prog", "#!/bin/sh\n");
	char prog[4300];
	snprintf(prog, sizeof(prog), "%s/botdesk-unit-prog", s->bin);
	assert_int_equal(chmod(prog, 0755), 0);
	assert_int_equal(chdir(s->bin), 0);
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct scratch *s = *state;
	assert_int_equal(chdir(s->old_cwd), 0);
	unit_rm_rf(s->dir);
	free(s->old_cwd);
	free(s);
	return 0;
}

static void finds_it_in_an_absolute_entry(void **state)
{
	struct scratch *s = *state;
	char path[8500];
	snprintf(path, sizeof(path), "/nonexistent:%s", s->bin);
	char *found = NULL;
	assert_int_equal(path_find(path, "botdesk-unit-prog", &found), 0);
	assert_true(startswith(found, s->bin));
	free(found);
	assert_true(programs_on_path(path, "botdesk-unit-prog"));
}

/* We sit in the program's directory, so an empty or relative entry would find it: both must be
 * skipped, by the session's lookup and by the runner's "installed" alike. */
static void skips_empty_and_relative_entries(void **state)
{
	const char *paths[] = {"",  ":",  "/nonexistent:", ":/nonexistent",
			       ".", "./", "../bin",        "bin/..:."};
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		char *found = NULL;
		assert_int_equal(path_find(paths[i], "botdesk-unit-prog", &found), -ENOENT);
		assert_null(found);
		assert_false(programs_on_path(paths[i], "botdesk-unit-prog"));
	}
}

static void takes_a_name_with_a_slash_as_it_is(void **state)
{
	char *found = NULL;
	assert_int_equal(path_find("", "./botdesk-unit-prog", &found), 0);
	assert_string_equal(found, "./botdesk-unit-prog");
	free(found);
	assert_int_equal(path_find("/usr/bin", "", &found), -EINVAL);
	assert_int_equal(path_find("/usr/bin", "./not-there", &found), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(finds_it_in_an_absolute_entry, setup, teardown),
		cmocka_unit_test_setup_teardown(skips_empty_and_relative_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(takes_a_name_with_a_slash_as_it_is, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
