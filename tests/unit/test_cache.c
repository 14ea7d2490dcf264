/*
 * Unit tests of the package cache and the answer budget (src/http/cache.c):
 * keys that tell requests apart and not the order of their parameters, hits
 * returning the same bytes, the least recently used answers going first
 * under the byte bound, counts of hits, misses and bytes; and a budget
 * that refuses a large answer past it, always takes a small one, and gets
 * its bytes back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "http/cache.h"
#include "mem/alloc.h"

/* A 200 answer whose body is `len` copies of `c`, dj_malloc'ed. */
static struct route_response answer(char c, size_t len)
{
	struct route_response r;
	memset(&r, 0, sizeof r);
	r.status = 200;
	r.content_type = "application/zip";
	r.body = dj_malloc(len);
	memset(r.body, c, len);
	r.body_len = len;
	route_add_header(&r, "Content-Disposition", "attachment; filename=\"p.zip\"");
	return r;
}

/* A request to the first cached entry of the table with these parameters. */
static struct route_request request(const char *const *kv, size_t n)
{
	struct route_request req;
	size_t count;
	const struct route_entry *e = route_entries(&count);
	memset(&req, 0, sizeof req);
	for (size_t i = 0; i < count; i++)
		if (e[i].cached && !req.entry)
			req.entry = &e[i];
	assert_non_null(req.entry);
	for (size_t i = 0; i < n; i++) {
		req.params[i].key = kv[2 * i];
		req.params[i].value = kv[2 * i + 1];
	}
	req.nparams = n;
	return req;
}

static void cache_key_should_not_depend_on_the_order_of_parameters(void **state)
{
	(void)state;
	const char *ab[] = {"format", "polygon", "tests", "500"};
	const char *ba[] = {"tests", "500", "format", "polygon"};
	const char *other[] = {"tests", "501", "format", "polygon"};
	const char *tricky[] = {"tests", "500&format=polygon"};
	struct route_request r1 = request(ab, 2), r2 = request(ba, 2), r3 = request(other, 2),
			     r4 = request(tricky, 1);
	char k1[256], k2[256], k3[256], k4[256], k5[256];
	assert_true(http_cache_key(&r1, NULL, k1, sizeof k1));
	assert_true(http_cache_key(&r2, NULL, k2, sizeof k2));
	assert_true(http_cache_key(&r3, NULL, k3, sizeof k3));
	assert_true(http_cache_key(&r4, NULL, k4, sizeof k4));
	assert_true(http_cache_key(&r1, "application/gzip", k5, sizeof k5));
	assert_string_equal(k1, k2);
	assert_string_not_equal(k1, k3);
	assert_string_not_equal(k1, k4);
	assert_string_not_equal(k1, k5);
	assert_false(http_cache_key(&r1, NULL, k1, 8)); /* does not fit: not cached */
}

static void cache_should_give_back_the_bytes_kept_and_count(void **state)
{
	(void)state;
	struct http_cache *c = http_cache_new(1000);
	struct route_response a = answer('a', 400), got;
	struct http_metrics_held f;
	assert_false(http_cache_get(c, "k1", &got));
	http_cache_put(c, "k1", &a);
	assert_true(http_cache_get(c, "k1", &got));
	assert_int_equal(got.status, 200);
	assert_int_equal(got.body_len, 400);
	assert_memory_equal(got.body, a.body, 400);
	assert_ptr_not_equal(got.body, a.body);
	assert_string_equal(got.headers[0].value, "attachment; filename=\"p.zip\"");
	route_response_free(&got);
	http_cache_figures(c, &f);
	assert_int_equal(f.cache_hits, 1);
	assert_int_equal(f.cache_misses, 1);
	assert_int_equal(f.cache_bytes, 400);
	route_response_free(&a);
	http_cache_free(c);
}

static void cache_should_drop_the_least_recently_used_past_its_bytes(void **state)
{
	(void)state;
	struct http_cache *c = http_cache_new(1000);
	struct route_response a = answer('a', 400), b = answer('b', 400), d = answer('d', 400),
			      big = answer('x', 1001), got;
	struct http_metrics_held f;
	http_cache_put(c, "a", &a);
	http_cache_put(c, "b", &b);
	assert_true(http_cache_get(c, "a", &got)); /* a is now the most recent */
	route_response_free(&got);
	http_cache_put(c, "d", &d); /* b goes */
	assert_false(http_cache_get(c, "b", &got));
	assert_true(http_cache_get(c, "a", &got));
	route_response_free(&got);
	assert_true(http_cache_get(c, "d", &got));
	route_response_free(&got);
	http_cache_put(c, "big", &big); /* larger than the cache: not kept */
	assert_false(http_cache_get(c, "big", &got));
	http_cache_figures(c, &f);
	assert_int_equal(f.cache_bytes, 800);
	route_response_free(&a);
	route_response_free(&b);
	route_response_free(&d);
	route_response_free(&big);
	http_cache_free(c);
}

static void cache_should_keep_only_whole_successful_answers(void **state)
{
	(void)state;
	struct http_cache *c = http_cache_new(1000), *off = http_cache_new(0);
	struct route_response bad = answer('e', 100), got;
	bad.status = 422;
	http_cache_put(c, "bad", &bad);
	assert_false(http_cache_get(c, "bad", &got));
	bad.status = 200;
	http_cache_put(off, "ok", &bad);
	assert_false(http_cache_get(off, "ok", &got));
	route_response_free(&bad);
	http_cache_free(c);
	http_cache_free(off);
}

static void budget_should_refuse_a_large_answer_past_it_and_take_a_small_one(void **state)
{
	(void)state;
	struct http_budget *b = http_budget_new(200000);
	assert_true(http_budget_take(b, 150000));
	assert_false(http_budget_take(b, 65536)); /* would pass it */
	assert_true(http_budget_take(b, 50000));  /* small: always taken */
	assert_true(http_budget_take(b, 1));	  /* even past it */
	assert_int_equal(http_budget_held(b), 200001);
	assert_false(http_budget_take(b, 300000)); /* larger than the budget */
	http_budget_give(b, 150000);
	http_budget_give(b, 50001);
	assert_int_equal(http_budget_held(b), 0);
	assert_true(http_budget_take(b, 200000)); /* exactly the budget */
	assert_int_equal(http_budget_total(b), 200000);
	http_budget_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(cache_key_should_not_depend_on_the_order_of_parameters),
	    cmocka_unit_test(cache_should_give_back_the_bytes_kept_and_count),
	    cmocka_unit_test(cache_should_drop_the_least_recently_used_past_its_bytes),
	    cmocka_unit_test(cache_should_keep_only_whole_successful_answers),
	    cmocka_unit_test(budget_should_refuse_a_large_answer_past_it_and_take_a_small_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
