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

/* Lines written in one second before the rest are only counted. */
#define RATELOG_BURST 10

/* Writes "dropjudge: <message>\n" unless over the rate; a trailing
 * newline in the message is dropped. */
void http_ratelog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void http_ratelog_v(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Writes the count of suppressed lines when a second has passed since the
 * last count; call it now and then (the connection watchdog does). */
void http_ratelog_tick(void);

/* Lines suppressed since the start (for tests and metrics). */
unsigned long long http_ratelog_suppressed_total(void);

#endif
