#include "grow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

void *grow_array(void *v, size_t *cap, size_t need, size_t size, size_t first)
{
	if (need <= *cap) {
		return v;
	}
	size_t n = *cap ? *cap : first ? first : 1;
	while (n < need) {
		if (n > SIZE_MAX / 2) {
			errno = ENOMEM;
			return NULL;
		}
		n *= 2;
	}
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	void *grown = realloc(v, n * size);
	if (!grown) {
		errno = ENOMEM;
		return NULL;
	}
	*cap = n;
	return grown;
}
