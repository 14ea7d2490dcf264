/* The HTTP layer's clock (clock.h). */
#include "http/clock.h"

#include <stdbool.h>
#include <time.h>

long long http_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

long long http_clock_ms(void)
{
	return http_clock_ns() / 1000000;
}

struct timespec http_clock_wall_at(long long mono_ns)
{
	static _Thread_local struct {
		bool set;	  /* offset_ns has been read */
		long long at_ns;  /* http_clock_ns() when it was read */
		long long offset; /* wall clock less this one, in nanoseconds */
	} base;
	if (!base.set || mono_ns < base.at_ns ||
	    mono_ns - base.at_ns > HTTP_CLOCK_WALL_REFRESH_NS) {
		struct timespec wall;
		clock_gettime(CLOCK_REALTIME, &wall);
		base.at_ns = http_clock_ns();
		base.offset = (long long)wall.tv_sec * 1000000000 + wall.tv_nsec - base.at_ns;
		base.set = true;
	}
	long long ns = mono_ns + base.offset;
	struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000),
			      .tv_nsec = (long)(ns % 1000000000)};
	if (ts.tv_nsec < 0) {
		ts.tv_nsec += 1000000000;
		ts.tv_sec--;
	}
	return ts;
}
