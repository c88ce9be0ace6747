/* The screenshot's JPEG encoder (libjpeg-turbo): RGB rows in, a JPEG in memory out. */
#pragma once

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

struct jpegenc {
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr jerr;
	jmp_buf jb; /* libjpeg's errors jump here instead of ending the process */
	bool created;
	unsigned char *data; /* libjpeg's memory destination */
	unsigned long len;
};

/* 0 or -ENOMEM; jpegenc_free() either way. */
int jpegenc_init(struct jpegenc *e);

/* libjpeg reports an error by longjmp() to e->jb, so the caller setjmp()s there before any of
 * these three. */

/* A w x h RGB image at quality (1-100). */
void jpegenc_start(struct jpegenc *e, unsigned w, unsigned h, int quality);
void jpegenc_write_row(struct jpegenc *e, const unsigned char *row);
/* Ends the image and hands the JPEG (malloc'ed) over. */
int jpegenc_finish(struct jpegenc *e, unsigned char **ret, size_t *ret_len);

void jpegenc_free(struct jpegenc *e);
