/*
 * Unit tests of the metrics (src/http/metrics.c): a known mix of requests
 * gives exactly the counts, buckets and sums expected (worked out here by
 * hand), label values stay within the fixed sets, concurrent counting
 * from many threads loses nothing, and the exposition text has the shape
 * of format 0.0.4 (the HTTP suite runs promtool on a live server's).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/metrics.h"

/* The value of the sample line starting with `series ` in text, or -1. */
static long long sample(const char *text, const char *series)
{
	size_t n = strlen(series);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, series, n) == 0 && p[n] == ' ')
			return strtoll(p + n + 1, NULL, 10);
	}
	return -1;
}

static char *render(struct http_metrics *m, uint64_t dropped)
{
	size_t len = 0;
	char *text = http_metrics_render(m, dropped, NULL, &len);
	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	return text;
}

static void done(struct http_metrics *m, const char *route, const char *method, unsigned status,
		 uint64_t in, uint64_t out, uint64_t ns)
{
	http_metrics_request_started(m);
	struct http_access_entry r = {.route = route,
				      .method = method,
				      .status = status,
				      .bytes_in = in,
				      .bytes_out = out,
				      .duration_ns = ns};
	http_metrics_request_done(m, &r);
}

static void metrics_should_count_a_known_mix_exactly(void **state)
{
	(void)state;
	struct http_metrics *m = http_metrics_new("9.9.9");
	assert_non_null(m);
	done(m, "puyo.solve", "POST", 200, 100, 2, 40000);   /* bucket 5e-05 */
	done(m, "puyo.solve", "POST", 200, 50, 2, 50000);    /* 5e-05 (le is inclusive) */
	done(m, "puyo.solve", "POST", 422, 7, 300, 50001);   /* 0.0001 */
	done(m, "livez", "GET", 200, 0, 3, 2000000000);	     /* 2.5 */
	done(m, "livez", "HEAD", 200, 0, 0, 20000000000ull); /* +Inf */
	done(m, NULL, "BREW", 404, 0, 200, 1000);	     /* route "unknown", method "other" */
	http_metrics_connection(m, 1);
	http_metrics_connection(m, 1);
	http_metrics_connection(m, -1);
	http_metrics_cases(m, "puyo", "solved", 3);
	http_metrics_cases(m, "puyo", "solved", 2);
	http_metrics_cases(m, "puyo", "rejected", 1);
	http_metrics_cases(m, "puyo", "rejected", 0);
	http_metrics_verdicts(m, "monomino-domino", "accepted", 1);
	http_metrics_verdicts(m, "monomino-domino", "wrong_answer", 1);
	http_metrics_verdicts(m, "monomino-domino", "wrong_answer", 1);
	http_metrics_verdicts(m, "monomino-domino", "presentation_error", 0);

	char *t = render(m, 4);
	assert_int_equal(
	    sample(
		t,
		"dropjudge_http_requests_total{route=\"puyo.solve\",method=\"POST\",code=\"200\"}"),
	    2);
	assert_int_equal(
	    sample(
		t,
		"dropjudge_http_requests_total{route=\"puyo.solve\",method=\"POST\",code=\"422\"}"),
	    1);
	assert_int_equal(
	    sample(t, "dropjudge_http_requests_total{route=\"livez\",method=\"GET\",code=\"200\"}"),
	    1);
	assert_int_equal(
	    sample(t,
		   "dropjudge_http_requests_total{route=\"livez\",method=\"HEAD\",code=\"200\"}"),
	    1);
	assert_int_equal(
	    sample(
		t,
		"dropjudge_http_requests_total{route=\"unknown\",method=\"other\",code=\"404\"}"),
	    1);
	assert_null(strstr(t, "BREW"));
	assert_int_equal(sample(t, "dropjudge_http_request_duration_seconds_bucket{route=\"puyo."
				   "solve\",le=\"5e-05\"}"),
			 2);
	assert_int_equal(sample(t, "dropjudge_http_request_duration_seconds_bucket{route=\"puyo."
				   "solve\",le=\"0.0001\"}"),
			 3);
	assert_int_equal(
	    sample(
		t,
		"dropjudge_http_request_duration_seconds_bucket{route=\"puyo.solve\",le=\"+Inf\"}"),
	    3);
	assert_int_equal(
	    sample(t, "dropjudge_http_request_duration_seconds_count{route=\"puyo.solve\"}"), 3);
	assert_non_null(strstr(
	    t, "dropjudge_http_request_duration_seconds_sum{route=\"puyo.solve\"} 0.000140001\n"));
	assert_int_equal(
	    sample(t, "dropjudge_http_request_duration_seconds_bucket{route=\"livez\",le=\"1\"}"),
	    0);
	assert_int_equal(
	    sample(t, "dropjudge_http_request_duration_seconds_bucket{route=\"livez\",le=\"2.5\"}"),
	    1);
	assert_int_equal(
	    sample(t, "dropjudge_http_request_duration_seconds_bucket{route=\"livez\",le=\"10\"}"),
	    1);
	assert_int_equal(
	    sample(t,
		   "dropjudge_http_request_duration_seconds_bucket{route=\"livez\",le=\"+Inf\"}"),
	    2);
	assert_non_null(strstr(
	    t, "dropjudge_http_request_duration_seconds_sum{route=\"livez\"} 22.000000000\n"));
	assert_int_equal(sample(t, "dropjudge_http_request_bytes_total{route=\"puyo.solve\"}"),
			 157);
	assert_int_equal(sample(t, "dropjudge_http_response_bytes_total{route=\"puyo.solve\"}"),
			 304);
	assert_int_equal(sample(t, "dropjudge_http_requests_in_flight"), 0);
	assert_int_equal(sample(t, "dropjudge_http_connections_open"), 1);
	assert_int_equal(sample(t, "dropjudge_http_connections_total"), 2);
	assert_int_equal(sample(t, "dropjudge_cases_total{problem=\"puyo\",outcome=\"solved\"}"),
			 5);
	assert_int_equal(sample(t, "dropjudge_cases_total{problem=\"puyo\",outcome=\"rejected\"}"),
			 1);
	assert_int_equal(
	    sample(
		t,
		"dropjudge_judge_verdicts_total{problem=\"monomino-domino\",verdict=\"accepted\"}"),
	    1);
	assert_int_equal(sample(t, "dropjudge_judge_verdicts_total{problem=\"monomino-domino\","
				   "verdict=\"wrong_answer\"}"),
			 2);
	assert_int_equal(sample(t, "dropjudge_access_log_dropped_total"), 4);
	assert_int_equal(sample(t, "dropjudge_build_info{version=\"9.9.9\"}"), 1);
	assert_int_equal(sample(t, "dropjudge_metrics_series_overflow_total"), 0);
	free(t);
	http_metrics_free(m);
}

