/* botdesk-web's opening of the door ahead of the page (web/rfbearly.c), without a server: what
 * it answers the door at each step and the first update's request; that the page gets the pieces
 * in order, each once the door has said it, its answers checked as they come (in any split) and
 * kept from the door, anything else refused; where the server stops answering (another version,
 * no None, a failed result) the rest is the page's; a ServerInit that cannot fit is a protocol
 * error; and nothing is given before the door has spoken. */
#include "unit.h"

#include <errno.h>
#include <string.h>

#include "rfbearly.h"

static const unsigned char server_init[] = {0x05, 0xa0, 0x03, 0x84, 32,  24,  0,   1,  0, 255,
					    0,    255,  0,    255,  16,  8,   0,   0,  0, 0,
					    0,    0,    0,    4,    'd', 'e', 's', 'k'};
static const unsigned char update[] = {0, 0, 0, 1, 9, 9, 9};

/* The door says data; returns what the server answered it. */
static size_t door(struct rfb_early *e, const void *data, size_t n, unsigned char *reply)
{
	size_t room, rlen;
	unsigned char *space = rfb_early_space(e, &room);
	assert_true(room >= n);
	memcpy(space, data, n);
	assert_int_equal(rfb_early_door(e, n, reply, &rlen), 0);
	return rlen;
}

/* The page is owed exactly this piece now (and it is marked given). */
static void owed(struct rfb_early *e, const void *want, size_t n, bool want_last)
{
	const unsigned char *data;
	size_t len;
	bool last;
	rfb_early_next(e, &data, &len, &last);
	assert_int_equal(len, n);
	assert_memory_equal(data, want, n);
	assert_int_equal(last, want_last);
	rfb_early_given(e);
}

static void nothing_owed(const struct rfb_early *e)
{
	const unsigned char *data;
	size_t len;
	bool last;
	rfb_early_next(e, &data, &len, &last);
	assert_int_equal(len, 0);
}

static void whole_opening(void **state)
{
	(void)state;
	static struct rfb_early e;
	unsigned char reply[RFB_EARLY_REPLY_MAX];
	rfb_early_init(&e);
	nothing_owed(&e);
	assert_int_equal(door(&e, "RFB 003.008\n", 12, reply), 12);
	assert_memory_equal(reply, "RFB 003.008\n", 12);
	assert_int_equal(door(&e, "\x02\x02\x01", 3, reply), 1); /* VNC auth and None: None */
	assert_int_equal(reply[0], 1);
	assert_int_equal(door(&e, "\0\0\0\0", 4, reply), 1); /* ClientInit, shared */
	assert_int_equal(reply[0], 1);
	/* ServerInit in two reads: the request only once it is whole. */
	assert_int_equal(door(&e, server_init, 10, reply), 0);
	size_t n = door(&e, server_init + 10, sizeof(server_init) - 10, reply);
	assert_int_equal(n, 50);
	static const unsigned char pixel_format[20] = {0, 0,   0, 0,   32, 24, 0,  1, 0, 255,
						       0, 255, 0, 255, 0,  8,  16, 0, 0, 0};
	assert_memory_equal(reply, pixel_format, 20);
	assert_int_equal(reply[20], 2); /* SetEncodings, 4 of them, Tight first */
	assert_int_equal(reply[23], 4);
	assert_memory_equal(reply + 24, "\0\0\0\x07", 4);
	static const unsigned char fbur[] = {3, 0, 0, 0, 0, 0, 0x05, 0xa0, 0x03, 0x84};
	assert_memory_equal(reply + 40, fbur, 10);
	assert_int_equal(door(&e, update, sizeof(update), reply), 0);

	/* The page: the pieces in order without waiting for its answers, then the rest. */
	owed(&e, "RFB 003.008\n", 12, false);
	/* An answer comes in any split; before the stream is the door's, nothing more. */
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"RFB 003.", 8), 8);
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"008\n\x01", 5), -EPROTO);
	e.page_got = 8;
	owed(&e, "\x02\x02\x01", 3, false);
	owed(&e, "\0\0\0\0", 4, false);
	assert_false(rfb_early_page_done(&e));
	owed(&e, server_init, sizeof(server_init), true);
	nothing_owed(&e);
	size_t rest_len;
	const unsigned char *rest = rfb_early_rest(&e, &rest_len);
	assert_int_equal(rest_len, sizeof(update));
	assert_memory_equal(rest, update, sizeof(update));
	/* The rest of the answers (version, None, shared), then the page's own for the door. */
	assert_false(rfb_early_page_done(&e));
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"008\n\x01\x01\x00\x00", 8), 6);
	assert_true(rfb_early_page_done(&e));
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"\x03", 1), 0);
}

