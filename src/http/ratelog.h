/* Error lines on stderr, rate-limited: at most RATELOG_BURST lines in any one second; the rest
 * are counted, and the count written as one line at most once a second (at the next line or
 * http_ratelog_tick()). Any thread. */
#ifndef DROPJUDGE_HTTP_RATELOG_H
#define DROPJUDGE_HTTP_RATELOG_H

#include <stdbool.h>

/* Lines written in one second before the rest are only counted. */
#define RATELOG_BURST 10

/* Writes stderr lines as JSON {"time","level","event","msg"} (true) or as
 * "dropjudge: <message>" (false, the start). Set before any thread logs. */
void http_ratelog_set_json(bool json);

/* Writes "dropjudge: <message>", or its JSON line (level "warn", `event` such as
 * "libmicrohttpd", "connections"), unless over the rate; a trailing newline is dropped. */
void http_ratelog_event(const char *event, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Writes one line on stderr now, not rate-limited, with `level` ("info",
 * "warn", "error") and `event` in JSON. */
void http_stderr_line(const char *level, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes the suppressed count when a second has passed since the last (the watchdog calls it). */
void http_ratelog_tick(void);

/* Lines suppressed since the start (for tests and metrics). */
unsigned long long http_ratelog_suppressed_total(void);

#endif