static void metrics_should_show_requests_in_flight(void **state)
{
	(void)state;
	struct http_metrics *m = http_metrics_new("1");
	http_metrics_request_started(m);
	http_metrics_request_started(m);
	char *t = render(m, 0);
	assert_int_equal(sample(t, "dropjudge_http_requests_in_flight"), 2);
	free(t);
	http_metrics_free(m);
}

static void metrics_should_escape_label_values(void **state)
{
	(void)state;
	struct http_metrics *m = http_metrics_new("1\"\\\n");
	char *t = render(m, 0);
	assert_non_null(strstr(t, "dropjudge_build_info{version=\"1\\\"\\\\\\n\"} 1\n"));
	free(t);
	http_metrics_free(m);
}

static void metrics_should_give_every_family_help_and_type_once(void **state)
{
	(void)state;
	struct http_metrics *m = http_metrics_new("1");
	done(m, "livez", "GET", 200, 0, 3, 1000);
	char *t = render(m, 0);
	const char *families[] = {"dropjudge_http_requests_total",
				  "dropjudge_http_request_duration_seconds",
				  "dropjudge_http_requests_in_flight",
				  "dropjudge_http_request_bytes_total",
				  "dropjudge_http_response_bytes_total",
				  "dropjudge_http_connections_open",
				  "dropjudge_cases_total",
				  "dropjudge_judge_verdicts_total",
				  "dropjudge_build_info"};
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
		char help[128], type[128];
		snprintf(help, sizeof help, "# HELP %s ", families[i]);
		snprintf(type, sizeof type, "# TYPE %s ", families[i]);
		const char *h = strstr(t, help);
		assert_non_null(h);
		assert_null(strstr(h + 1, help));
		assert_non_null(strstr(t, type));
	}
	assert_int_equal(t[strlen(t) - 1], '\n');
	free(t);
	http_metrics_free(m);
}

