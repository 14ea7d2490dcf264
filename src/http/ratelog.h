/*
 * Error lines on stderr, rate-limited: a flood of bad requests must not
 * become a flood of log lines. At most RATELOG_BURST lines are written in
 * any one second; the ones past that are counted, and the count is
 * written as one line ("... N lines suppressed") at most once a second,
 * when the next line is logged or http_ratelog_tick() runs. Safe to call
 * from any thread.
 */
#ifndef DROPJUDGE_HTTP_RATELOG_H
#define DROPJUDGE_HTTP_RATELOG_H

#include <stdarg.h>
#include <stdbool.h>

/* Lines written in one second before the rest are only counted. */
#define RATELOG_BURST 10

/*
 * How stderr lines are written: JSON true, one object a line,
 * {"time","level","event","msg"} as the event lines of the access log
 * (accesslog.h); false (the start), "dropjudge: <message>". Set once by
 * the server from --log-format (json: true) before any thread logs.
 */
void http_ratelog_set_json(bool json);

/* Writes "dropjudge: <message>\n", or its JSON line (level "warn",
 * event "server"), unless over the rate; a trailing newline in the message
 * is dropped. */
void http_ratelog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void http_ratelog_v(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* http_ratelog() with the JSON line's `event` given ("libmicrohttpd",
 * "connections"). */
void http_ratelog_event(const char *event, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Writes one line on stderr now, not rate-limited (a signal, a reload, a
 * start that fails): "dropjudge: <message>" or its JSON line with `level`
 * ("info", "warn", "error") and `event`. Any thread. */
void http_stderr_line(const char *level, const char *event, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Writes the count of suppressed lines when a second has passed since the
 * last count; call it now and then (the connection watchdog does). */
void http_ratelog_tick(void);

/* Lines suppressed since the start (for tests and metrics). */
unsigned long long http_ratelog_suppressed_total(void);

#endif
