/* The HTTP layer's one clock, CLOCK_MONOTONIC (arbitrary origin): milliseconds
 * for deadlines, nanoseconds for durations, and the wall time of log lines. */
#ifndef DROPJUDGE_HTTP_CLOCK_H
#define DROPJUDGE_HTTP_CLOCK_H

#include <time.h>

/* Milliseconds on the monotonic clock. */
long long http_clock_ms(void);

/* Nanoseconds on the same clock, for durations (metrics, access log). */
long long http_clock_ns(void);

/* How long a thread keeps the offset of the wall clock from this one. */
#define HTTP_CLOCK_WALL_REFRESH_NS 50000000LL

/* CLOCK_REALTIME at `mono_ns` of http_clock_ns(): each thread keeps the offset between the
 * clocks for HTTP_CLOCK_WALL_REFRESH_NS, so that a request reads one clock, not two. */
struct timespec http_clock_wall_at(long long mono_ns);

#endif
