/* click-floor: the least a whole-process XTEST click can cost on this machine, for reading
 * bench-act's click figure: one XCB connection to $DISPLAY with $XAUTHORITY's cookie, the XTEST
 * extension, a motion, a press and a release at 700,450 and a sync, and nothing else (no
 * settings, no lease, no log, no checks). bench-act runs it beside `botdesk click`; exit 0 once
 * the server has handled the events. */
#include <stdlib.h>
#include <xcb/xcb.h>
#include <xcb/xtest.h>

int main(void)
{
	xcb_connection_t *c = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(c)) {
		return 1;
	}
	xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
	const xcb_query_extension_reply_t *ext = xcb_get_extension_data(c, &xcb_test_id);
	if (!ext || !ext->present) {
		return 1;
	}
	xcb_test_fake_input(c, XCB_MOTION_NOTIFY, 0, XCB_CURRENT_TIME, root, 700, 450, 0);
	xcb_test_fake_input(c, XCB_BUTTON_PRESS, 1, XCB_CURRENT_TIME, root, 0, 0, 0);
	xcb_test_fake_input(c, XCB_BUTTON_RELEASE, 1, XCB_CURRENT_TIME, root, 0, 0, 0);
	xcb_generic_error_t *e = NULL;
	free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), &e));
	int r = e || xcb_connection_has_error(c) ? 1 : 0;
	free(e);
	xcb_disconnect(c);
	return r;
}
