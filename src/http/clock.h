/*
 * The HTTP layer's one clock: monotonic milliseconds, for deadlines and
 * rate windows, and nanoseconds, for durations. Never goes back; its origin is arbitrary.
 * The wall time of a log line is worked out from it.
 */
#ifndef DROPJUDGE_HTTP_CLOCK_H
#define DROPJUDGE_HTTP_CLOCK_H

#include <time.h>

/* Milliseconds on the monotonic clock. */
long long http_clock_ms(void);

/* Nanoseconds on the same clock, for durations (metrics, access log). */
long long http_clock_ns(void);

/* How long a thread keeps the offset of the wall clock from this one. */
#define HTTP_CLOCK_WALL_REFRESH_NS 50000000LL

/*
 * The wall clock (CLOCK_REALTIME) at `mono_ns` of http_clock_ns(), for log
 * lines: the offset between the two clocks is read by each thread and kept
 * for HTTP_CLOCK_WALL_REFRESH_NS, so that a request reads one clock, not
 * two; a step of the wall clock shows in the lines within that time.
 */
struct timespec http_clock_wall_at(long long mono_ns);

#endif
