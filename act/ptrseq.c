#include "ptrseq.h"

/* Intermediate pointer positions of a drag: toolkits start a drag only after the pointer moved
 * past a threshold while the button was down, and some need motion events to follow it. */
#define DRAG_STEPS 10

/* From (x, y) to (x2, y2) in DRAG_STEPS motions, the last one on (x2, y2). */
static void segment(unsigned x, unsigned y, unsigned x2, unsigned y2, const struct ptrseq_ops *ops,
		    void *ctx)
{
	int dx = (int)x2 - (int)x, dy = (int)y2 - (int)y;
	for (int i = 1; i <= DRAG_STEPS; i++) {
		ops->motion(ctx, (unsigned)((int)x + dx * i / DRAG_STEPS),
			    (unsigned)((int)y + dy * i / DRAG_STEPS));
	}
}

void ptrseq_emit(const struct act_req *rq, unsigned x, unsigned y, unsigned x2, unsigned y2,
		 unsigned (*path)[2], const struct ptrseq_ops *ops, void *ctx)
{
	switch (rq->cmd) {
	case ACT_CLICK:
		/* A few milliseconds apart (PTRSEQ_CLICK_GAP_MS), well within every toolkit's
		 * double-click time: one click of 2 or 3 (DOM detail, GTK's n_press). */
		for (unsigned i = 0; i < (rq->clicks ? rq->clicks : 1); i++) {
			ops->button(ctx, rq->button, true, i ? PTRSEQ_CLICK_GAP_MS : 0);
			ops->button(ctx, rq->button, false, 0);
		}
		break;
	case ACT_MOUSE_DOWN:
	case ACT_MOUSE_UP:
		ops->button(ctx, rq->button, rq->cmd == ACT_MOUSE_DOWN, 0);
		break;
	case ACT_DRAG:
		ops->button(ctx, rq->button, true, 0);
		if (path && rq->n_path >= 2) {
			/* Through every point in turn, each leg in steps as a plain drag. */
			for (size_t i = 1; i < rq->n_path; i++) {
				segment(path[i - 1][0], path[i - 1][1], path[i][0], path[i][1], ops,
					ctx);
			}
		} else {
			segment(x, y, x2, y2, ops, ctx);
		}
		ops->button(ctx, rq->button, false, 0);
		break;
	case ACT_SCROLL: {
		/* X's wheel: buttons 4 up, 5 down, 6 left, 7 right, one press per step. */
		static const unsigned wheel[] = {4, 5, 6, 7};
		for (unsigned i = 0; i < rq->amount; i++) {
			ops->button(ctx, wheel[rq->dir], true, 0);
			ops->button(ctx, wheel[rq->dir], false, 0);
		}
		break;
	}
	default:
		break;
	}
}
