/* botdesk-thumbnail DISPLAY XAUTHORITY MAX_WxH: writes a PNG of the screen to stdout. Run by
 * `botdesk thumbnail` once it has verified that the profile's desktop is running; a program of
 * its own so that only this command loads the X and PNG libraries. Exit 0, or 1 with one
 * message on stderr. */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "fileio.h"
#include "log.h"
#include "parse.h"
#include "picture.h"
#include "thumbnail.h"

int main(int argc, char **argv)
{
	log_set_program("botdesk");
	unsigned w, h;
	if (argc != 4 || picture_parse_max(argv[3], &w, &h) < 0) {
		log_error(
			"usage: botdesk-thumbnail DISPLAY XAUTHORITY MAX_WxH (run by 'botdesk thumbnail')");
		return 2;
	}
	struct error err = {{0}};
	_cleanup_free_ unsigned char *png = NULL;
	size_t len = 0;
	int r = thumbnail_png(argv[1], argv[2], w, h, &png, &len, &err);
	if (r == 0) {
		r = write_all(1, png, len);
		if (r < 0) {
			error_set(&err, r, "cannot write the PNG: %s", strerror(-r));
		}
	}
	if (r < 0) {
		log_error("%s", err.msg[0] ? err.msg : strerror(-r));
		return 1;
	}
	return 0;
}
