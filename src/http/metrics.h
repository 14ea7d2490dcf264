/*
 * Prometheus metrics of the service, counted on the request path without
 * a lock and rendered as the text exposition format 0.0.4 at scrape time.
 *
 * Every series is an atomic counter in a fixed table, found by its labels
 * through open addressing; a new label combination claims a slot with one
 * compare-and-swap. Label values are never copied: they must be strings
 * that outlive the metrics (the route table's names, the problems' ids,
 * the verdicts' names; methods are mapped here to a fixed set), so that a
 * client cannot grow the label set. When a table is full the observation
 * is counted in dropjudge_metrics_series_overflow_total instead.
 *
 * Families (see README, "Operating"):
 *   dropjudge_http_requests_total{route,method,code}         counter
 *   dropjudge_http_request_duration_seconds{route}           histogram, 50 us .. 10 s
 *   dropjudge_http_requests_in_flight                        gauge
 *   dropjudge_http_request_bytes_total{route}                counter, body bytes received
 *   dropjudge_http_response_bytes_total{route}               counter, body bytes sent
 *   dropjudge_http_connections_open                          gauge
 *   dropjudge_http_connections_total                         counter
 *   dropjudge_cases_total{problem,outcome}                   counter
 *   dropjudge_judge_verdicts_total{problem,verdict}          counter
 *   dropjudge_access_log_dropped_total                       counter
 *   dropjudge_package_cache_hits_total                       counter
 *   dropjudge_package_cache_misses_total                     counter
 *   dropjudge_package_cache_bytes                            gauge
 *   dropjudge_answer_bytes_held                              gauge, of --answer-memory
 *   dropjudge_build_info{version}                            gauge, always 1
 */
#ifndef DROPJUDGE_HTTP_METRICS_H
#define DROPJUDGE_HTTP_METRICS_H

#include <stddef.h>
#include <stdint.h>

/* Upper bounds of the duration histogram's buckets (+Inf aside). */
#define HTTP_METRICS_BUCKETS 17

struct http_metrics;

/* One finished request, as the HTTP layer saw it. */
struct http_metrics_request {
	const char *route;    /* route table name (outlives the metrics); NULL: "unknown" */
	const char *method;   /* as received, any string; NULL: "other" */
	unsigned status;      /* HTTP status sent, 100..599; 0: none was sent */
	uint64_t bytes_in;    /* request body bytes received */
	uint64_t bytes_out;   /* response body bytes queued */
	uint64_t duration_ns; /* from the request's headers to its completion */
};

/*
 * A new, zeroed set of metrics; `version` (copied) is the build_info
 * label. Returns NULL when out of memory. Release with http_metrics_free().
 */
struct http_metrics *http_metrics_new(const char *version);

/* Releases the metrics; NULL is ignored. No thread may still count. */
void http_metrics_free(struct http_metrics *m);

/* A request's headers have arrived: in flight until http_metrics_request_done(). */
void http_metrics_request_started(struct http_metrics *m);

/* A request is over: counted, timed and no longer in flight. */
void http_metrics_request_done(struct http_metrics *m, const struct http_metrics_request *r);

/* A connection was accepted (+1) or closed (-1). */
void http_metrics_connection(struct http_metrics *m, int delta);

/* `n` cases of `problem` ended with `outcome` ("solved", "rejected"). */
void http_metrics_cases(struct http_metrics *m, const char *problem, const char *outcome,
			uint64_t n);

/* `n` judge verdicts `verdict` ("accepted", ...) for `problem`. */
void http_metrics_verdicts(struct http_metrics *m, const char *problem, const char *verdict,
			   uint64_t n);

/* What the server holds, read at scrape time (http_metrics_held_source()). */
struct http_metrics_held {
	uint64_t cache_hits;   /* package cache: answers found */
	uint64_t cache_misses; /* package cache: answers looked for and not found */
	uint64_t cache_bytes;  /* package cache: bytes of bodies kept now */
	uint64_t answer_bytes; /* bytes of answers built and not yet sent */
};

/* Says where http_metrics_render() reads the figures above: read(ctx, h)
 * at each scrape, from any thread. Before the first scrape; NULL: none
 * (the series are then left out). */
void http_metrics_held_source(struct http_metrics *m,
			      void (*read)(void *ctx, struct http_metrics_held *h), void *ctx);

/*
 * The exposition text of every series, with `log_dropped` as the access
 * log's drop count: a malloc'ed string the caller frees, its length in
 * *len. Returns NULL when out of memory. Safe while other threads count;
 * each series is read once, so a histogram's count always equals its +Inf
 * bucket.
 */
char *http_metrics_render(struct http_metrics *m, uint64_t log_dropped, size_t *len);

#endif
