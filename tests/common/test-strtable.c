#include "unit.h"

#include <stddef.h>

#include "strtable.h"
#include "util.h"

static const char *const dirs[] = {"up", "down", "left", "right"};

/* A name's index, exact and case-sensitive; n for none, a prefix, or NULL. */
static void index_of_a_name(void **state)
{
	assert_int_equal(strtable_index("up", dirs, ARRAY_SIZE(dirs)), 0);
	assert_int_equal(strtable_index("right", dirs, ARRAY_SIZE(dirs)), 3);
	assert_int_equal(strtable_index("Up", dirs, ARRAY_SIZE(dirs)), 4);
	assert_int_equal(strtable_index("lef", dirs, ARRAY_SIZE(dirs)), 4);
	assert_int_equal(strtable_index("", dirs, ARRAY_SIZE(dirs)), 4);
	assert_int_equal(strtable_index(NULL, dirs, ARRAY_SIZE(dirs)), 4);
	/* Only the first n names are looked at. */
	assert_int_equal(strtable_index("right", dirs, 2), 2);
}

/* A key's value, the first pair's when a key stands twice; NULL for none or NULL. */
static void value_of_a_key(void **state)
{
	static const struct str_pair pairs[] = {
		{".js", "text/javascript"}, {".json", "application/json"}, {".js", "second"}};
	assert_string_equal(strtable_value(pairs, ARRAY_SIZE(pairs), ".js"), "text/javascript");
	assert_string_equal(strtable_value(pairs, ARRAY_SIZE(pairs), ".json"), "application/json");
	assert_null(strtable_value(pairs, ARRAY_SIZE(pairs), ".j"));
	assert_null(strtable_value(pairs, ARRAY_SIZE(pairs), ".JS"));
	assert_null(strtable_value(pairs, ARRAY_SIZE(pairs), NULL));
	assert_null(strtable_value(pairs, 1, ".json"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(index_of_a_name),
		cmocka_unit_test(value_of_a_key),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
