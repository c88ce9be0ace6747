/* The runner's verdicts and what the user is told, row by row of the table. The same rows
 * are driven with real processes and a real setuid helper in decide.sh. */
#include "../unit.h"
#include "install.h"
#include "util.h"

static struct install_facts facts(void)
{
	struct install_facts f = {
		.have_manager = true,
		.manager = POLICY_APT,
		.helper_exists = true,
		.helper_setuid_root = true,
		.helper_usable = true,
	};
	snprintf(f.user, sizeof(f.user), "alice");
	snprintf(f.group, sizeof(f.group), "botdesk");
	snprintf(f.helper, sizeof(f.helper), "/usr/libexec/botdesk-helper");
	return f;
}

static struct install_decision decide(const struct install_facts *f, const char *const *missing)
{
	struct install_decision d;
	memset(&d, 0x55, sizeof(d));
	install_decide_from(f, POLICY_SET_DESKTOP, missing, &d);
	return d;
}

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part)) {
		fail_msg("'%s' not in: %s", part, s);
	}
}

static void assert_lacks(const char *s, const char *part)
{
	if (strstr(s, part)) {
		fail_msg("'%s' should not be in: %s", part, s);
	}
}

static const char *const missing_two[] = {"Xvnc", "xfwm4", NULL};

static void test_no_manager(void **state)
{
	struct install_facts f = facts();
	f.have_manager = false;
	struct install_decision d = decide(&f, missing_two);
	assert_int_equal(d.verdict, INSTALL_NO_MANAGER);
	assert_contains(d.message, "package manager");
	assert_contains(d.message, "Xvnc, xfwm4");
	assert_string_equal(d.command, "");
	static const char *const never[] = {"sudo", "unprivileged", "root", "privilege", "admin"};
	for (size_t i = 0; i < ARRAY_SIZE(never); i++) {
		assert_lacks(d.message, never[i]);
	}
	/* Not only when nothing is missing: the words do not change with the caller. */
	f.root = true;
	d = decide(&f, NULL);
	assert_int_equal(d.verdict, INSTALL_NO_MANAGER);
	assert_contains(d.message, "Xvnc");
	assert_lacks(d.message, "sudo");
	assert_lacks(d.message, "root");
}

static void test_pacman_is_no_manager_with_its_packages(void **state)
{
	struct install_facts f = facts();
	f.manager = POLICY_PACMAN;
	struct install_decision d = decide(&f, missing_two);
	assert_int_equal(d.verdict, INSTALL_NO_MANAGER);
	assert_contains(d.message, "package manager");
	assert_contains(d.message, "pacman");
	assert_contains(d.message, " tigervnc");
	assert_lacks(d.message, "sudo");
}

static void test_root_can_run(void **state)
{
	struct install_facts f = facts();
	f.root = true;
	f.helper_exists = f.helper_setuid_root = f.helper_usable = false;
	f.no_new_privs = true;
	struct install_decision d = decide(&f, missing_two);
	assert_int_equal(d.verdict, INSTALL_CAN_RUN);
	assert_int_equal(d.manager, POLICY_APT);
	assert_true(startswith(d.command, "apt-get install -y --no-install-recommends "));
	for (size_t i = 0; policy_packages_apt[i]; i++) {
		assert_contains(d.command, policy_packages_apt[i]);
		assert_contains(d.message, policy_packages_apt[i]);
	}
	assert_contains(d.message, "tigervnc-standalone-server");
	assert_contains(d.message, "botdesk install");
}

/* The web viewer's set, through every verdict: novnc and `botdesk install --web`, never a
 * desktop package. */
static void test_web_set_words(void **state)
{
	struct install_facts f = facts();
	snprintf(f.novnc, sizeof(f.novnc), "/usr/share/novnc");
	struct install_decision d;
	install_decide_from(&f, POLICY_SET_WEB, NULL, &d);
	assert_int_equal(d.verdict, INSTALL_CAN_RUN);
	assert_string_equal(d.command, "apt-get install -y --no-install-recommends novnc");
	assert_contains(d.message, "'botdesk install --web' runs through botdesk-helper");
	f.helper_usable = false;
	install_decide_from(&f, POLICY_SET_WEB, NULL, &d);
	assert_int_equal(d.verdict, INSTALL_ASK_ADMIN);
	assert_contains(d.message, "alice may not install the web viewer's package (noVNC)");
	assert_contains(d.message, "install them with 'botdesk install --web'");
	f.in_image = true;
	install_decide_from(&f, POLICY_SET_WEB, NULL, &d);
	assert_int_equal(d.verdict, INSTALL_BAKE_IMAGE);
	assert_contains(d.message,
			"RUN apt-get update && apt-get install -y --no-install-recommends "
			"novnc && rm -rf");
	f.in_image = false;
	f.have_manager = false;
	install_decide_from(&f, POLICY_SET_WEB, NULL, &d);
	assert_int_equal(d.verdict, INSTALL_NO_MANAGER);
	assert_contains(d.message, "install noVNC (/usr/share/novnc)");
	for (size_t i = 0; policy_packages_apt[i]; i++) {
		assert_lacks(d.message, policy_packages_apt[i]);
	}
	assert_string_equal(install_command(POLICY_SET_WEB), "botdesk install --web");
	assert_string_equal(install_command(POLICY_SET_DESKTOP), "botdesk install");
}

/* The fonts set, through every verdict: the two font packages and `botdesk install --fonts`,
 * never a desktop or web package. */
