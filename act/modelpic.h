/* The size of a picture sized for the model: Anthropic's vision budget (a long edge of at most
 * 1568 px and at most 1568 tiles of 28 x 28 px) is enforced by the API by shrinking a larger
 * picture, after which the model's clicks no longer land where it saw them. A picture already
 * within the budget is taken as it is, so the MCP server sends that size and reads every
 * coordinate in it. Pure arithmetic, no X. */
#pragma once

#include <stdbool.h>

#include "actargs.h"
#include "error.h"

#define MODELPIC_EDGE_MAX 1568
#define MODELPIC_TILE 28
#define MODELPIC_TILES_MAX 1568

/* The widest w x h within the budget with h = w * sh / sw rounded to the nearest pixel (the
 * screen's aspect within half a pixel), never larger than sw x sh: the screen's own size when
 * it fits. A larger width always breaks a limit (h only grows with w). 0 x 0 for an empty
 * screen; a screen over 1568 times taller than wide (none is) gets a 1 x 1568 picture. */
void modelpic_size(unsigned sw, unsigned sh, unsigned *ret_w, unsigned *ret_h);

/* Whether w x h is within the budget. */
bool modelpic_fits(unsigned w, unsigned h);

/* The MCP server's request in the model picture's space, on a sw x sh screen, into *ret: a
 * screenshot without max or region is sized to modelpic_size(); pointer coordinates and the
 * cursor without from are in that picture (from is set to its size), checked against it; a
 * screenshot's region is in the picture named by from, or else in the model picture, and is
 * turned into the screen pixels that cover it. Nothing changes when the screen fits the budget
 * as it is. -EINVAL naming the argument for a point or region off its picture. */
int modelpic_request(const struct act_req *rq, unsigned sw, unsigned sh, struct act_req *ret,
		     struct error *err);