static void other_answers_refused(void **state)
{
	(void)state;
	static struct rfb_early e;
	unsigned char reply[RFB_EARLY_REPLY_MAX];
	rfb_early_init(&e);
	door(&e, "RFB 003.008\n", 12, reply);
	/* Bytes before any piece was given, then another version. */
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"R", 1), -EPROTO);
	owed(&e, "RFB 003.008\n", 12, false);
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"RFB 003.007\n", 12), -EPROTO);
	/* More than the answer, before the next piece. */
	rfb_early_init(&e);
	door(&e, "RFB 003.008\n", 12, reply);
	owed(&e, "RFB 003.008\n", 12, false);
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"RFB 003.008\n\x01", 13),
			 -EPROTO);
	/* Another security type than the server chose. */
	rfb_early_init(&e);
	door(&e, "RFB 003.008\n", 12, reply);
	door(&e, "\x02\x02\x01", 3, reply);
	owed(&e, "RFB 003.008\n", 12, false);
	owed(&e, "\x02\x02\x01", 3, false);
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"RFB 003.008\n\x02", 13),
			 -EPROTO);
}

static void stops_where_it_does_not_answer(void **state)
{
	(void)state;
	static struct rfb_early e;
	unsigned char reply[RFB_EARLY_REPLY_MAX];
	/* Another version: not answered; the page gets it and answers the door itself. */
	rfb_early_init(&e);
	assert_int_equal(door(&e, "RFB 003.003\n\0\0\0\x01", 16, reply), 0);
	owed(&e, "RFB 003.003\n", 12, true);
	size_t n;
	const unsigned char *rest = rfb_early_rest(&e, &n);
	assert_int_equal(n, 4);
	assert_memory_equal(rest, "\0\0\0\x01", 4);
	assert_true(rfb_early_page_done(&e));
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"RFB 003.003\n", 12), 0);
	/* No None among the types. */
	rfb_early_init(&e);
	door(&e, "RFB 003.008\n", 12, reply);
	assert_int_equal(door(&e, "\x01\x02", 2, reply), 0);
	owed(&e, "RFB 003.008\n", 12, false);
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"RFB 003.008\n", 12), 12);
	owed(&e, "\x01\x02", 2, true);
	assert_int_equal(rfb_early_page(&e, (const unsigned char *)"\x02", 1), 0);
	/* A failed result: its reason is the page's to read. */
	rfb_early_init(&e);
	door(&e, "RFB 003.008\n", 12, reply);
	door(&e, "\x01\x01", 2, reply);
	assert_int_equal(door(&e, "\0\0\0\x01\0\0\0\x02no", 10, reply), 0);
	assert_true(e.door_done);
	assert_int_equal(e.pieces, 3);
}

static void server_init_too_long(void **state)
{
	(void)state;
	static struct rfb_early e;
	unsigned char reply[RFB_EARLY_REPLY_MAX], si[24] = {0};
	size_t rlen;
	rfb_early_init(&e);
	door(&e, "RFB 003.008\n", 12, reply);
	door(&e, "\x01\x01", 2, reply);
	door(&e, "\0\0\0\0", 4, reply);
	si[20] = 0xff; /* a name of 4 GiB */
	size_t room;
	memcpy(rfb_early_space(&e, &room), si, sizeof(si));
	assert_int_equal(rfb_early_door(&e, sizeof(si), reply, &rlen), -EPROTO);
	/* And never more than the room. */
	rfb_early_init(&e);
	assert_int_equal(rfb_early_door(&e, RFB_EARLY_MAX + 1, reply, &rlen), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_opening),
		cmocka_unit_test(other_answers_refused),
		cmocka_unit_test(stops_where_it_does_not_answer),
		cmocka_unit_test(server_init_too_long),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
