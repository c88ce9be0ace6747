#include "memout.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

char *memout_len(int (*print)(FILE *f, void *ctx), void *ctx, size_t *ret_len)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f) {
		return NULL;
	}
	int r = print(f, ctx);
	/* fclose() publishes buf and len even after a failed write: it runs either way. */
	bool failed = fclose(f) != 0 || r < 0;
	if (failed) {
		free(buf);
		errno = r < 0 ? -r : ENOMEM;
		return NULL;
	}
	if (ret_len) {
		*ret_len = len;
	}
	return buf;
}

char *memout(int (*print)(FILE *f, void *ctx), void *ctx)
{
	return memout_len(print, ctx, NULL);
}
