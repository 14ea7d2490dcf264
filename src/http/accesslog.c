/* The access log of accesslog.h: each line formatted on the request's
 * stack, copied whole into a ring of bytes under the log's mutex. */
#define _GNU_SOURCE /* F_GETPIPE_SZ, F_SETPIPE_SZ */

#include "http/accesslog.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mem/alloc.h"

#include "codec/decimal.h"
#include "codec/error.h"

/* Most bytes of one path, method or user agent taken, before escaping. */
#define AL_FIELD_MAX 1024

/* Lines gather this long (unless a quarter of the queue waits): one write carries many. */
static const struct timespec al_gather = {.tv_sec = 0, .tv_nsec = 10000000};

/* Most bytes of one write, so that room comes back a piece at a time. */
#define AL_WRITE_MAX ((size_t)64 << 10)

struct http_accesslog {
	enum http_log_format format;
	int fd;		      /* not owned; written by the writer thread only */
	pthread_mutex_t mu;   /* guards the fields below */
	pthread_cond_t ready; /* lines wait in the queue, or stopping */
	pthread_cond_t room;  /* the writer freed room in the queue */
	size_t cap;	      /* bytes of ring, at least HTTP_ACCESSLOG_LINE_MAX */
	size_t head;	      /* offset in ring of the oldest byte not yet written, < cap */
	size_t len;	      /* bytes queued from head (wrapping), <= cap */
	bool writer_idle;     /* the writer waits on `ready` */
	bool stopping;	      /* free has begun: write what is left, then end */
	uint64_t dropped;     /* request lines that did not fit */
	pthread_t thread;     /* the writer */
	char ring[];	      /* the queue: cap bytes, lines in order from head */
};

bool http_log_format_parse(const char *text, enum http_log_format *format)
{
	static const char *const names[] = {
	    [HTTP_LOG_JSON] = "json", [HTTP_LOG_TEXT] = "text", [HTTP_LOG_OFF] = "off"};
	for (size_t i = 0; text && i < sizeof names / sizeof names[0]; i++)
		if (strcmp(text, names[i]) == 0) {
			*format = (enum http_log_format)i;
			return true;
		}
	return false;
}

/* --- one line ------------------------------------------------------------- */

/* A line being written into `cap` bytes at s; an append that does not fit
 * (a byte is always kept free) marks it `full`, and it is not used. */
struct al_line {
	char *s;
	size_t len; /* bytes written, < cap */
	size_t cap;
	bool full;
};

static void al_put(struct al_line *l, const char *s, size_t n)
{
	if (l->full || n >= l->cap - l->len) {
		l->full = true;
		return;
	}
	memcpy(l->s + l->len, s, n);
	l->len += n;
}

/* Appends a string literal. */
#define AL_LIT(l, lit) al_put((l), (lit), sizeof(lit) - 1)

/* Appends v in decimal, at least `width` (<= 3) digits, zeros in front. */
static void al_uint(struct al_line *l, uint64_t v, unsigned width)
{
	char digits[CODEC_DECIMAL_MAX];
	size_t n = codec_decimal_write(v, digits);
	if (n < width)
		al_put(l, "000", width - n);
	al_put(l, digits, n);
}

/* Appends a duration in milliseconds with three decimals: "1.234". */
static void al_millis(struct al_line *l, uint64_t ns)
{
	al_uint(l, ns / 1000000u, 1);
	AL_LIT(l, ".");
	al_uint(l, ns / 1000u % 1000u, 3);
}

/* Appends RFC 3339 UTC time with milliseconds: 2026-01-31T12:34:56.789Z. Each thread formats a
 * second once: gmtime_r() takes glibc's time zone lock, which every request would queue on. */
