/* Monotonic milliseconds, for deadlines that a clock change cannot stretch. */
#pragma once

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}
