/*
 * The rate-limited error log: a window of one second with a budget of
 * RATELOG_BURST lines, under one mutex. See ratelog.h.
 */
#include "http/ratelog.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "http/clock.h"

static pthread_mutex_t ratelog_lock = PTHREAD_MUTEX_INITIALIZER;
static long long ratelog_window_ms;		/* start of the current window */
static unsigned ratelog_written;		/* lines written in the window */
static unsigned long long ratelog_pending;	/* suppressed, not yet reported */
static unsigned long long ratelog_total;	/* suppressed since the start */
static long long ratelog_reported_ms = -100000; /* last count written */

/* Writes the pending count once a second at most; lock held. */
static void ratelog_report_locked(long long now)
{
	if (ratelog_pending == 0 || now - ratelog_reported_ms < 1000)
		return;
	fprintf(stderr, "dropjudge: %llu log lines suppressed (more than %d a second)\n",
		ratelog_pending, RATELOG_BURST);
	ratelog_pending = 0;
	ratelog_reported_ms = now;
}

void http_ratelog_v(const char *fmt, va_list ap)
{
	char line[512];
	vsnprintf(line, sizeof line, fmt, ap);
	size_t n = strlen(line);
	while (n > 0 && line[n - 1] == '\n')
		line[--n] = '\0';

	long long now = http_clock_ms();
	pthread_mutex_lock(&ratelog_lock);
	if (now - ratelog_window_ms >= 1000) {
		ratelog_window_ms = now;
		ratelog_written = 0;
	}
	ratelog_report_locked(now);
	if (ratelog_written < RATELOG_BURST) {
		ratelog_written++;
		fprintf(stderr, "dropjudge: %s\n", line);
	} else {
		ratelog_pending++;
		ratelog_total++;
	}
	pthread_mutex_unlock(&ratelog_lock);
}

void http_ratelog(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	http_ratelog_v(fmt, ap);
	va_end(ap);
}

void http_ratelog_tick(void)
{
	long long now = http_clock_ms();
	pthread_mutex_lock(&ratelog_lock);
	ratelog_report_locked(now);
	pthread_mutex_unlock(&ratelog_lock);
}

unsigned long long http_ratelog_suppressed_total(void)
{
	pthread_mutex_lock(&ratelog_lock);
	unsigned long long n = ratelog_total;
	pthread_mutex_unlock(&ratelog_lock);
	return n;
}
