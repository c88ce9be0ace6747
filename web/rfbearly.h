/* The stream's opening, done ahead (docs/web.md, "The stream before the proof"): botdesk-web
 * connects the desktop's door as soon as a websocket is established and speaks the RFB
 * handshake's client side with it (version 3.8, security None, a shared ClientInit) while the page
 * proves the server, then asks for the first update in the pixel format noVNC will ask for. What
 * the door says is only kept here; after the page's "go" it is given to the page, each piece of
 * the handshake a websocket message of its own (noVNC takes one handshake message per websocket
 * message), then the rest, the first update among it. The page's answers to the pieces the
 * server answered already are checked (they must be what the server said) and kept from the
 * door. Where the door says something the server does not answer itself (another version, no
 * None, a failed result), the page answers it, through the door.
 *
 * No I/O: the caller reads the door into rfb_early_space(), writes what rfb_early_door() asks to
 * the door, and hands the page's bytes to rfb_early_page(). Unit-tested. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* What is kept of the door before the page takes the stream: the handshake and the first
 * update (more waits in the door's socket). */
#define RFB_EARLY_MAX 65536
/* Pieces of the handshake: version, security types, security result, ServerInit. */
#define RFB_EARLY_PIECES 4
/* The most the server writes to the door at one step (the first update's request). */
#define RFB_EARLY_REPLY_MAX 64

struct rfb_early {
	unsigned char buf[RFB_EARLY_MAX]; /* what the door said, in order */
	size_t len;                       /* bytes in buf */
	size_t parsed;                    /* bytes of buf that are complete pieces */
	size_t piece_end[RFB_EARLY_PIECES];
	bool answered[RFB_EARLY_PIECES]; /* the server answered this piece to the door */
	unsigned pieces;                 /* complete pieces */
	bool door_done;                  /* the server says nothing more to the door */
	/* The page's side: pieces given to it, and how many bytes of its answers came. */
	unsigned given;
	size_t page_got;
	size_t sent; /* bytes of buf given to the page */
};

void rfb_early_init(struct rfb_early *e);

/* Where the next read from the door goes, and how much room there is (0: stop reading). */
unsigned char *rfb_early_space(struct rfb_early *e, size_t *ret_room);

/* n bytes were read into the space. Writes to reply what the server says to the door now
 * (*ret_len, possibly 0; at most RFB_EARLY_REPLY_MAX). 0, or -EPROTO when the door breaks the
 * protocol (a ServerInit that does not fit). */
int rfb_early_door(struct rfb_early *e, size_t n, unsigned char *reply, size_t *ret_len);

/* The next piece for the page, now: *ret_data and *ret_len (0: none yet). *ret_last is true when
 * after it the stream is the door's: what follows in the buffer (rfb_early_rest()) goes to the
 * page, and the page's bytes beyond its answers to the door. The caller marks it given with
 * rfb_early_given(). */
void rfb_early_next(const struct rfb_early *e, const unsigned char **ret_data, size_t *ret_len,
		    bool *ret_last);
void rfb_early_given(struct rfb_early *e);

/* The page's bytes after its "go": how many of them (from the start) are its answers to pieces
 * the server answered already (the rest is for the door), or -EPROTO when an answer differs or
 * the page says more before the stream is the door's. */
int rfb_early_page(struct rfb_early *e, const unsigned char *in, size_t len);

/* The stream is the door's and the page has answered all it owed: nothing left to check. */
bool rfb_early_page_done(const struct rfb_early *e);

/* After the last piece: what the door said after it, not yet given to the page. */
const unsigned char *rfb_early_rest(const struct rfb_early *e, size_t *ret_len);
