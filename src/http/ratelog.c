/* The rate-limited log of ratelog.h: one-second windows of RATELOG_BURST lines, under a mutex. */
#include "http/ratelog.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "http/accesslog.h"
#include "http/clock.h"

/* Bytes of one message, and of its JSON line (escapes and fields). */
#define RATELOG_LINE_MAX 512
#define RATELOG_JSON_MAX (6 * RATELOG_LINE_MAX + 160)

static pthread_mutex_t ratelog_lock = PTHREAD_MUTEX_INITIALIZER;
static long long ratelog_window_ms;	   /* start of the current window */
static unsigned ratelog_written;	   /* lines written in the window */
static unsigned long long ratelog_pending; /* suppressed, not yet reported */
static unsigned long long ratelog_total;   /* suppressed since the start */
static bool ratelog_json;		   /* lines as JSON (--log-format json) */

void http_ratelog_set_json(bool json)
{
	ratelog_json = json; /* before any thread logs */
}

/* Writes one line of `message` on stderr in the format set; lock held. */
static void ratelog_write_locked(const char *level, const char *event, const char *message)
{
	if (!ratelog_json) {
		fprintf(stderr, "dropjudge: %s\n", message);
		return;
	}
	char line[RATELOG_JSON_MAX];
	size_t n = http_log_json_line(level, event, message, line, sizeof line);
	if (n > 0)
		fwrite(line, 1, n, stderr);
}

/* Writes the count of lines suppressed once their window has ended; lock held. */
static void ratelog_report_locked(long long now)
{
	if (ratelog_pending == 0 || now - ratelog_window_ms < 1000)
		return;
	char message[96];
	snprintf(message, sizeof message, "%llu log lines suppressed (more than %d a second)",
		 ratelog_pending, RATELOG_BURST);
	ratelog_write_locked("warn", "log", message);
	ratelog_pending = 0;
}

void http_ratelog_event(const char *event, const char *fmt, ...)
{
	va_list ap;
	char line[RATELOG_LINE_MAX];
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	size_t n = strlen(line);
	while (n > 0 && line[n - 1] == '\n')
		line[--n] = '\0';

	long long now = http_clock_ms();
	pthread_mutex_lock(&ratelog_lock);
	ratelog_report_locked(now);
	if (now - ratelog_window_ms >= 1000) {
		ratelog_window_ms = now;
		ratelog_written = 0;
	}
	if (ratelog_written < RATELOG_BURST) {
		ratelog_written++;
		ratelog_write_locked("warn", event, line);
	} else {
		ratelog_pending++;
		ratelog_total++;
	}
	pthread_mutex_unlock(&ratelog_lock);
}

void http_stderr_line(const char *level, const char *event, const char *fmt, ...)
{
	char line[RATELOG_LINE_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&ratelog_lock);
	ratelog_write_locked(level, event, line);
	fflush(stderr);
	pthread_mutex_unlock(&ratelog_lock);
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
