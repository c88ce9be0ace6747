/* The host's policy: its parser and how it bounds a user's settings (issue 12). */
#include "unit.h"

#include <errno.h>

#include "hostpolicy.h"
#include "settings.h"

static void parse(void **state)
{
	struct hostpolicy hp;
	struct error err = {{0}};
	assert_int_equal(hostpolicy_parse("# comment\n\ndisplay_band = 30-39\n"
					  "max_desktops_per_user=3\nmin_free_mb = 2048\n"
					  "max_idle_stop_minutes = 60\nmax_geometry = 1280x800\n"
					  "admin_group = wheel\n",
					  "/p", &hp, &err),
			 0);
	assert_true(hp.loaded && hp.has_band);
	assert_int_equal(hp.band_lo, 30);
	assert_int_equal(hp.band_hi, 39);
	assert_int_equal(hp.max_desktops, 3);
	assert_true(hp.min_free_mb == 2048);
	assert_true(hp.max_idle_stop_minutes == 60);
	assert_int_equal(hp.max_width, 1280);
	assert_int_equal(hp.max_height, 800);
	assert_string_equal(hp.admin_group, "wheel");
	/* Nothing said: the default cap of 8 and no other bound. */
	assert_int_equal(hostpolicy_parse("", "/p", &hp, &err), 0);
	assert_int_equal(hp.max_desktops, HOSTPOLICY_DEFAULT_MAX_DESKTOPS);
	assert_false(hp.has_band);
}

static void refuse(const char *text, const char *msg)
{
	struct hostpolicy hp;
	struct error err = {{0}};
	assert_int_equal(hostpolicy_parse(text, "/etc/p", &hp, &err), -EINVAL);
	assert_non_null(strstr(err.msg, msg));
}

static void refusals(void **state)
{
	refuse("x = 1\n", "/etc/p:1: unknown setting 'x'");
	refuse("\n\nmax_desktops_per_user = 0\n", "/etc/p:3: max_desktops_per_user = '0'");
	refuse("max_desktops_per_user = -1\n", "max_desktops_per_user");
	refuse("display_band = 39-30\n", "display_band");
	refuse("max_geometry = 10x10\n", "max_geometry");
	refuse("admin_group = a b\n", "admin_group");
	refuse("min_free_mb\n", "expected 'key = value'");
	refuse("max_idle_stop_minutes = 0\n", "max_idle_stop_minutes");
}

static void apply(void **state)
{
	struct hostpolicy hp;
	struct error err = {{0}};
	assert_int_equal(hostpolicy_parse("display_band = 30-39\nmin_free_mb = 2048\n"
					  "max_geometry = 1280x800\n",
					  "/p", &hp, &err),
			 0);
	/* Defaults: the host's band, the host's floor, the geometry shrunk to fit. */
	struct settings s = {
		.band_lo = 20, .band_hi = 89, .min_free_mb = 0, .width = 1440, .height = 900};
	assert_int_equal(hostpolicy_apply(&hp, &s, &err), 0);
	assert_int_equal(s.band_lo, 30);
	assert_int_equal(s.band_hi, 39);
	assert_true(s.min_free_mb == 2048);
	assert_string_equal(s.geometry, "1280x800");
	/* The user's own: a band narrowed, a floor raised stays, a larger geometry refused. */
	s = (struct settings){.band_lo = 35,
			      .band_hi = 50,
			      .band_explicit = true,
			      .min_free_mb = 4096,
			      .width = 800,
			      .height = 600};
	assert_int_equal(hostpolicy_apply(&hp, &s, &err), 0);
	assert_int_equal(s.band_lo, 35);
	assert_int_equal(s.band_hi, 39);
	assert_true(s.min_free_mb == 4096);
	s = (struct settings){.band_lo = 40, .band_hi = 50, .band_explicit = true};
	assert_int_equal(hostpolicy_apply(&hp, &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "your display band 40-50"));
	struct error err2 = {{0}};
	s = (struct settings){.band_lo = 30,
			      .band_hi = 30,
			      .width = 1920,
			      .height = 1080,
			      .geometry_explicit = true};
	snprintf(s.geometry, sizeof(s.geometry), "1920x1080");
	assert_int_equal(hostpolicy_apply(&hp, &s, &err2), -EINVAL);
	assert_non_null(strstr(err2.msg, "your geometry 1920x1080"));
	/* The longest idle stop: sooner stays, later and never are cut to it. */
	struct hostpolicy idle;
	assert_int_equal(hostpolicy_parse("max_idle_stop_minutes = 60\n", "/p", &idle, &err), 0);
	s = (struct settings){.idle_stop_ms = 0};
	assert_int_equal(hostpolicy_apply(&idle, &s, &err), 0);
	assert_true(s.idle_stop_ms == 60 * 60 * 1000);
	s = (struct settings){.idle_stop_ms = 120 * 60 * 1000};
	assert_int_equal(hostpolicy_apply(&idle, &s, &err), 0);
	assert_true(s.idle_stop_ms == 60 * 60 * 1000);
	s = (struct settings){.idle_stop_ms = 5 * 60 * 1000};
	assert_int_equal(hostpolicy_apply(&idle, &s, &err), 0);
	assert_true(s.idle_stop_ms == 5 * 60 * 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(refusals),
		cmocka_unit_test(apply),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
