#include "unit.h"

#include "envallow.h"
#include "util.h"

static void the_desktops_own_never_pass(void **state)
{
	const char *own[] = {"DISPLAY=:0", "XAUTHORITY=/x", "WAYLAND_DISPLAY=wayland-0",
			     "DBUS_SESSION_BUS_ADDRESS=unix:path=/b", "SESSION_MANAGER=local/x"};
	for (size_t i = 0; i < ARRAY_SIZE(own); i++) {
		assert_true(envallow_is_desktop_own(own[i]));
	}
	assert_false(envallow_is_desktop_own("DISPLAYX=:0"));
	assert_false(envallow_is_desktop_own("DISPLAY"));
	assert_false(envallow_is_desktop_own("HOME=/root"));
}

static void names_match_whole(void **state)
{
	const char *names[] = {"LISTEN_FDS", "NOTIFY_SOCKET"};
	assert_true(envallow_name_in("LISTEN_FDS=3", names, ARRAY_SIZE(names)));
	assert_true(envallow_name_in("NOTIFY_SOCKET=", names, ARRAY_SIZE(names)));
	assert_false(envallow_name_in("LISTEN_FDSX=3", names, ARRAY_SIZE(names)));
	assert_false(envallow_name_in("LISTEN_FD=3", names, ARRAY_SIZE(names)));
	assert_false(envallow_name_in("LISTEN_FDS", names, ARRAY_SIZE(names)));
}

static void the_allowlist_and_the_pass_list(void **state)
{
	assert_true(envallow_keep("LC_ALL=C", NULL));
	assert_true(envallow_keep("PATH=/bin", NULL));
	assert_false(envallow_keep("GITHUB_TOKEN=x", NULL));
	assert_true(envallow_keep("GITHUB_TOKEN=x", "FOO, GITHUB_TOKEN"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_desktops_own_never_pass),
		cmocka_unit_test(names_match_whole),
		cmocka_unit_test(the_allowlist_and_the_pass_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
