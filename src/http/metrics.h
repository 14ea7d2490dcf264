/* Prometheus metrics of the service (the families are listed in docs/OPERATING.md), counted on
 * the request path without a lock and rendered as the text exposition format 0.0.4 at scrape
 * time. Every series is an atomic counter in a fixed table, found by its labels; label values
 * are never copied, so they must outlive the metrics (route names, problem ids, verdict names;
 * methods are mapped to a fixed set): a client cannot grow the label set. An observation that
 * finds its table full is counted in dropjudge_metrics_series_overflow_total instead. */
#ifndef DROPJUDGE_HTTP_METRICS_H
#define DROPJUDGE_HTTP_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "http/accesslog.h"

/* Upper bounds of the duration histogram's buckets (+Inf aside). */
#define HTTP_METRICS_BUCKETS 17

struct http_metrics;

/* A new, zeroed set of metrics, `version` (copied) its build_info label;
 * NULL when out of memory. Released with http_metrics_free(). */
struct http_metrics *http_metrics_new(const char *version);

/* Releases the metrics; NULL is ignored. No thread may still count. */
void http_metrics_free(struct http_metrics *m);

/* A request's headers have arrived: in flight until http_metrics_request_done(). */
void http_metrics_request_started(struct http_metrics *m);

/* Requests started and not yet done. Any thread. */
long long http_metrics_in_flight(struct http_metrics *m);

/* A request is over: counted by its route (NULL: "unknown"; it must outlive the metrics), method
 * (NULL or unknown: "other") and status, its bytes and duration added; no longer in flight. */
void http_metrics_request_done(struct http_metrics *m, const struct http_access_entry *r);

/* A connection was accepted (+1) or closed (-1). */
void http_metrics_connection(struct http_metrics *m, int delta);

/* `n` cases of `problem` ended with `outcome` ("solved", "rejected"). */
void http_metrics_cases(struct http_metrics *m, const char *problem, const char *outcome,
			uint64_t n);

/* `n` judge verdicts `verdict` ("accepted", ...) for `problem`. */
void http_metrics_verdicts(struct http_metrics *m, const char *problem, const char *verdict,
			   uint64_t n);

/* What the server holds, read at scrape time. */
struct http_metrics_held {
	uint64_t cache_hits;   /* package cache: answers found */
	uint64_t cache_misses; /* package cache: answers looked for and not found */
	uint64_t cache_bytes;  /* package cache: bytes of bodies kept now */
	uint64_t answer_bytes; /* bytes of answers built and not yet sent */
};

/* The exposition text, `log_dropped` the access log's drop count and `held` the server's figures
 * (NULL: their series are left out): a string the caller frees, its length in *len; NULL when
 * out of memory. Safe while other threads count (a histogram's count equals its +Inf bucket). */
char *http_metrics_render(struct http_metrics *m, uint64_t log_dropped,
			  const struct http_metrics_held *held, size_t *len);

#endif
