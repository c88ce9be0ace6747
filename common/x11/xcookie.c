/* The profile's MIT-MAGIC-COOKIE-1, read with libXau (xcookie.h). */
#include "xcookie.h"

#include <X11/Xauth.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "util.h"

int xcookie_display_number(const char *display, unsigned *ret)
{
	if (!display || display[0] != ':') {
		return -EINVAL;
	}
	size_t len = strcspn(display + 1, ".");
	uint64_t n;
	if (len >= 16 || parse_u64_n(display + 1, len, 65535, &n) < 0) {
		return -EINVAL;
	}
	*ret = (unsigned)n;
	return 0;
}

static int read_entry(const char *path, const char *number, char *ret, int *ret_len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return negative_errno();
	}
	_cleanup_fclose_ FILE *f = fdopen(fd, "r");
	if (!f) {
		return negative_errno();
	}
	TAKE_FD(fd);
	int r = -ENOENT;
	Xauth *a;
	while (r == -ENOENT && (a = XauReadAuth(f))) {
		if (a->number_length == strlen(number) &&
		    memcmp(a->number, number, a->number_length) == 0 &&
		    a->name_length == strlen(XCOOKIE_NAME) &&
		    memcmp(a->name, XCOOKIE_NAME, a->name_length) == 0 && a->data_length > 0 &&
		    a->data_length <= XCOOKIE_MAX) {
			memcpy(ret, a->data, a->data_length);
			*ret_len = a->data_length;
			r = 0;
		}
		XauDisposeAuth(a);
	}
	return r;
}

int xcookie_read(const char *display, const char *xauthority, char *ret, int *ret_len,
		 struct error *err)
{
	unsigned n;
	if (xcookie_display_number(display, &n) < 0) {
		return error_set(err, -EINVAL, "'%s' is not a local X display", display);
	}
	/* Xauthority entries are keyed by the number as text, without the screen. */
	char number[16];
	snprintf(number, sizeof(number), "%u", n);
	int r = read_entry(xauthority, number, ret, ret_len);
	if (r < 0) {
		return error_set(err, r, "no X cookie for %s in %s: %s", display, xauthority,
				 strerror(-r));
	}
	return 0;
}
