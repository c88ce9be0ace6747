#include "unit.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memout.h"

static int print_words(FILE *f, void *ctx)
{
	const char *word = ctx;
	for (int i = 0; i < 3; i++) {
		fprintf(f, "%s%d", word, i);
	}
	return 0;
}

static int print_then_fail(FILE *f, void *ctx)
{
	(void)ctx;
	fputs("half", f);
	return -EPROTO;
}

static int print_nothing(FILE *f, void *ctx)
{
	(void)f;
	(void)ctx;
	return 0;
}

/* What print wrote comes back whole, NUL-terminated, with its length. */
static void returns_the_text(void **state)
{
	size_t len = 99;
	char word[] = "w";
	char *s = memout_len(print_words, word, &len);
	assert_non_null(s);
	assert_string_equal(s, "w0w1w2");
	assert_int_equal(len, 6);
	free(s);
	s = memout(print_nothing, NULL);
	assert_non_null(s);
	assert_string_equal(s, "");
	free(s);
}

/* A print that fails leaves no half text behind, and its error is what errno says. */
static void a_failed_print_gives_nothing(void **state)
{
	errno = 0;
	assert_null(memout(print_then_fail, NULL));
	assert_int_equal(errno, EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(returns_the_text),
		cmocka_unit_test(a_failed_print_gives_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
