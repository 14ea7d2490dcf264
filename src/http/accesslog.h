/*
 * The access log: one line per request on a file descriptor (stdout),
 * JSON by default, plain text, or nothing; the process's start, drain and
 * stop lines go the same way, so that in JSON mode every line of stdout
 * is one JSON object.
 *
 * Requests never wait for the log's reader: a request formats its line on
 * its own thread and puts it whole into a bounded queue, or, when the queue
 * has no room for it (the reader of stdout is slower than the requests),
 * drops it and counts it; a line is never cut. One writer thread writes the
 * queue out in order, so lines never interleave, the lines of one thread
 * keep their order, and an event line comes after every line logged before
 * it.
 */
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

/* Bytes of lines the queue holds; a request line that finds it full is
 * dropped. A burst of a few thousand requests with long paths fits while
 * the reader of stdout is busy elsewhere (memory is touched as it fills). */
#define HTTP_ACCESSLOG_BUFFER ((size_t)4 << 20)

/* Bytes of the longest line, its newline included, plus one. */
#define HTTP_ACCESSLOG_LINE_MAX 4096

/* One request, as the access line shows it. Strings are not owned. The id,
 * the address and the route are written as they are, in either format
 * (a sane id of request_id.h, an address as text, a route table name:
 * nothing in them to escape); method, path and user agent are escaped and
 * cut after their first KiB (at a character). */
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

/*
 * Parses "json", "text" or "off" into *format. Returns false (and leaves
 * *format) for anything else.
 */
bool http_log_format_parse(const char *text, enum http_log_format *format);

/*
 * A log writing to fd (not closed by the log) through a queue of `buffer`
 * bytes (at least HTTP_ACCESSLOG_LINE_MAX), with its writer thread started.
 * When fd is a pipe and the log is not off, the pipe is grown to hold 1 MiB
 * where the kernel allows it. Returns NULL, with nothing started, when out
 * of memory or when the thread cannot start. The caller owns the log and
 * releases it with http_accesslog_free().
 */
struct http_accesslog *http_accesslog_new(enum http_log_format format, int fd, size_t buffer);

/* The format the log was made with. */
enum http_log_format http_accesslog_format(const struct http_accesslog *log);

/*
 * Logs one request (nothing with HTTP_LOG_OFF). Never waits for the
 * writer's fd: a line that does not fit in the queue, or is longer than
 * HTTP_ACCESSLOG_LINE_MAX, is dropped and counted. e is only read during
 * the call. Any thread; NULL log is ignored.
 */
void http_accesslog_request(struct http_accesslog *log, const struct http_access_entry *e);

/*
 * Formats the line of e in `format` (JSON or text) into buf, which the
 * caller owns: its length, without a NUL, less than both cap and
 * HTTP_ACCESSLOG_LINE_MAX; 0 when the whole line does not fit or the format
 * is off (buf may then hold part of it, and a request line is dropped).
 * Any thread.
 */
size_t http_accesslog_line(enum http_log_format format, const struct http_access_entry *e,
			   char *buf, size_t cap);

/*
 * Logs a line of the process's life: `event` ("start", "drain", "stop",
 * "error") and `message`. In JSON mode it is {"time","level","event","msg"}
 * on the log's fd; otherwise `message` as it is, on `text_fd`. Unlike
 * request lines it waits for room rather than being dropped. Called from
 * the main thread; NULL log writes the text to text_fd.
 */
void http_accesslog_event(struct http_accesslog *log, const char *event, const char *message,
			  int text_fd);

/*
 * Formats one JSON log line, {"time","level","event","msg"} and a newline,
 * the shape of the event lines, into buf (the caller's, cap bytes): its
 * length, without a NUL; 0 when it does not fit. Any thread.
 */
size_t http_log_json_line(const char *level, const char *event, const char *message, char *buf,
			  size_t cap);

/* Request lines dropped so far (the queue was full, or the line too long). Any thread. */
uint64_t http_accesslog_dropped(struct http_accesslog *log);

/* Writes out every line still queued (waiting for the fd as long as it
 * takes), stops the writer thread and releases the log. No thread may log
 * through it once this has begun. NULL is ignored. */
void http_accesslog_free(struct http_accesslog *log);

#endif
