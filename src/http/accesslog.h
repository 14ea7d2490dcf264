/* The access log: one line per request on a file descriptor (stdout), JSON by default, plain
 * text, or nothing; the start, drain and stop lines go the same way. A request formats its line
 * on its own thread and puts it whole into a bounded queue, or drops and counts it when the
 * queue is full: requests never wait for the log's reader, and a line is never cut. One writer
 * thread writes the queue out in order, so lines never interleave. */
#ifndef DROPJUDGE_HTTP_ACCESSLOG_H
#define DROPJUDGE_HTTP_ACCESSLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

enum http_log_format {
	HTTP_LOG_JSON, /* one JSON object a line */
	HTTP_LOG_TEXT, /* one space-separated line, as web servers write */
	HTTP_LOG_OFF,  /* no access lines; start, drain and stop lines as text */
};

/* Bytes of lines the queue holds: a burst of a few thousand requests. */
#define HTTP_ACCESSLOG_BUFFER ((size_t)4 << 20)

/* Bytes of the longest line, its newline included, plus one. */
#define HTTP_ACCESSLOG_LINE_MAX 4096

/* One request, as the access line shows it; strings not owned. The id, the address and the
 * route are written as they are (nothing in them to escape); method, path and user agent are
 * escaped and cut after their first KiB (at a character). */
struct http_access_entry {
	struct timespec start;	/* CLOCK_REALTIME when its headers arrived */
	const char *request_id; /* the X-Request-Id answered (http_request_id_take) */
	const char *client;	/* client address, e.g. "127.0.0.1"; NULL: "-" */
	const char *method;	/* as received */
	const char *route;	/* route table name; NULL: "-" */
	const char *path;	/* as received, without the query */
	const char *user_agent; /* User-Agent header; NULL when absent */
	unsigned status;	/* HTTP status sent; 0: none (connection cut) */
	uint64_t bytes_in;	/* request body bytes received */
	uint64_t bytes_out;	/* response body bytes sent */
	uint64_t duration_ns;	/* from its headers to its completion */
};

struct http_accesslog;

/* Parses "json", "text" or "off" into *format; false (*format left) else. */
bool http_log_format_parse(const char *text, enum http_log_format *format);

/* A log writing to fd (not closed by the log) through a queue of `buffer` bytes (at least
 * HTTP_ACCESSLOG_LINE_MAX), its writer thread started; a pipe is grown to 1 MiB where the kernel
 * allows. NULL when out of memory or threads. Released with http_accesslog_free(). */
struct http_accesslog *http_accesslog_new(enum http_log_format format, int fd, size_t buffer);

/* The format the log was made with. */
enum http_log_format http_accesslog_format(const struct http_accesslog *log);

/* Logs one request (nothing when off), or drops and counts a line that does not fit the queue
 * or HTTP_ACCESSLOG_LINE_MAX. Any thread; NULL log is ignored. */
void http_accesslog_request(struct http_accesslog *log, const struct http_access_entry *e);

/* Formats the line of e in `format` into the caller's buf: its length, without a NUL, under
 * both cap and HTTP_ACCESSLOG_LINE_MAX; 0 when it does not fit or the format is off. */
size_t http_accesslog_line(enum http_log_format format, const struct http_access_entry *e,
			   char *buf, size_t cap);

/* Logs a line of the process's life, `event` ("start", "drain", "stop", "error") and `message`:
 * in JSON mode {"time","level","event","msg"} on the log's fd, waiting for room; otherwise (or
 * NULL log) `message` as it is on `text_fd`. From the main thread. */
void http_accesslog_event(struct http_accesslog *log, const char *event, const char *message,
			  int text_fd);

/* Formats the JSON line {"time","level","event","msg"} and a newline into
 * the caller's buf: its length, without a NUL; 0 when it does not fit. */
size_t http_log_json_line(const char *level, const char *event, const char *message, char *buf,
			  size_t cap);

/* Request lines dropped so far (the queue was full, or the line too long). Any thread. */
uint64_t http_accesslog_dropped(struct http_accesslog *log);

/* Writes out every line still queued, stops the writer and releases the
 * log; no thread may log through it any more. NULL is ignored. */
void http_accesslog_free(struct http_accesslog *log);

#endif
