#include "unit.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

/* Filled one at a time, the array keeps what it held and grows by doubling from first. */
static void doubles_and_keeps(void **state)
{
	int *v = NULL;
	size_t cap = 0;
	for (int i = 0; i < 100; i++) {
		int *g = grow_array(v, &cap, (size_t)i + 1, sizeof(*v), 4);
		assert_non_null(g);
		v = g;
		v[i] = i;
		assert_true(cap >= (size_t)i + 1);
	}
	assert_int_equal(cap, 128);
	for (int i = 0; i < 100; i++) {
		assert_int_equal(v[i], i);
	}
	/* Room already there: the same array, the same capacity. */
	assert_ptr_equal(grow_array(v, &cap, 50, sizeof(*v), 4), v);
	assert_int_equal(cap, 128);
	/* A need beyond twice the capacity is met at once. */
	int *g = grow_array(v, &cap, 1000, sizeof(*v), 4);
	assert_non_null(g);
	assert_int_equal(cap, 1024);
	assert_int_equal(g[99], 99);
	free(g);
}

/* A size that does not fit in memory fails without touching the array or its capacity. */
static void overflow_leaves_it_alone(void **state)
{
	size_t cap = 8;
	char *v = malloc(cap);
	assert_non_null(v);
	v[0] = 'x';
	errno = 0;
	assert_null(grow_array(v, &cap, 9, SIZE_MAX / 8, 4));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(cap, 8);
	errno = 0;
	assert_null(grow_array(v, &cap, SIZE_MAX, 1, 4));
	assert_int_equal(errno, ENOMEM);
	assert_int_equal(cap, 8);
	assert_int_equal(v[0], 'x');
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(doubles_and_keeps),
		cmocka_unit_test(overflow_leaves_it_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
