/* What the HTTP layer records of each request: its id (X-Request-Id: taken
 * when sane, generated otherwise, and echoed in the answer's header, the
 * access log and every problem body), its timing, and at its completion the
 * metrics and the access log line. */
#ifndef DROPJUDGE_HTTP_OBSERVE_H
#define DROPJUDGE_HTTP_OBSERVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <microhttpd.h>

#include "http/accesslog.h"
#include "http/metrics.h"
#include "route/route.h"

/* Longest id taken from a request, in characters. */
#define HTTP_REQUEST_ID_MAX 128
/* Characters of a generated id: 128 bits in lowercase hex. */
#define HTTP_REQUEST_ID_GENERATED 32

/* Whether `s` is a sane id: 1..HTTP_REQUEST_ID_MAX characters of [A-Za-z0-9._:-]. NULL is not. */
bool http_request_id_is_sane(const char *s);

/* Writes a new id, 128 bits as 32 lowercase hex digits and a NUL, to out: a thread never repeats
 * one, and ids of different threads and processes meet no more often than random ones. Not a
 * secret. Never fails. */
void http_request_id_generate(char out[HTTP_REQUEST_ID_GENERATED + 1]);

/* Writes to out the id for X-Request-Id `header` (NULL: none): a copy when sane, else a new one. */
void http_request_id_take(const char *header, char out[HTTP_REQUEST_ID_MAX + 1]);

/* Where observations go; either may be NULL. Not owned. */
struct http_observer {
	struct http_metrics *metrics;
	struct http_accesslog *log;
};

/* One request being observed, inside the server's per-request state. */
struct http_observed {
	char request_id[HTTP_REQUEST_ID_MAX + 1]; /* taken or generated at the start */
	long long start_ns;			  /* http_clock_ns() at the start */
	/* Access line and metrics, filled as it goes (libmicrohttpd's strings, valid till done). */
	struct http_access_entry line;
	struct route_tally tally; /* cases and verdicts the handlers counted */
};

/* The request's headers are in: takes its id from `request_id` (its
 * X-Request-Id, NULL when absent) or makes one, starts its clock. */
void http_observe_begin(const struct http_observer *ob, struct http_observed *o, const char *url,
			const char *method, const char *request_id, const char *user_agent);

/* Adds "request_id" last to a problem+json body that has none; else (or out of memory) as is. */
void http_observe_stamp(const struct http_observed *o, struct route_response *resp);

/* Its answer was queued with `status`, from route `route`, `body_len` bytes. */
void http_observe_answer(struct http_observed *o, unsigned status, const char *route,
			 size_t body_len);

/* It is complete (answered, cut or timed out) at `now_ns`: counts it and logs its line. */
void http_observe_end(const struct http_observer *ob, struct http_observed *o,
		      struct MHD_Connection *conn, uint64_t bytes_in, long long now_ns);

/* The client's address bytes into addr; their count (4, 16), 0 when unknown. */
unsigned char http_client_address(struct MHD_Connection *conn, unsigned char addr[16]);

#endif
