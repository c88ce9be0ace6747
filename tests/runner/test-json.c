#include "unit.h"

#include "json.h"

static void escapes(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;
	const char *arr[] = {"a\"b", NULL};
	json_begin(&j, f);
	json_string(&j, "s", "q\" b\\ n\n t\t c\x01");
	json_string(&j, "n", NULL);
	json_bool(&j, "b", true);
	json_int(&j, "i", -5, false);
	json_int(&j, "z", 0, true);
	json_string_array(&j, "a", arr);
	json_end(&j);
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