static void al_time(struct al_line *l, const struct timespec *ts)
{
	static _Thread_local time_t sec;
	static _Thread_local char text[64]; /* room for any year */
	static _Thread_local size_t len;    /* 0: nothing formatted yet */
	if (len == 0 || sec != ts->tv_sec) {
		struct tm tm;
		if (!gmtime_r(&ts->tv_sec, &tm))
			memset(&tm, 0, sizeof tm);
		int n =
		    snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.", tm.tm_year + 1900,
			     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
		len = n > 0 && (size_t)n < sizeof text ? (size_t)n : 0;
		sec = ts->tv_sec;
	}
	al_put(l, text, len);
	al_uint(l, (uint64_t)ts->tv_nsec / 1000000u, 3);
	AL_LIT(l, "Z");
}

/* Appends byte c as `prefix` and two lowercase hexadecimal digits. */
static void al_hex(struct al_line *l, const char *prefix, unsigned char c)
{
	static const char digits[] = "0123456789abcdef";
	al_put(l, prefix, strlen(prefix));
	al_put(l, &digits[c >> 4], 1);
	al_put(l, &digits[c & 15], 1);
}

/* Appends the first AL_FIELD_MAX bytes of s (a character that starts within them whole),
 * escaped: '"' and '\\' after a backslash; controls and DEL as \u00hh in JSON, \xhh in text; a
 * byte that starts no valid UTF-8 character as \ufffd in JSON, \xhh in text. */
static void al_string(struct al_line *l, const char *s, bool json)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strnlen(s, AL_FIELD_MAX);
	for (size_t taken = 0; taken < len && !l->full;) {
		size_t n = 0; /* printable ASCII, the common case, copied as one run */
		while (taken + n < len && u[taken + n] >= 0x20 && u[taken + n] < 0x7f &&
		       u[taken + n] != '"' && u[taken + n] != '\\')
			n++;
		if (n > 0) {
			al_put(l, s + taken, n);
			taken += n;
			continue;
		}
		n = codec_utf8_char_len(u + taken);
		unsigned char c = u[taken];
		if (n == 0) {
			if (json)
				AL_LIT(l, "\\ufffd");
			else
				al_hex(l, "\\x", c);
			n = 1;
		} else if (c == '"' || c == '\\') {
			AL_LIT(l, "\\");
			al_put(l, (const char *)&c, 1);
		} else if (c < 0x20 || c == 0x7f) {
			al_hex(l, json ? "\\u00" : "\\x", c);
		} else {
			al_put(l, (const char *)u + taken, n);
		}
		taken += n;
	}
}

/* Appends a field that never needs escaping as it is; NULL as `absent`. */
static void al_word(struct al_line *l, const char *s, const char *absent)
{
	s = s ? s : absent;
	al_put(l, s, strlen(s));
}

static void al_format_json(struct al_line *l, const struct http_access_entry *e)
{
	AL_LIT(l, "{\"time\":\"");
	al_time(l, &e->start);
	AL_LIT(l, "\",\"request_id\":\"");
	al_word(l, e->request_id, "");
	AL_LIT(l, "\",\"client\":\"");
	al_word(l, e->client, "-");
	AL_LIT(l, "\",\"method\":\"");
	al_string(l, e->method ? e->method : "", true);
	AL_LIT(l, "\",\"route\":\"");
	al_word(l, e->route, "-");
	AL_LIT(l, "\",\"path\":\"");
	al_string(l, e->path ? e->path : "", true);
	AL_LIT(l, "\",\"status\":");
	al_uint(l, e->status, 1);
	AL_LIT(l, ",\"bytes_in\":");
	al_uint(l, e->bytes_in, 1);
	AL_LIT(l, ",\"bytes_out\":");
	al_uint(l, e->bytes_out, 1);
	AL_LIT(l, ",\"duration_ms\":");
	al_millis(l, e->duration_ns);
	if (e->user_agent) {
		AL_LIT(l, ",\"user_agent\":\"");
		al_string(l, e->user_agent, true);
		AL_LIT(l, "\"}\n");
	} else {
		AL_LIT(l, ",\"user_agent\":null}\n");
	}
}

