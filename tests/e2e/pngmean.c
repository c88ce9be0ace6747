/* pngmean FILE [X Y W H]: the mean colour of a PNG (or of that rectangle of it) and the share of
 * its pixels that are black, as "mean R G B dark PERMILLE", for the web tests' comparison of
 * the browser's picture of the desktop with botdesk thumbnail's. */
#include <stdio.h>
#include <stdlib.h>

#include "parse.h"
#include "pngread.h"

int main(int argc, char **argv)
{
	unsigned x = 0, y = 0, w = 0, h = 0;
	if ((argc != 2 && argc != 6) ||
	    (argc == 6 && (parse_uint_range(argv[2], 0, 65535, &x) < 0 ||
			   parse_uint_range(argv[3], 0, 65535, &y) < 0 ||
			   parse_uint_range(argv[4], 1, 65535, &w) < 0 ||
			   parse_uint_range(argv[5], 1, 65535, &h) < 0))) {
		fprintf(stderr, "usage: pngmean FILE [X Y W H]\n");
		return 2;
	}
	png_image im;
	unsigned char *px;
	if (pngread_rgb("pngmean", argv[1], &im, &px) < 0) {
		return 1;
	}
	if (argc == 2) {
		w = im.width;
		h = im.height;
	}
	if (x + w > im.width || y + h > im.height) {
		fprintf(stderr, "pngmean: %ux%u+%u+%u is outside the %ux%u picture\n", w, h, x, y,
			im.width, im.height);
		return 1;
	}
	unsigned long long sum[3] = {0}, dark = 0;
	for (unsigned j = y; j < y + h; j++) {
		const unsigned char *row = px + (size_t)j * im.width * 3;
		for (unsigned i = x; i < x + w; i++) {
			const unsigned char *p = row + (size_t)i * 3;
			sum[0] += p[0];
			sum[1] += p[1];
			sum[2] += p[2];
			dark += p[0] + p[1] + p[2] < 12;
		}
	}
	unsigned long long n = (unsigned long long)w * h;
	printf("mean %llu %llu %llu dark %llu\n", sum[0] / n, sum[1] / n, sum[2] / n,
	       dark * 1000 / n);
	free(px);
	return 0;
}
