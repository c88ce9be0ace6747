#include "unit.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "array.h"

/* Room for what is asked, doubling from the first size: n appends are O(n) reallocations' worth. */
static void grows_by_doubling(void **state)
{
	int *v = NULL;
	size_t cap = 0;
	assert_int_equal(ARRAY_RESERVE(v, cap, 1, 4), 0);
	assert_int_equal(cap, 4);
	v[3] = 7;
	assert_int_equal(ARRAY_RESERVE(v, cap, 4, 4), 0);
	assert_int_equal(cap, 4);
	assert_int_equal(ARRAY_RESERVE(v, cap, 5, 4), 0);
	assert_int_equal(cap, 8);
	assert_int_equal(v[3], 7);
	assert_int_equal(ARRAY_RESERVE(v, cap, 100, 4), 0);
	assert_int_equal(cap, 128);
	free(v);
	/* No first size given: it starts at one and doubles (it does not stay at zero forever). */
	long *w = NULL;
	size_t wcap = 0;
	assert_int_equal(ARRAY_RESERVE(w, wcap, 3, 0), 0);
	assert_int_equal(wcap, 4);
	free(w);
}

/* A size that cannot be had fails, and what the caller had is kept as it was. */
static void a_failure_keeps_the_array(void **state)
{
	char *v = NULL;
	size_t cap = 0;
	assert_int_equal(ARRAY_RESERVE(v, cap, 10, 16), 0);
	char *before = v;
	assert_int_equal(ARRAY_RESERVE(v, cap, SIZE_MAX, 16), -ENOMEM);
	assert_ptr_equal(v, before);
	assert_int_equal(cap, 16);
	int64_t *w = NULL;
	size_t wcap = 0;
	assert_int_equal(ARRAY_RESERVE(w, wcap, SIZE_MAX / 4, 1), -ENOMEM);
	assert_null(w);
	assert_int_equal(wcap, 0);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grows_by_doubling),
		cmocka_unit_test(a_failure_keeps_the_array),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
