#include "ptrseq.h"

/* Intermediate pointer positions of a drag: toolkits start a drag only after the pointer moved
 * past a threshold while the button was down, and some need motion events to follow it. */
#define DRAG_STEPS 10

void ptrseq_emit(const struct act_req *rq, unsigned x, unsigned y, unsigned x2, unsigned y2,
		 const struct ptrseq_ops *ops, void *ctx)
{
	switch (rq->cmd) {
	case ACT_CLICK:
		for (int i = 0; i < (rq->dbl ? 2 : 1); i++) {
			ops->button(ctx, rq->button, true);
			ops->button(ctx, rq->button, false);
		}
		break;
	case ACT_DRAG:
		ops->button(ctx, rq->button, true);
		for (int i = 1; i <= DRAG_STEPS; i++) {
			int dx = (int)x2 - (int)x, dy = (int)y2 - (int)y;
			ops->motion(ctx, (unsigned)((int)x + dx * i / DRAG_STEPS),
				    (unsigned)((int)y + dy * i / DRAG_STEPS));
		}
		ops->button(ctx, rq->button, false);
		break;
	case ACT_SCROLL: {
		/* X's wheel: buttons 4 up, 5 down, 6 left, 7 right, one press per step. */
		static const unsigned wheel[] = {4, 5, 6, 7};
		for (unsigned i = 0; i < rq->amount; i++) {
			ops->button(ctx, wheel[rq->dir], true);
			ops->button(ctx, wheel[rq->dir], false);
		}
		break;
	}
	default:
		break;
	}
}