static void test_fonts_set_words(void **state)
{
	struct install_facts f = facts();
	struct install_decision d;
	install_decide_from(&f, POLICY_SET_FONTS, NULL, &d);
	assert_int_equal(d.verdict, INSTALL_CAN_RUN);
	assert_string_equal(
		d.command,
		"apt-get install -y --no-install-recommends fonts-noto-cjk fonts-noto-color-emoji");
	assert_contains(d.message, "'botdesk install --fonts' runs through botdesk-helper");
	f.helper_usable = false;
	install_decide_from(&f, POLICY_SET_FONTS, NULL, &d);
	assert_int_equal(d.verdict, INSTALL_ASK_ADMIN);
	assert_contains(d.message,
			"alice may not install the international fonts (CJK, colour emoji)");
	assert_contains(d.message, "install them with 'botdesk install --fonts'");
	f.in_image = true;
	install_decide_from(&f, POLICY_SET_FONTS, NULL, &d);
	assert_int_equal(d.verdict, INSTALL_BAKE_IMAGE);
	assert_contains(d.message, "apt-get install -y --no-install-recommends fonts-noto-cjk "
				   "fonts-noto-color-emoji && rm -rf");
	f.in_image = false;
	f.have_manager = false;
	install_decide_from(&f, POLICY_SET_FONTS, NULL, &d);
	assert_int_equal(d.verdict, INSTALL_NO_MANAGER);
	assert_contains(d.message, "install fonts for CJK text and colour emoji");
	for (size_t i = 0; policy_packages_apt[i]; i++) {
		assert_lacks(d.message, policy_packages_apt[i]);
	}
	assert_lacks(d.message, "novnc");
	assert_string_equal(install_command(POLICY_SET_FONTS), "botdesk install --fonts");
}

static void test_group_member_can_run(void **state)
{
	struct install_facts f = facts();
	struct install_decision d = decide(&f, NULL);
	assert_int_equal(d.verdict, INSTALL_CAN_RUN);
	assert_contains(d.message, "botdesk-helper");
}

static void test_no_new_privs_bakes(void **state)
{
	struct install_facts f = facts();
	f.no_new_privs = true;
	struct install_decision d = decide(&f, missing_two);
	assert_int_equal(d.verdict, INSTALL_BAKE_IMAGE);
	assert_contains(d.message, "baked in");
	assert_contains(d.message, "no_new_privs");
	char line[1024] = "RUN apt-get update && apt-get install -y --no-install-recommends";
	for (size_t i = 0; policy_packages_apt[i]; i++) {
		strcat(line, " ");
		strcat(line, policy_packages_apt[i]);
	}
	strcat(line, " && rm -rf /var/lib/apt/lists/*");
	assert_contains(d.message, line);
	/* Baking wins over group membership: no admin can make a setuid bit work here. */
	f.helper_usable = false;
	assert_int_equal(decide(&f, NULL).verdict, INSTALL_BAKE_IMAGE);
}

static void test_nosuid_bakes(void **state)
{
	struct install_facts f = facts();
	f.nosuid = true;
	f.manager = POLICY_DNF;
	struct install_decision d = decide(&f, NULL);
	assert_int_equal(d.verdict, INSTALL_BAKE_IMAGE);
	assert_contains(d.message, "baked in");
	assert_contains(d.message, "nosuid");
	assert_contains(d.message, "RUN dnf install -y");
	assert_contains(d.message, "tigervnc-x11-server");
	assert_contains(d.message, "dnf clean all");
}

static void test_not_in_group_asks_admin(void **state)
{
	struct install_facts f = facts();
	f.helper_usable = false;
	struct install_decision d = decide(&f, missing_two);
	assert_int_equal(d.verdict, INSTALL_ASK_ADMIN);
	assert_contains(d.message, "alice is not in group botdesk");
	assert_contains(d.message, d.command);
	assert_contains(d.message, "usermod -aG botdesk alice");
	assert_contains(d.message, "chown root:botdesk /usr/libexec/botdesk-helper");
	assert_contains(d.message, "chmod 4750 /usr/libexec/botdesk-helper");
	assert_lacks(d.message, "sudo");
}

static void test_not_setuid_asks_admin(void **state)
{
	struct install_facts f = facts();
	f.helper_setuid_root = false;
	struct install_decision d = decide(&f, NULL);
	assert_int_equal(d.verdict, INSTALL_ASK_ADMIN);
	assert_contains(d.message, "is not installed setuid root");
	assert_contains(d.message, "apt-get install -y --no-install-recommends");
	f.helper_exists = false;
	d = decide(&f, NULL);
	assert_int_equal(d.verdict, INSTALL_ASK_ADMIN);
	assert_contains(d.message, "/usr/libexec/botdesk-helper is not installed");
}

static void test_dnf_command(void **state)
{
	struct install_facts f = facts();
	f.manager = POLICY_DNF;
	f.root = true;
	struct install_decision d = decide(&f, NULL);
	assert_true(startswith(d.command, "dnf install -y "));
	assert_contains(d.command, "tigervnc-x11-server");
	assert_lacks(d.command, "xorg-x11-server-utils");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_manager),
		cmocka_unit_test(test_pacman_is_no_manager_with_its_packages),
		cmocka_unit_test(test_root_can_run),
		cmocka_unit_test(test_web_set_words),
		cmocka_unit_test(test_fonts_set_words),
		cmocka_unit_test(test_group_member_can_run),
		cmocka_unit_test(test_no_new_privs_bakes),
		cmocka_unit_test(test_nosuid_bakes),
		cmocka_unit_test(test_not_in_group_asks_admin),
		cmocka_unit_test(test_not_setuid_asks_admin),
		cmocka_unit_test(test_dnf_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
