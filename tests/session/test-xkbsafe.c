/* The XKB data without the zap (session/xkbsafe.c): the filter drops every interpretation that
 * ends the server and nothing else, and the copy is rebuilt whole at each start. */
#include "session-test.h"

#include "xkbsafe.h"

static const char misc[] = "default partial xkb_compatibility \"misc\" {\n"
			   "    // Interpretations for some other useful keys.\n"
			   "    interpret Terminate_Server {\n"
			   "\taction = Terminate();\n"
			   "    };\n"
			   "    interpret Alt_L {\n"
			   "\taction = SetMods(modifiers=Alt);\n"
			   "    };\n"
			   "    interpret F13 { action = TERMINATESERVER(); };\n"
			   "    interpret Super_L { action = SetMods(modifiers=Super); };\n"
			   "};\n";

static void test_filter(void **state)
{
	char buf[sizeof(misc)];
	memcpy(buf, misc, sizeof(misc));
	size_t len = xkbsafe_filter(buf, strlen(buf));
	assert_int_equal(len, strlen(buf));
	assert_null(strcasestr(buf, "terminate"));
	assert_non_null(strstr(buf, "// Interpretations for some other useful keys."));
	assert_non_null(
		strstr(buf, "interpret Alt_L {\n\taction = SetMods(modifiers=Alt);\n    };"));
	assert_non_null(strstr(buf, "interpret Super_L"));
	assert_non_null(strstr(buf, "\n};\n"));
	/* Nothing to drop: unchanged. */
	char plain[] = "interpret Alt_L { action = SetMods(); };\n";
	assert_int_equal(xkbsafe_filter(plain, strlen(plain)), strlen(plain));
}

static void test_prepare(void **state)
{
	char *sys = unit_mkdtemp(), *st = unit_mkdtemp();
	char path[4200];
	snprintf(path, sizeof(path), "%s/compat", sys);
	assert_int_equal(mkdir(path, 0755), 0);
	unit_write(path, "misc", misc);
	unit_write(path, "basic", "interpret Shift_L { action = SetMods(); };\n");
	char out[4200];
	assert_int_equal(xkbsafe_prepare(st, sys, out, sizeof(out)), 0);
	snprintf(path, sizeof(path), "%s/xkb", st);
	assert_string_equal(out, path);
	char link[4200];
	snprintf(path, sizeof(path), "%s/xkb/symbols", st);
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	snprintf(path, sizeof(path), "%s/symbols", sys);
	assert_string_equal(link, path);
	/* Again, with a file gone from the system's and one planted in the copy: rebuilt. */
	snprintf(path, sizeof(path), "%s/compat/basic", sys);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/xkb/compat", st);
	unit_write(path, "stale", "x");
	assert_int_equal(xkbsafe_prepare(st, sys, out, sizeof(out)), 0);
	snprintf(path, sizeof(path), "%s/xkb/compat/stale", st);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/xkb/compat/basic", st);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/xkb/compat/misc", st);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char text[2048];
	size_t len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	assert_null(strcasestr(text, "terminate"));
	assert_non_null(strstr(text, "interpret Alt_L"));
	/* No system data: an error, for the caller to fall back on. */
	assert_true(xkbsafe_prepare(st, "/nonexistent", out, sizeof(out)) < 0);
	unit_rm_rf(sys);
	unit_rm_rf(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_prepare),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
