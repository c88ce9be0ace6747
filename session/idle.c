#include "idle.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "activity.h"
#include "lease.h"
#include "timeutil.h"
#include "util.h"

int idle_open(struct idle *i, const char *state_dir, uint64_t limit_ms)
{
	*i = (struct idle){.dirfd = -1, .limit_ms = limit_ms, .started = time(NULL)};
	if (limit_ms == 0) {
		return 0;
	}
	i->dirfd = open(state_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return i->dirfd < 0 ? negative_errno() : 0;
}

void idle_close(struct idle *i)
{
	i->dirfd = safe_close(i->dirfd);
}

uint64_t idle_remaining_ms(int64_t last_use_ms, int64_t now_ms, uint64_t limit_ms)
{
	/* A stamp from the future (the clock was set back) counts as now. */
	int64_t age = now_ms > last_use_ms ? now_ms - last_use_ms : 0;
	return (uint64_t)age >= limit_ms ? 0 : limit_ms - (uint64_t)age;
}

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int idle_check(const struct idle *i, uint64_t *ret_deadline_ms)
{
	*ret_deadline_ms = 0;
	if (i->limit_ms == 0) {
		return 0;
	}
	int64_t last = (int64_t)i->started * 1000;
	int64_t stamp;
	if (activity_read_ms(i->dirfd, &stamp) == 0 && stamp > last) {
		last = stamp;
	}
	uint64_t left = idle_remaining_ms(last, wall_ms(), i->limit_ms);
	if (left > 0) {
		*ret_deadline_ms = now_ms() + left;
		return 0;
	}
	/* A human at the desktop may just be reading a page: their hold is use. An unreadable
	 * lease is theirs too. Look again a whole limit later; hand-back stamps a use anyway. */
	struct lease l;
	(void)lease_read_at(i->dirfd, &l);
	if (l.holder == LEASE_HUMAN) {
		*ret_deadline_ms = now_ms() + i->limit_ms;
		return 0;
	}
	return 1;
}
