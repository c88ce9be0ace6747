/* Growing arrays: one place for the doubling, its overflow check and its failure path. */
#pragma once

#include <stddef.h>

/* Makes *v hold at least need elements of elem bytes: the capacity doubles from first (so n
 * appends cost O(n)), overflow checked. On failure *v and *cap are as they were and -ENOMEM is
 * returned: the caller still owns (and frees) what it had. */
int array_reserve(void **v, size_t *cap, size_t need, size_t elem, size_t first);
#define ARRAY_RESERVE(v, cap, need, first) \
	array_reserve((void **)&(v), &(cap), (need), sizeof(*(v)), (first))
