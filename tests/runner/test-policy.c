#include "unit.h"

#include <sys/stat.h>

#include "policy.h"
#include "programs.h"

static bool listed(const char *const *list, const char *pkg)
{
	for (; *list; list++) {
		if (strcmp(*list, pkg) == 0) {
			return true;
		}
	}
	return false;
}

/* Each program the session runs comes from a package each manager's list really installs: dnf5
 * refuses a whole transaction over one unknown name, so the map is the contract. */
static void every_program_maps_into_each_list(void **state)
{
	assert_true(POLICY_PROGRAM_COUNT > 0);
	for (int m = 0; m < POLICY_MANAGER_COUNT; m++) {
		for (size_t i = 0; i < POLICY_PROGRAM_COUNT; i++) {
			const char *pkg = policy_programs[i].package[m];
			assert_non_null(pkg);
			assert_true(listed(policy_packages[m], pkg));
		}
	}
}

static void dnf_has_no_retired_names(void **state)
{
	assert_false(listed(policy_packages_dnf, "xorg-x11-server-utils"));
	assert_false(listed(policy_packages_dnf, "xorg-x11-utils"));
}

/* The web viewer's set is noVNC alone, apart from the desktop's: `botdesk install` never pulls in
 * the web server's files, and `botdesk install --web` never the desktop. */
static void web_set_is_novnc_alone(void **state)
{
	assert_ptr_equal(policy_sets[POLICY_SET_DESKTOP][POLICY_APT], policy_packages[POLICY_APT]);
	for (int m = 0; m < POLICY_MANAGER_COUNT; m++) {
		const char *const *web = policy_sets[POLICY_SET_WEB][m];
		assert_string_equal(web[0], "novnc");
		assert_null(web[1]);
		assert_false(listed(policy_packages[m], "novnc"));
	}
}

/* The fonts set (CJK, colour emoji; Debian 12's names) is apart from the desktop's and the web
 * viewer's: `botdesk install --fonts` installs it alone. */
static void fonts_set_is_apart(void **state)
{
	const char *const *apt = policy_sets[POLICY_SET_FONTS][POLICY_APT];
	assert_string_equal(apt[0], "fonts-noto-cjk");
	assert_string_equal(apt[1], "fonts-noto-color-emoji");
	assert_null(apt[2]);
	for (int m = 0; m < POLICY_MANAGER_COUNT; m++) {
		for (const char *const *p = policy_sets[POLICY_SET_FONTS][m]; *p; p++) {
			assert_false(listed(policy_packages[m], *p));
			assert_false(listed(policy_sets[POLICY_SET_WEB][m], *p));
		}
	}
}

static void xvnc_is_tigervnc(void **state)
{
	assert_true(listed(policy_packages_apt, "tigervnc-standalone-server"));
	bool found = false;
	for (size_t i = 0; i < POLICY_PROGRAM_COUNT; i++) {
		found |= strcmp(programs_display_name(&policy_programs[i]), "Xvnc") == 0;
	}
	assert_true(found);
}

static void missing_programs_follow_path(void **state)
{
	const char *missing[POLICY_PROGRAM_COUNT + 1];
	assert_int_equal(programs_missing("/nonexistent", missing), POLICY_PROGRAM_COUNT);
	assert_null(missing[POLICY_PROGRAM_COUNT]);
	char *dir = unit_mkdtemp();
	for (size_t i = 0; i < POLICY_PROGRAM_COUNT; i++) {
		char path[4200];
		/* Any one alternative will do: take the first. */
		snprintf(path, sizeof(path), "%s/%s", dir, policy_programs[i].names[0]);
		unit_write(dir, policy_programs[i].names[0], "#!/bin/sh\n");
		assert_int_equal(chmod(path, i == 0 ? 0644 : 0755), 0);
	}
	char search[8400];
	snprintf(search, sizeof(search), "::%s:/nonexistent", dir);
	/* The first one is not executable: still missing. */
	assert_int_equal(programs_missing(search, missing), 1);
	assert_string_equal(missing[0], programs_display_name(&policy_programs[0]));
	unit_rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_program_maps_into_each_list),
		cmocka_unit_test(dnf_has_no_retired_names),
		cmocka_unit_test(xvnc_is_tigervnc),
		cmocka_unit_test(web_set_is_novnc_alone),
		cmocka_unit_test(fonts_set_is_apart),
		cmocka_unit_test(missing_programs_follow_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
