/* The metrics of metrics.h: fixed tables of series keyed by their labels,
 * one relaxed atomic counter a series, and the exposition at scrape time. */
#include "http/metrics.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem/alloc.h"
#include "codec/text.h"

/* Slots of each table; powers of two. */
#define MT_REQUEST_SLOTS 1024
#define MT_ROUTE_SLOTS	 64
#define MT_PAIR_SLOTS	 64

enum mt_state { MT_EMPTY, MT_CLAIMING, MT_READY };

/* The labels of one series; the strings are not owned. */
struct mt_key {
	_Atomic int state; /* enum mt_state; a, b, n are set before MT_READY */
	const char *a;	   /* first label value */
	const char *b;	   /* second label value, "" when unused */
	unsigned n;	   /* numeric label (status code), 0 when unused */
};

/* The counters of one route. */
struct mt_route {
	atomic_uint_fast64_t sum_ns;	/* total duration */
	atomic_uint_fast64_t bytes_in;	/* request body bytes */
	atomic_uint_fast64_t bytes_out; /* response body bytes */
	atomic_uint_fast64_t
	    buckets[HTTP_METRICS_BUCKETS + 1]; /* per bucket, not cumulative; last: +Inf */
};

/* Slot i of each counter table counts the series of key slot i. */
struct http_metrics {
	char version[64]; /* build_info label */
	struct mt_key request_keys[MT_REQUEST_SLOTS];
	struct mt_key route_keys[MT_ROUTE_SLOTS];
	struct mt_key case_keys[MT_PAIR_SLOTS];
	struct mt_key verdict_keys[MT_PAIR_SLOTS];
	atomic_uint_fast64_t requests[MT_REQUEST_SLOTS];
	struct mt_route routes[MT_ROUTE_SLOTS];
	atomic_uint_fast64_t cases[MT_PAIR_SLOTS];
	atomic_uint_fast64_t verdicts[MT_PAIR_SLOTS];
	atomic_int_fast64_t in_flight; /* requests started less those done */
	atomic_uint_fast64_t overflow; /* observations without a free slot */
	atomic_int_fast64_t connections_open;
	atomic_uint_fast64_t connections_total;
};

