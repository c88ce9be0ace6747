/* Text built with stdio into memory: one place for open_memstream's open, close and error path. */
#pragma once

#include <stdio.h>

/* Runs print(f, ctx) on a memory stream and returns what it wrote, NUL-terminated, for the caller
 * to free; NULL (errno set) when memory runs out, when print returns < 0, or when the stream
 * fails. print's error is its own to report through ctx: NULL only says there is no text. */
char *memout(int (*print)(FILE *f, void *ctx), void *ctx);
/* The same with the text's length (not counting the NUL) in *ret_len. */
char *memout_len(int (*print)(FILE *f, void *ctx), void *ctx, size_t *ret_len);
