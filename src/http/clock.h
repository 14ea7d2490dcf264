/*
 * The HTTP layer's one clock: monotonic milliseconds, for deadlines and
 * rate windows, and nanoseconds, for durations. Never goes back; its origin is arbitrary.
 */
#ifndef DROPJUDGE_HTTP_CLOCK_H
#define DROPJUDGE_HTTP_CLOCK_H

/* Milliseconds on the monotonic clock. */
long long http_clock_ms(void);

/* Nanoseconds on the same clock, for durations (metrics, access log). */
long long http_clock_ns(void);

#endif
