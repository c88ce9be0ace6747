/* Arrays that grow by doubling: the count check, the overflow check and the realloc in one place
 * for every list that is filled one element at a time. */
#pragma once

#include <stddef.h>

/* Room for need (at least 1) elements of size bytes in v, which has *cap of them: v itself when
 * they fit, else v reallocated to twice *cap (first when *cap is 0; more when need asks it) and
 * *cap raised. NULL (errno ENOMEM) when memory runs out or the size overflows: v and *cap are
 * then as they were, v still the caller's. */
void *grow_array(void *v, size_t *cap, size_t need, size_t size, size_t first);
