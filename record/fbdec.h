/* A framebuffer rebuilt from the recorded updates: Raw, CopyRect, ZRLE (one zlib stream across
 * the whole recording, as RFB has it) and size changes, in the pixel format of recording.h.
 * Every length and coordinate from the file is checked before it is used: a damaged or foreign
 * recording is an error, never a write outside the picture (tests/record fuzz it). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

struct fbdec {
	uint32_t *fb; /* w*h pixels, 0x00RRGGBB (B, G, R, 0 in memory) */
	unsigned w, h;
	z_stream z;
	bool z_ready;
	uint8_t *tmp; /* a ZRLE rectangle's inflated bytes */
	size_t tmp_cap;
};

int fbdec_init(struct fbdec *d, unsigned w, unsigned h);
void fbdec_free(struct fbdec *d);
/* Applies one whole FramebufferUpdate message. -EINVAL for one that does not parse. */
int fbdec_apply(struct fbdec *d, const uint8_t *msg, size_t len);