static void metrics_should_count_into_overflow_when_a_table_is_full(void **state)
{
	(void)state;
	struct http_metrics *m = http_metrics_new("1");
	static char names[100][8];
	for (int i = 0; i < 100; i++) {
		snprintf(names[i], sizeof names[i], "r%d", i);
		done(m, names[i], "GET", 200, 0, 0, 1);
	}
	char *t = render(m, 0);
	/* 64 routes fit the per-route table; the other 36 overflow there. */
	assert_int_equal(sample(t, "dropjudge_metrics_series_overflow_total"), 36);
	assert_int_equal(
	    sample(t, "dropjudge_http_requests_total{route=\"r99\",method=\"GET\",code=\"200\"}"),
	    1);
	free(t);
	http_metrics_free(m);
}

/* More threads than the machine has CPUs, counting the same series. */
#define THREADS	   20
#define PER_THREAD 20000

static void *count_many(void *arg)
{
	struct http_metrics *m = arg;
	static const char *const routes[] = {"a", "b", "c", "d"};
	for (int i = 0; i < PER_THREAD; i++) {
		done(m, routes[i % 4], i % 2 ? "GET" : "POST", 200 + (unsigned)(i % 3), 1, 2, 1000);
		if (i % 100 == 0) {
			size_t len;
			free(http_metrics_render(m, 0, NULL, &len));
		}
	}
	return NULL;
}

static void metrics_should_lose_nothing_when_threads_count_at_once(void **state)
{
	(void)state;
	struct http_metrics *m = http_metrics_new("1");
	pthread_t th[THREADS];
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, count_many, m), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	char *t = render(m, 0);
	long long total = 0, lines = 0;
	for (const char *p = strstr(t, "\ndropjudge_http_requests_total{"); p;
	     p = strstr(p + 1, "\ndropjudge_http_requests_total{")) {
		total += strtoll(strchr(p, '}') + 2, NULL, 10);
		lines++;
	}
	assert_int_equal(total, (long long)THREADS * PER_THREAD);
	/* 4 routes x 2 methods x 3 codes, but route and method go together
	 * with i: a,c are POST, b,d GET; each with the 3 codes. */
	assert_int_equal(lines, 12);
	assert_int_equal(sample(t, "dropjudge_http_request_bytes_total{route=\"a\"}"),
			 THREADS * PER_THREAD / 4);
	assert_int_equal(sample(t, "dropjudge_http_request_duration_seconds_count{route=\"b\"}"),
			 THREADS * PER_THREAD / 4);
	free(t);
	http_metrics_free(m);
}

/* Every bucket bound of the format's table, as seconds written in `le` and
 * as nanoseconds: a duration of exactly the bound falls in its bucket (le
 * is inclusive), one nanosecond more in the next. */
