#include "array.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

int array_reserve(void **v, size_t *cap, size_t need, size_t elem, size_t first)
{
	if (need <= *cap) {
		return 0;
	}
	size_t n = *cap;
	if (n == 0) {
		n = first ? first : 1;
	}
	while (n < need) {
		if (n > SIZE_MAX / 2) {
			return -ENOMEM;
		}
		n *= 2;
	}
	/* Checked here, not left to reallocarray(): ASan aborts where it would return NULL. */
	if (elem && n > SIZE_MAX / elem) {
		return -ENOMEM;
	}
	void *nv = reallocarray(*v, n, elem);
	if (!nv) {
		return -ENOMEM;
	}
	*v = nv;
	*cap = n;
	return 0;
}
