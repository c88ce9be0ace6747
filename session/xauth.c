#include "xauth.h"

#include <X11/Xauth.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>

#include "fileio.h"
#include "util.h"

int xauth_cookie_new(struct xauth_cookie *ret)
{
	size_t got = 0;
	while (got < sizeof(ret->data)) {
		ssize_t n = getrandom(ret->data + got, sizeof(ret->data) - got, 0);
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return negative_errno();
		}
		got += (size_t)n;
	}
	return 0;
}

int xauth_write(const char *path, unsigned display, const struct xauth_cookie *cookie,
		struct error *err)
{
	struct utsname u;
	if (uname(&u) < 0) {
		return error_set(err, negative_errno(), "cannot learn the host name: %s",
				 strerror(errno));
	}
	char number[16];
	snprintf(number, sizeof(number), "%u", display);
	/* libXau's struct wants mutable buffers. */
	char name[] = XAUTH_COOKIE_NAME;
	char data[XAUTH_COOKIE_LEN];
	memcpy(data, cookie->data, sizeof(data));
	Xauth entry = {
		.family = FamilyLocal,
		.address_length = (unsigned short)strlen(u.nodename),
		.address = u.nodename,
		.number_length = (unsigned short)strlen(number),
		.number = number,
		.name_length = (unsigned short)strlen(XAUTH_COOKIE_NAME),
		.name = name,
		.data_length = XAUTH_COOKIE_LEN,
		.data = data,
	};

	/* The entry is made in memory and published as a whole: a reader never sees a half. */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		return error_set(err, -ENOMEM, "cannot write the X cookie to %s: %s", path,
				 strerror(ENOMEM));
	}
	bool ok = XauWriteAuth(f, &entry) == 1;
	ok = fclose(f) == 0 && ok;
	explicit_bzero(data, sizeof(data));
	int r = ok ? write_file_atomic(path, text, len, 0600) : -EIO;
	if (text) {
		explicit_bzero(text, len);
		free(text);
	}
	if (r < 0) {
		return error_set(err, r, "cannot write the X cookie to %s: %s", path, strerror(-r));
	}
	return 0;
}