static void metrics_should_put_each_bound_and_one_past_it_in_the_right_bucket(void **state)
{
	(void)state;
	static const struct {
		const char *le;
		uint64_t ns;
	} bounds[] = {{"5e-05", 50000ull},   {"0.0001", 100000ull}, {"0.00025", 250000ull},
		      {"0.0005", 500000ull}, {"0.001", 1000000ull}, {"0.0025", 2500000ull},
		      {"0.005", 5000000ull}, {"0.01", 10000000ull}, {"0.025", 25000000ull},
		      {"0.05", 50000000ull}, {"0.1", 100000000ull}, {"0.25", 250000000ull},
		      {"0.5", 500000000ull}, {"1", 1000000000ull},  {"2.5", 2500000000ull},
		      {"5", 5000000000ull},  {"10", 10000000000ull}};
	const size_t n = sizeof bounds / sizeof bounds[0];
	for (size_t k = 0; k < n; k++) {
		for (uint64_t extra = 0; extra < 2; extra++) {
			struct http_metrics *m = http_metrics_new("1");
			assert_non_null(m);
			done(m, "r", "GET", 200, 0, 0, bounds[k].ns + extra);
			char *t = render(m, 0);
			/* The first bucket that counts it: k, or k + 1 (+Inf past the last). */
			size_t first = k + (size_t)extra;
			for (size_t b = 0; b <= n; b++) {
				char series[128];
				snprintf(
				    series, sizeof series,
				    "dropjudge_http_request_duration_seconds_bucket{route=\"r\","
				    "le=\"%s\"}",
				    b < n ? bounds[b].le : "+Inf");
				assert_int_equal(sample(t, series), b >= first ? 1 : 0);
			}
			free(t);
			http_metrics_free(m);
		}
	}
}

/*
 * Runs of one kind, a change of status or route in between, and a table
 * freed and another made (at the same address or not) must all still
 * count where they belong.
 */
static void metrics_should_count_runs_and_changes_of_series_where_they_belong(void **state)
{
	(void)state;
	for (int round = 0; round < 3; round++) {
		struct http_metrics *m = http_metrics_new("1");
		assert_non_null(m);
		for (int i = 0; i < 10; i++)
			done(m, "a", "GET", 200, 1, 0, 1000);
		done(m, "a", "GET", 404, 2, 0, 1000);
		done(m, "a", "GET", 200, 4, 0, 1000);
		done(m, "b", "GET", 200, 8, 0, 1000);
		done(m, "a", "POST", 200, 16, 0, 1000);
		done(m, "a", "GET", 200, 32, 0, 1000);
		char *t = render(m, 0);
		assert_int_equal(
		    sample(
			t,
			"dropjudge_http_requests_total{route=\"a\",method=\"GET\",code=\"200\"}"),
		    12);
		assert_int_equal(
		    sample(
			t,
			"dropjudge_http_requests_total{route=\"a\",method=\"GET\",code=\"404\"}"),
		    1);
		assert_int_equal(
		    sample(
			t,
			"dropjudge_http_requests_total{route=\"b\",method=\"GET\",code=\"200\"}"),
		    1);
		assert_int_equal(
		    sample(
			t,
			"dropjudge_http_requests_total{route=\"a\",method=\"POST\",code=\"200\"}"),
		    1);
		assert_int_equal(sample(t, "dropjudge_http_request_bytes_total{route=\"a\"}"),
				 10 + 2 + 4 + 16 + 32);
		assert_int_equal(sample(t, "dropjudge_http_request_bytes_total{route=\"b\"}"), 8);
		assert_int_equal(
		    sample(t, "dropjudge_http_request_duration_seconds_count{route=\"a\"}"), 14);
		free(t);
		http_metrics_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(metrics_should_count_a_known_mix_exactly),
	    cmocka_unit_test(metrics_should_show_requests_in_flight),
	    cmocka_unit_test(metrics_should_escape_label_values),
	    cmocka_unit_test(metrics_should_give_every_family_help_and_type_once),
	    cmocka_unit_test(metrics_should_count_into_overflow_when_a_table_is_full),
	    cmocka_unit_test(metrics_should_lose_nothing_when_threads_count_at_once),
	    cmocka_unit_test(metrics_should_put_each_bound_and_one_past_it_in_the_right_bucket),
	    cmocka_unit_test(metrics_should_count_runs_and_changes_of_series_where_they_belong),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
