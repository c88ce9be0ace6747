/* The MCP tree's answer, cut for the model's context (mcp/mcp-a11y.c): whole when it fits, else
 * at a line's end with a note that counts what is left. */
#include "../unit.h"

#include "mcp-a11y.h"

static void test_bound(void **state)
{
	(void)state;
	char *small = strdup("frame \"a\" #1.0\n");
	char *r = mcp_a11y_bound(small, strlen(small));
	assert_string_equal(r, "frame \"a\" #1.0\n");
	free(r);
	/* 1000 lines of 40 bytes: 40000 bytes, more than MCP_A11Y_TEXT_MAX. */
	size_t n = 1000, len = 40 * n;
	char *big = malloc(len + 1);
	for (size_t i = 0; i < n; i++) {
		snprintf(big + 40 * i, 41, "%-38zu#\n", i);
	}
	r = mcp_a11y_bound(big, len);
	size_t kept = MCP_A11Y_TEXT_MAX / 40;
	char note[160];
	snprintf(
		note, sizeof(note),
		"(cut here: %zu more lines; ask for one window (window) or fewer levels (depth))\n",
		n - kept);
	assert_int_equal(strlen(r), 40 * kept + strlen(note));
	assert_memory_equal(r + 40 * (kept - 1), "599", 3);
	assert_string_equal(r + 40 * kept, note);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
