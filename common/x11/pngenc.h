/* The thumbnail's PNG encoder: RGB rows in, a PNG in memory out, with settings chosen for
 * speed. */
#pragma once

#include <png.h>
#include <stdbool.h>
#include <stddef.h>

struct pngenc {
	png_structp png;
	png_infop info;
	unsigned char *data; /* the PNG written so far */
	size_t len, cap;
	bool failed; /* a write found no memory; the rest is dropped */
};

/* 0 or -ENOMEM; pngenc_free() either way. */
int pngenc_init(struct pngenc *e);

/* libpng reports an error by longjmp() to png_jmpbuf(e->png), so the caller setjmp()s there before
 * any of these three. */

/* The header of a w x h 8-bit RGB image. */
void pngenc_start(struct pngenc *e, unsigned w, unsigned h);
/* The next row, w * 3 bytes. */
void pngenc_write_row(struct pngenc *e, const unsigned char *row);
/* Ends the image and hands the PNG (malloc'ed) over; -ENOMEM when a write found no memory. */
int pngenc_finish(struct pngenc *e, unsigned char **ret_png, size_t *ret_len);

/* Also frees a PNG that was not handed over. */
void pngenc_free(struct pngenc *e);
