#include "jpegenc.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void error_exit(j_common_ptr c)
{
	struct jpegenc *e = c->client_data;
	longjmp(e->jb, 1);
}

static void output_message(j_common_ptr c)
{
	/* Warnings are not the user's business; errors come back through error_exit. */
}

int jpegenc_init(struct jpegenc *e)
{
	*e = (struct jpegenc){0};
	e->c.err = jpeg_std_error(&e->jerr);
	e->jerr.error_exit = error_exit;
	e->jerr.output_message = output_message;
	e->c.client_data = e;
	if (setjmp(e->jb)) {
		return -ENOMEM;
	}
	jpeg_create_compress(&e->c);
	e->created = true;
	return 0;
}

void jpegenc_start(struct jpegenc *e, unsigned w, unsigned h, int quality)
{
	jpeg_mem_dest(&e->c, &e->data, &e->len);
	e->c.image_width = w;
	e->c.image_height = h;
	e->c.input_components = 3;
	e->c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&e->c);
	jpeg_set_quality(&e->c, quality, TRUE);
	/* The fast integer DCT: what is lost is invisible at screen quality, and it is the
	 * fastest path of libjpeg-turbo's SIMD code. */
	e->c.dct_method = JDCT_IFAST;
	jpeg_start_compress(&e->c, TRUE);
}

void jpegenc_write_row(struct jpegenc *e, const unsigned char *row)
{
	JSAMPROW r = (JSAMPROW)(uintptr_t)row;
	jpeg_write_scanlines(&e->c, &r, 1);
}

int jpegenc_finish(struct jpegenc *e, unsigned char **ret, size_t *ret_len)
{
	jpeg_finish_compress(&e->c);
	if (!e->data) {
		return -ENOMEM;
	}
	*ret = e->data;
	*ret_len = e->len;
	e->data = NULL;
	e->len = 0;
	return 0;
}

void jpegenc_free(struct jpegenc *e)
{
	if (e->created) {
		jpeg_destroy_compress(&e->c);
		e->created = false;
	}
	free(e->data);
	e->data = NULL;
}
