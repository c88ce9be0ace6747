/* pngcheck FILE WIDTH HEIGHT: exit 0 when FILE decodes as a PNG of exactly that size whose pixels
 * are not all one colour. Prints what it found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "pngread.h"

int main(int argc, char **argv)
{
	unsigned w, h;
	if (argc != 4 || parse_uint_range(argv[2], 1, 65535, &w) < 0 ||
	    parse_uint_range(argv[3], 1, 65535, &h) < 0) {
		fprintf(stderr, "usage: pngcheck FILE WIDTH HEIGHT\n");
		return 2;
	}
	png_image im;
	unsigned char *px;
	if (pngread_rgb("pngcheck", argv[1], &im, &px) < 0) {
		return 1;
	}
	size_t n = (size_t)im.width * im.height, differ = 0;
	for (size_t i = 1; i < n; i++) {
		differ += memcmp(px, px + 3 * i, 3) != 0;
	}
	printf("%ux%u, %zu of %zu pixels differ from the first\n", im.width, im.height, differ, n);
	free(px);
	if (im.width != w || im.height != h) {
		fprintf(stderr, "pngcheck: %s is %ux%u, expected %ux%u\n", argv[1], im.width,
			im.height, w, h);
		return 1;
	}
	if (differ == 0) {
		fprintf(stderr, "pngcheck: %s is one flat colour\n", argv[1]);
		return 1;
	}
	return 0;
}
