#include "unit.h"

#include "jsonout.h"

static void escapes(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonout j;
	const char *arr[] = {"a\"b", NULL};
	jsonout_begin(&j, f);
	jsonout_string(&j, "s", "q\" b\\ n\n t\t c\x01");
	jsonout_string(&j, "n", NULL);
	jsonout_bool(&j, "b", true);
	jsonout_int(&j, "i", -5, false);
	jsonout_int(&j, "z", 0, true);
	jsonout_string_array(&j, "a", arr);
	jsonout_end(&j);
	fclose(f);
	assert_string_equal(buf, "{\"s\":\"q\\\" b\\\\ n\\n t\\t c\\u0001\",\"n\":null,\"b\":true,"
				 "\"i\":-5,\"z\":null,\"a\":[\"a\\\"b\"]}\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