static void mt_add(atomic_uint_fast64_t *c, uint64_t n)
{
	atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

static uint64_t mt_sum(const atomic_uint_fast64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

/* Bucket upper bounds in nanoseconds; `le` is in seconds, as %g writes them ("5e-05" to "10"). */
static const uint64_t mt_bounds[HTTP_METRICS_BUCKETS] = {
    50000,     100000,	   250000,	500000,	     1000000,	  2500000,
    5000000,   10000000,   25000000,	50000000,    100000000,	  250000000,
    500000000, 1000000000, 2500000000u, 5000000000u, 10000000000u};

/* The bucket of a duration: the first bound it does not pass (`le` is inclusive), else +Inf. */
static size_t mt_bucket(uint64_t ns)
{
	size_t b = 0;
	while (b < HTTP_METRICS_BUCKETS && ns > mt_bounds[b])
		b++;
	return b;
}

static const char *const mt_methods[] = {"GET",	   "HEAD",    "POST", "PUT",
					 "DELETE", "OPTIONS", "PATCH"};

/* The fixed string standing for `method`, so that labels stay bounded. */
static const char *mt_method(const char *method)
{
	if (method)
		for (size_t i = 0; i < sizeof mt_methods / sizeof mt_methods[0]; i++)
			if (codec_text_is(method, mt_methods[i]))
				return mt_methods[i];
	return "other";
}

static uint64_t mt_hash(const char *a, const char *b, unsigned n)
{
	uint64_t h = 1469598103934665603u;
	for (const char *p = a; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	h = (h ^ 0xff) * 1099511628211u;
	for (const char *p = b; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	h = (h ^ n) * 1099511628211u;
	return h ^ (h >> 29);
}

/* The slot of (a, b, n) in `keys` (cap slots; NULL labels count as ""), claimed with one
 * compare-and-swap when new (a slot being claimed is waited for: a few stores); -1 when full. */
static long mt_slot(struct mt_key *keys, size_t cap, const char *a, const char *b, unsigned n)
{
	a = a ? a : "";
	b = b ? b : "";
	size_t i = (size_t)mt_hash(a, b, n) & (cap - 1);
	for (size_t probe = 0; probe < cap; probe++, i = (i + 1) & (cap - 1)) {
		struct mt_key *k = &keys[i];
		int st = atomic_load_explicit(&k->state, memory_order_acquire);
		if (st == MT_EMPTY) {
			int expected = MT_EMPTY;
			if (atomic_compare_exchange_strong_explicit(
				&k->state, &expected, MT_CLAIMING, memory_order_acq_rel,
				memory_order_acquire)) {
				k->a = a;
				k->b = b;
				k->n = n;
				atomic_store_explicit(&k->state, MT_READY, memory_order_release);
				return (long)i;
			}
			st = expected;
		}
		while (st == MT_CLAIMING)
			st = atomic_load_explicit(&k->state, memory_order_acquire);
		if (k->n == n && (k->a == a || strcmp(k->a, a) == 0) &&
		    (k->b == b || strcmp(k->b, b) == 0))
			return (long)i;
	}
	return -1;
}

struct http_metrics *http_metrics_new(const char *version)
{
	struct http_metrics *m = dj_calloc(1, sizeof *m);
	if (m)
		snprintf(m->version, sizeof m->version, "%s", version ? version : "");
	return m;
}

void http_metrics_free(struct http_metrics *m)
{
	dj_free(m);
}

void http_metrics_request_started(struct http_metrics *m)
{
	atomic_fetch_add_explicit(&m->in_flight, 1, memory_order_relaxed);
}

long long http_metrics_in_flight(struct http_metrics *m)
{
	return (long long)atomic_load_explicit(&m->in_flight, memory_order_relaxed);
}

void http_metrics_request_done(struct http_metrics *m, const struct http_access_entry *r)
{
	const char *route = r->route ? r->route : "unknown";
	long i = mt_slot(m->request_keys, MT_REQUEST_SLOTS, route, mt_method(r->method), r->status);
	long j = mt_slot(m->route_keys, MT_ROUTE_SLOTS, route, "", 0);

	atomic_fetch_sub_explicit(&m->in_flight, 1, memory_order_relaxed);
	mt_add(i >= 0 ? &m->requests[i] : &m->overflow, 1);
	if (j < 0) {
		mt_add(&m->overflow, 1);
		return;
	}
	struct mt_route *rt = &m->routes[j];
	mt_add(&rt->buckets[mt_bucket(r->duration_ns)], 1);
	mt_add(&rt->sum_ns, r->duration_ns);
	mt_add(&rt->bytes_in, r->bytes_in);
	mt_add(&rt->bytes_out, r->bytes_out);
}

void http_metrics_connection(struct http_metrics *m, int delta)
{
	atomic_fetch_add_explicit(&m->connections_open, delta, memory_order_relaxed);
	if (delta > 0)
		mt_add(&m->connections_total, (uint64_t)delta);
}

/* Adds n to the series (a, b) of a pair table, or 1 to the overflow. */
static void mt_pair_add(struct http_metrics *m, struct mt_key *keys, atomic_uint_fast64_t *values,
			const char *a, const char *b, uint64_t n)
{
	if (n == 0)
		return;
	long i = mt_slot(keys, MT_PAIR_SLOTS, a, b, 0);
	mt_add(i >= 0 ? &values[i] : &m->overflow, i >= 0 ? n : 1);
}

void http_metrics_cases(struct http_metrics *m, const char *problem, const char *outcome,
			uint64_t n)
{
	mt_pair_add(m, m->case_keys, m->cases, problem, outcome, n);
}

void http_metrics_verdicts(struct http_metrics *m, const char *problem, const char *verdict,
			   uint64_t n)
{
	mt_pair_add(m, m->verdict_keys, m->verdicts, problem, verdict, n);
}

/* --- rendering ----------------------------------------------------------- */

/* A label value with \, " and newline escaped as the format asks. */
static void mt_label(FILE *t, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", t);
		else if (*v == '"')
			fputs("\\\"", t);
		else if (*v == '\n')
			fputs("\\n", t);
		else
			fputc(*v, t);
	}
}

static void mt_head(FILE *t, const char *name, const char *type, const char *help)
{
	fprintf(t, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* The start of a sample, `name{label="value`, the value escaped. */
static void mt_series(FILE *t, const char *name, const char *label, const char *value)
{
	fprintf(t, "%s{%s=\"", name, label);
	mt_label(t, value);
}

static bool mt_ready(const struct mt_key *keys, size_t i)
{
	return atomic_load_explicit(&keys[i].state, memory_order_acquire) == MT_READY;
}

/* A series without labels: its HELP and TYPE lines, then its one sample. */
static void mt_scalar(FILE *t, const char *name, const char *type, const char *help,
		      long long value)
{
	mt_head(t, name, type, help);
	fprintf(t, "%s %lld\n", name, value);
}

/* The counter `name`: its head, then `name{la="a",lb="b"} value` per ready pair-table slot. */
static void mt_pairs(FILE *t, const char *name, const char *help, const char *la, const char *lb,
		     struct mt_key *keys, const atomic_uint_fast64_t *values)
{
	mt_head(t, name, "counter", help);
	for (size_t i = 0; i < MT_PAIR_SLOTS; i++) {
		if (!mt_ready(keys, i))
			continue;
		mt_series(t, name, la, keys[i].a);
		fprintf(t, "\",%s=\"", lb);
		mt_label(t, keys[i].b);
		fprintf(t, "\"} %llu\n", (unsigned long long)mt_sum(&values[i]));
	}
}

/* The counter `name` of the body bytes of each route, in or out. */
static void mt_route_bytes(FILE *t, struct http_metrics *m, const char *name, const char *help,
			   bool in)
{
	mt_head(t, name, "counter", help);
	for (size_t i = 0; i < MT_ROUTE_SLOTS; i++) {
		if (!mt_ready(m->route_keys, i))
			continue;
		mt_series(t, name, "route", m->route_keys[i].a);
		fprintf(t, "\"} %llu\n",
			(unsigned long long)mt_sum(in ? &m->routes[i].bytes_in
						      : &m->routes[i].bytes_out));
	}
}

static void mt_histograms(FILE *t, struct http_metrics *m)
{
	for (size_t i = 0; i < MT_ROUTE_SLOTS; i++) {
		if (!mt_ready(m->route_keys, i))
			continue;
		const char *route = m->route_keys[i].a;
		struct mt_route *rt = &m->routes[i];
		uint64_t cumulative = 0;
		for (size_t b = 0; b <= HTTP_METRICS_BUCKETS; b++) {
			cumulative += mt_sum(&rt->buckets[b]);
			mt_series(t, "dropjudge_http_request_duration_seconds_bucket", "route",
				  route);
			if (b < HTTP_METRICS_BUCKETS)
				fprintf(t, "\",le=\"%g\"} %llu\n", (double)mt_bounds[b] / 1e9,
					(unsigned long long)cumulative);
			else
				fprintf(t, "\",le=\"+Inf\"} %llu\n",
					(unsigned long long)cumulative);
		}
		uint64_t sum = mt_sum(&rt->sum_ns);
		mt_series(t, "dropjudge_http_request_duration_seconds_sum", "route", route);
		fprintf(t, "\"} %llu.%09llu\n", (unsigned long long)(sum / 1000000000u),
			(unsigned long long)(sum % 1000000000u));
		mt_series(t, "dropjudge_http_request_duration_seconds_count", "route", route);
		fprintf(t, "\"} %llu\n", (unsigned long long)cumulative);
	}
}

/* The resident set of this process in bytes (/proc/self/statm); 0 when it cannot be read. */
static unsigned long long mt_resident_bytes(void)
{
	unsigned long long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	long page = sysconf(_SC_PAGESIZE);
	return resident * (unsigned long long)(page > 0 ? page : 4096);
}

char *http_metrics_render(struct http_metrics *m, uint64_t log_dropped,
			  const struct http_metrics_held *held, size_t *len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *t = open_memstream(&buf, &size);
	if (!t)
		return NULL;

	mt_head(t, "dropjudge_http_requests_total", "counter",
		"HTTP requests answered, by route table name, method and status code.");
	for (size_t i = 0; i < MT_REQUEST_SLOTS; i++) {
		struct mt_key *k = &m->request_keys[i];
		if (!mt_ready(m->request_keys, i))
			continue;
		mt_series(t, "dropjudge_http_requests_total", "route", k->a);
		fprintf(t, "\",method=\"%s\",code=\"%u\"} %llu\n", k->b, k->n,
			(unsigned long long)mt_sum(&m->requests[i]));
	}
	mt_head(t, "dropjudge_http_request_duration_seconds", "histogram",
		"Time from a request's headers to its completion, by route.");
	mt_histograms(t, m);
	mt_scalar(t, "dropjudge_http_requests_in_flight", "gauge",
		  "Requests whose headers have arrived and that are not complete yet.",
		  http_metrics_in_flight(m));
	mt_route_bytes(t, m, "dropjudge_http_request_bytes_total",
		       "Request body bytes received, by route.", true);
	mt_route_bytes(t, m, "dropjudge_http_response_bytes_total",
		       "Response body bytes sent, by route.", false);
	mt_scalar(t, "dropjudge_http_connections_open", "gauge", "Client connections open.",
		  (long long)atomic_load_explicit(&m->connections_open, memory_order_relaxed));
	mt_scalar(t, "dropjudge_http_connections_total", "counter", "Client connections accepted.",
		  (long long)atomic_load_explicit(&m->connections_total, memory_order_relaxed));
	mt_pairs(t, "dropjudge_cases_total",
		 "Cases handled, by problem and outcome (solved, rejected).", "problem", "outcome",
		 m->case_keys, m->cases);
	mt_pairs(t, "dropjudge_judge_verdicts_total",
		 "Judge verdicts given, by problem and verdict.", "problem", "verdict",
		 m->verdict_keys, m->verdicts);
	mt_scalar(t, "dropjudge_access_log_dropped_total", "counter",
		  "Access log lines dropped because the log writer fell behind.",
		  (long long)log_dropped);
	if (held) {
		mt_scalar(t, "dropjudge_package_cache_hits_total", "counter",
			  "Package answers found in the cache (--package-cache).",
			  (long long)held->cache_hits);
		mt_scalar(t, "dropjudge_package_cache_misses_total", "counter",
			  "Package answers looked for in the cache and built.",
			  (long long)held->cache_misses);
		mt_scalar(t, "dropjudge_package_cache_bytes", "gauge",
			  "Bytes of packages kept in the cache.", (long long)held->cache_bytes);
		mt_scalar(t, "dropjudge_answer_bytes_held", "gauge",
			  "Bytes of answers built and not yet sent (--answer-memory).",
			  (long long)held->answer_bytes);
	}
	mt_scalar(t, "dropjudge_metrics_series_overflow_total", "counter",
		  "Observations not counted because their series table was full.",
		  (long long)mt_sum(&m->overflow));
	mt_scalar(t, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
		  (long long)mt_resident_bytes());
	mt_head(t, "dropjudge_build_info", "gauge", "Always 1; the version of this build.");
	mt_series(t, "dropjudge_build_info", "version", m->version);
	fprintf(t, "\"} 1\n");

	/* Copied into the caller's allocator, which the stream does not use. */
	bool failed = ferror(t) != 0;
	char *text = fclose(t) == 0 && !failed ? dj_malloc(size + 1) : NULL;
	if (text) {
		memcpy(text, buf, size + 1);
		*len = size;
	}
	free(buf);
	return text;
}
