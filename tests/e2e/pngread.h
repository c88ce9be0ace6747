/* What the suite's PNG tools (pngcheck, pngmean) share: a PNG file read whole as 8-bit RGB. */
#pragma once

#include <png.h>

/* file decoded into im (its size) and *ret_px (malloc'ed, 3 bytes a pixel, rows top down): 0; or
 * -1, after a line on stderr that names prog, the file and why. */
int pngread_rgb(const char *prog, const char *file, png_image *im, unsigned char **ret_px);
