/*
 * The HTTP layer's one clock: monotonic milliseconds, for deadlines and
 * rate windows. Never goes back; its origin is arbitrary.
 */
#ifndef DROPJUDGE_HTTP_CLOCK_H
#define DROPJUDGE_HTTP_CLOCK_H

/* Milliseconds on the monotonic clock. */
long long http_clock_ms(void);

#endif
