/* The thumbnail: the whole screen through the shared grab (grab.c), fitted inside a box, as a
 * PNG, on a connection of its own. */
#include "thumbnail.h"

#include "grab.h"
#include "xconn.h"

int thumbnail_png(const char *display, const char *xauthority, unsigned max_w, unsigned max_h,
		  unsigned char **ret_png, size_t *ret_len, struct error *err)
{
	if (max_w == 0 || max_h == 0) {
		return error_set(err, -EINVAL, "the thumbnail box must not be empty");
	}
	Display *dpy;
	int r = xconn_open(display, xauthority, &dpy, err);
	if (r < 0) {
		return r;
	}
	struct grab_request rq = {.max_w = max_w, .max_h = max_h, .format = GRAB_PNG};
	struct grab_result res;
	r = grab_encode(dpy, &rq, &res, err);
	/* A dead connection is abandoned: closing it would only meet the same error. */
	if (r != -ECONNRESET) {
		struct xconn_guard guard;
		xconn_guard_push(&guard);
		if (sigsetjmp(guard.jb, 1) == 0) {
			XCloseDisplay(dpy);
			xconn_guard_pop(&guard);
		}
	}
	if (r < 0) {
		return r;
	}
	*ret_png = res.data;
	*ret_len = res.len;
	return 0;
}
