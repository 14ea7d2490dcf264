/*
 * Unit tests of request ids (src/http/observe.c): which client tokens
 * are taken, and that generated ids are 32 hex digits that do not repeat,
 * within a thread or between threads, and whose every bit is as often 1 as
 * 0 (a generator that leaked its counter, or dropped its key, would not
 * be).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "http/observe.h"

static void request_id_should_take_sane_tokens_only(void **state)
{
	(void)state;
	char longest[HTTP_REQUEST_ID_MAX + 2];
	memset(longest, 'a', HTTP_REQUEST_ID_MAX);
	longest[HTTP_REQUEST_ID_MAX] = '\0';
	static const struct {
		const char *id;
		bool sane;
	} cases[] = {
	    {"abc", true},
	    {"A-Z.a_z:0-9", true},
	    {"0f8fad5b-d9cb-469f-a165-70867728950e", true},
	    {"x", true},
	    {"", false},
	    {"has space", false},
	    {"semi;colon", false},
	    {"slash/", false},
	    {"quote\"", false},
	    {"nl\n", false},
	    {"caf\xc3\xa9", false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(http_request_id_is_sane(cases[i].id), cases[i].sane);
	assert_false(http_request_id_is_sane(NULL));
	assert_true(http_request_id_is_sane(longest));
	longest[HTTP_REQUEST_ID_MAX] = 'a';
	longest[HTTP_REQUEST_ID_MAX + 1] = '\0';
	assert_false(http_request_id_is_sane(longest));
}

static bool is_hex32(const char *s)
{
	if (strlen(s) != HTTP_REQUEST_ID_GENERATED)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

static void request_id_should_generate_distinct_hex_ids(void **state)
{
	(void)state;
	enum { N = 1000 };
	static char ids[N][HTTP_REQUEST_ID_GENERATED + 1];
	unsigned seen_bits[16] = {0};
	for (int i = 0; i < N; i++) {
		http_request_id_generate(ids[i]);
		assert_true(is_hex32(ids[i]));
		for (int j = 0; j < HTTP_REQUEST_ID_GENERATED; j++)
			seen_bits[ids[i][j] <= '9' ? ids[i][j] - '0' : ids[i][j] - 'a' + 10]++;
		for (int j = 0; j < i; j++)
			assert_string_not_equal(ids[i], ids[j]);
	}
	/* 32000 random hex digits: each of the 16 near 2000, none absent. */
	for (int d = 0; d < 16; d++)
		assert_in_range(seen_bits[d], 1500, 2500);
}

static void request_id_should_keep_a_sane_header_and_replace_others(void **state)
{
	(void)state;
	char out[HTTP_REQUEST_ID_MAX + 1];
	http_request_id_take("trace-42", out);
	assert_string_equal(out, "trace-42");
	http_request_id_take("bad id", out);
	assert_true(is_hex32(out));
	http_request_id_take(NULL, out);
	assert_true(is_hex32(out));
	char too_long[200];
	memset(too_long, 'z', sizeof too_long - 1);
	too_long[sizeof too_long - 1] = '\0';
	http_request_id_take(too_long, out);
	assert_true(is_hex32(out));
}

enum { THREADS = 4, PER_THREAD = 25000 };
static char thread_ids[THREADS * PER_THREAD][HTTP_REQUEST_ID_GENERATED + 1];

static void *generate_many(void *arg)
{
	size_t t = (size_t)(uintptr_t)arg;
	for (size_t i = 0; i < PER_THREAD; i++)
		http_request_id_generate(thread_ids[t * PER_THREAD + i]);
	return NULL;
}

static int id_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static unsigned hex_value(char c)
{
	return c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

static void request_id_should_not_repeat_between_threads_and_spread_every_bit(void **state)
{
	(void)state;
	pthread_t th[THREADS];
	for (size_t t = 0; t < THREADS; t++)
		assert_int_equal(pthread_create(&th[t], NULL, generate_many, (void *)(uintptr_t)t),
				 0);
	for (size_t t = 0; t < THREADS; t++)
		assert_int_equal(pthread_join(th[t], NULL), 0);
	/* Every bit position: 1 in about half of each thread's ids. */
	for (size_t t = 0; t < THREADS; t++) {
		unsigned ones[128] = {0};
		for (size_t i = 0; i < PER_THREAD; i++) {
			const char *id = thread_ids[t * PER_THREAD + i];
			assert_true(is_hex32(id));
			for (size_t d = 0; d < HTTP_REQUEST_ID_GENERATED; d++)
				for (unsigned b = 0; b < 4; b++)
					ones[d * 4 + b] += (hex_value(id[d]) >> b) & 1u;
		}
		/* 25,000 fair coins: 12,500 give or take 158 (one sigma). */
		for (size_t b = 0; b < 128; b++)
			assert_in_range(ones[b], 11700, 13300);
	}
	qsort(thread_ids, THREADS * PER_THREAD, sizeof thread_ids[0], id_cmp);
	for (size_t i = 1; i < THREADS * PER_THREAD; i++)
		assert_string_not_equal(thread_ids[i - 1], thread_ids[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(request_id_should_take_sane_tokens_only),
	    cmocka_unit_test(request_id_should_generate_distinct_hex_ids),
	    cmocka_unit_test(request_id_should_keep_a_sane_header_and_replace_others),
	    cmocka_unit_test(request_id_should_not_repeat_between_threads_and_spread_every_bit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
