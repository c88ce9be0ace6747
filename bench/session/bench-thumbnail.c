/* Prints the thumbnail's figures: thumbnail_png() of a running desktop fitted to 960x600 (grab,
 * scale, encode; the X connection included), and the PNG's size. Usage:
 *   bench-thumbnail PROFILE-STATE-DIR [ROUNDS] [OUTPUT.png]
 * where PROFILE-STATE-DIR holds the desktop's env file (DISPLAY, XAUTHORITY). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlib.h"
#include "parse.h"
#include "thumbnail.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s PROFILE-STATE-DIR [ROUNDS] [OUTPUT.png]\n", argv[0]);
		return 2;
	}
	unsigned rounds = 50;
	if (argc > 2 && parse_uint_range(argv[2], 3, 10000, &rounds) < 0) {
		fprintf(stderr, "ROUNDS must be 3-10000\n");
		return 2;
	}
	char display[4096], xauth[4096];
	if (bench_read_env(argv[1], display, xauth, sizeof(xauth)) < 0) {
		fprintf(stderr, "no DISPLAY/XAUTHORITY in %s/env: is the desktop running?\n",
			argv[1]);
		return 1;
	}
	double *t = calloc(rounds, sizeof(double));
	size_t len = 0;
	for (unsigned i = 0; i < rounds; i++) {
		struct error err = {0};
		unsigned char *png;
		double t0 = bench_now_ms();
		if (thumbnail_png(display, xauth, 960, 600, &png, &len, &err) < 0) {
			fprintf(stderr, "thumbnail: %s\n", err.msg);
			return 1;
		}
		t[i] = bench_now_ms() - t0;
		if (i == 0 && argc > 3) {
			FILE *f = fopen(argv[3], "w");
			if (f) {
				fwrite(png, 1, len, f);
				fclose(f);
			}
		}
		free(png);
	}
	bench_sort(t, rounds);
	printf("%-44s median %7.2f ms  p90 %7.2f ms  min %7.2f ms  (n=%u, %zu bytes)\n",
	       "thumbnail fitted to 960x600 (connect..PNG)", t[rounds / 2], t[rounds * 9 / 10],
	       t[0], rounds, len);
	free(t);
	return 0;
}