static void al_format_text(struct al_line *l, const struct http_access_entry *e)
{
	al_time(l, &e->start);
	AL_LIT(l, " ");
	al_word(l, e->request_id, "-");
	AL_LIT(l, " ");
	al_word(l, e->client, "-");
	AL_LIT(l, " \"");
	al_string(l, e->method ? e->method : "", false);
	AL_LIT(l, " ");
	al_string(l, e->path ? e->path : "", false);
	AL_LIT(l, "\" ");
	al_uint(l, e->status, 1);
	AL_LIT(l, " ");
	al_uint(l, e->bytes_in, 1);
	AL_LIT(l, " ");
	al_uint(l, e->bytes_out, 1);
	AL_LIT(l, " ");
	al_millis(l, e->duration_ns);
	AL_LIT(l, "ms ");
	al_word(l, e->route, "-");
	AL_LIT(l, " \"");
	al_string(l, e->user_agent ? e->user_agent : "-", false);
	AL_LIT(l, "\"\n");
}

size_t http_accesslog_line(enum http_log_format format, const struct http_access_entry *e,
			   char *buf, size_t cap)
{
	struct al_line l = {.s = buf, .len = 0};
	l.cap = cap < HTTP_ACCESSLOG_LINE_MAX ? cap : HTTP_ACCESSLOG_LINE_MAX;
	if (format == HTTP_LOG_JSON)
		al_format_json(&l, e);
	else if (format == HTTP_LOG_TEXT)
		al_format_text(&l, e);
	else
		return 0;
	return l.full ? 0 : l.len;
}

/* --- the queue and its writer -------------------------------------------- */

/* Writes all n bytes, unless fd fails (then the rest is lost). */
static void al_write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* Appends the n bytes of a line (0: none, it did not fit) to the queue and
 * wakes the writer if it waits; a request's line (!wait) that finds no
 * room is dropped and counted, an event waits for room until the log stops. */
static void al_queue_put(struct http_accesslog *log, const char *s, size_t n, bool wait)
{
	pthread_mutex_lock(&log->mu);
	while (wait && n > log->cap - log->len && !log->stopping)
		pthread_cond_wait(&log->room, &log->mu);
	if (n == 0 || n > log->cap - log->len) {
		log->dropped += !wait;
	} else {
		size_t at = (log->head + log->len) % log->cap;
		size_t first = n < log->cap - at ? n : log->cap - at;
		memcpy(log->ring + at, s, first);
		memcpy(log->ring, s + first, n - first);
		log->len += n;
		if (log->writer_idle)
			pthread_cond_signal(&log->ready);
	}
	pthread_mutex_unlock(&log->mu);
}

/* The writer thread: once lines wait, lets more gather, then writes the queue from head, at most
 * AL_WRITE_MAX bytes at a time and never across the ring's end; the bytes stay queued until
 * written (or failed). Ends, with the queue empty, once the log stops. */
static void *al_writer(void *arg)
{
	struct http_accesslog *log = arg;
	pthread_mutex_lock(&log->mu);
	for (;;) {
		while (log->len == 0 && !log->stopping) {
			log->writer_idle = true;
			pthread_cond_wait(&log->ready, &log->mu);
			log->writer_idle = false;
		}
		if (log->len == 0)
			break; /* stopping, and all written */
		if (!log->stopping && log->len < log->cap / 4) {
			pthread_mutex_unlock(&log->mu);
			nanosleep(&al_gather, NULL);
			pthread_mutex_lock(&log->mu);
		}
		const char *p = log->ring + log->head;
		size_t n = log->len < log->cap - log->head ? log->len : log->cap - log->head;
		n = n < AL_WRITE_MAX ? n : AL_WRITE_MAX;
		pthread_mutex_unlock(&log->mu);
		al_write_all(log->fd, p, n);
		pthread_mutex_lock(&log->mu);
		log->head = (log->head + n) % log->cap;
		log->len -= n;
		pthread_cond_broadcast(&log->room);
	}
	pthread_mutex_unlock(&log->mu);
	return NULL;
}

