#include "picture.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "parse.h"
#include "util.h"

int picture_parse_max(const char *s, unsigned *ret_w, unsigned *ret_h)
{
	return parse_geometry(s, PICTURE_SIDE_MIN, PICTURE_SIDE_MAX, ret_w, ret_h);
}

static int write_stdout(const void *data, size_t len, struct error *err)
{
	if (isatty(STDOUT_FILENO)) {
		return error_set(
			err, -ENOTTY,
			"--output - writes the picture to standard output, which is a terminal; redirect it (--output - > desktop.png) or pipe it to a program");
	}
	fflush(stdout);
	int r = write_all(STDOUT_FILENO, data, len);
	if (r < 0) {
		return error_set(err, r, "cannot write the picture to standard output: %s",
				 strerror(-r));
	}
	return 0;
}

int picture_write_output(const char *path, const void *data, size_t len, struct error *err)
{
	if (streq(path, "-")) {
		return write_stdout(data, len, err);
	}
	int r = write_user_file(path, data, len);
	if (r == -EISDIR) {
		return error_set(err, r, "--output '%s' names a directory, not a file", path);
	}
	if (r < 0) {
		return error_set(err, r, "cannot write %s: %s", path, strerror(-r));
	}
	return 0;
}
