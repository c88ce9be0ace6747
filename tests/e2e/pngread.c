#include "pngread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pngread_rgb(const char *prog, const char *file, png_image *im, unsigned char **ret_px)
{
	memset(im, 0, sizeof(*im));
	im->version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(im, file)) {
		fprintf(stderr, "%s: %s: not a PNG: %s\n", prog, file, im->message);
		return -1;
	}
	im->format = PNG_FORMAT_RGB;
	unsigned char *px = malloc(PNG_IMAGE_SIZE(*im));
	if (!px || !png_image_finish_read(im, NULL, px, 0, NULL)) {
		fprintf(stderr, "%s: %s: cannot decode: %s\n", prog, file, im->message);
		free(px);
		return -1;
	}
	*ret_px = px;
	return 0;
}