/* Grows a pipe fd to AL_PIPE bytes, so a reader behind for a moment drops no lines; best effort. */
#define AL_PIPE (1 << 20)
static void al_grow_pipe(int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
		return;
	int size = fcntl(fd, F_GETPIPE_SZ);
	if (size >= 0 && size < AL_PIPE)
		(void)fcntl(fd, F_SETPIPE_SZ, AL_PIPE);
}

struct http_accesslog *http_accesslog_new(enum http_log_format format, int fd, size_t buffer)
{
	size_t cap = buffer < HTTP_ACCESSLOG_LINE_MAX ? HTTP_ACCESSLOG_LINE_MAX : buffer;
	struct http_accesslog *log = dj_malloc(sizeof *log + cap); /* the ring left untouched */
	if (!log)
		return NULL;
	*log = (struct http_accesslog){.format = format, .fd = fd, .cap = cap};
	if (pthread_mutex_init(&log->mu, NULL) != 0)
		goto out_log;
	if (pthread_cond_init(&log->ready, NULL) != 0)
		goto out_mutex;
	if (pthread_cond_init(&log->room, NULL) != 0)
		goto out_ready;
	if (format != HTTP_LOG_OFF)
		al_grow_pipe(fd);
	if (pthread_create(&log->thread, NULL, al_writer, log) == 0)
		return log;
	pthread_cond_destroy(&log->room);
out_ready:
	pthread_cond_destroy(&log->ready);
out_mutex:
	pthread_mutex_destroy(&log->mu);
out_log:
	dj_free(log);
	return NULL;
}

enum http_log_format http_accesslog_format(const struct http_accesslog *log)
{
	return log ? log->format : HTTP_LOG_OFF;
}

void http_accesslog_request(struct http_accesslog *log, const struct http_access_entry *e)
{
	if (!log || log->format == HTTP_LOG_OFF)
		return;
	char line[HTTP_ACCESSLOG_LINE_MAX];
	al_queue_put(log, line, http_accesslog_line(log->format, e, line, sizeof line), false);
}

size_t http_log_json_line(const char *level, const char *event, const char *message, char *buf,
			  size_t cap)
{
	struct al_line l = {.s = buf, .cap = cap};
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	AL_LIT(&l, "{\"time\":\"");
	al_time(&l, &now);
	AL_LIT(&l, "\",\"level\":\"");
	al_string(&l, level, true);
	AL_LIT(&l, "\",\"event\":\"");
	al_string(&l, event, true);
	AL_LIT(&l, "\",\"msg\":\"");
	al_string(&l, message, true);
	AL_LIT(&l, "\"}\n");
	return l.full ? 0 : l.len;
}

void http_accesslog_event(struct http_accesslog *log, const char *event, const char *message,
			  int text_fd)
{
	if (!log || log->format != HTTP_LOG_JSON) {
		al_write_all(text_fd, message, strlen(message));
		al_write_all(text_fd, "\n", 1);
		return;
	}
	char text[HTTP_ACCESSLOG_LINE_MAX];
	size_t n = http_log_json_line(strcmp(event, "error") == 0 ? "error" : "info", event,
				      message, text, sizeof text);
	al_queue_put(log, text, n, true);
}

uint64_t http_accesslog_dropped(struct http_accesslog *log)
{
	if (!log)
		return 0;
	pthread_mutex_lock(&log->mu);
	uint64_t dropped = log->dropped;
	pthread_mutex_unlock(&log->mu);
	return dropped;
}

void http_accesslog_free(struct http_accesslog *log)
{
	if (!log)
		return;
	pthread_mutex_lock(&log->mu);
	log->stopping = true;
	pthread_cond_signal(&log->ready);
	pthread_mutex_unlock(&log->mu);
	pthread_join(log->thread, NULL);
	pthread_cond_destroy(&log->room);
	pthread_cond_destroy(&log->ready);
	pthread_mutex_destroy(&log->mu);
	dj_free(log);
}
