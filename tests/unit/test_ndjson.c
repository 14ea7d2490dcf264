/*
 * Streams of cases (route/ndjson.c) against their reference: the body fed
 * to the intake in chunks of every size (one byte at a time, at random)
 * must be answered with the bytes of the same body answered whole, and
 * each answer line must be the answer of its line sent alone as JSON (its
 * "id" last), or {"line": n, "id": ..., "error": problem} of it; then the
 * summary, whose counts are made here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "dropjudge/gen.h"
#include "route/route.h"

static const struct route_limits limits = {
    .max_body = 1 << 20,
    .max_json_body = 400,
    .max_blocks = 1000,
    .max_batch = 10,
    .max_trace_steps = 100000,
};

/* Lines a stream may hold: good cases, bad ones, blank ones, odd ends. */
static const char *const pieces[] = {
    "{\"field\":[\"......\",\"......\",\"......\",\"......\",\"......\",\"......\",\"......\","
    "\"......\",\".Y....\",\".YG...\",\"RRYG..\",\"RRYGG.\"]}",
    "{\"id\":\"a\",\"field\":[\"......\",\"......\",\"......\",\"......\",\"......\",\"......\","
    "\"......\",\"......\",\"......\",\"......\",\"......\",\"RRRR..\"]}",
    "{\"id\":7,\"field\":[]}",
    "{\"field\":[1]}",
    "{bad",
    "[1,2]",
    "",
    "   ",
    "\r",
    "{\"cases\":[]}",
    "{\"id\":\"x\",\"puyop\":\"http://www.puyop.com/s/4004g09y09yg\"}",
    "{\"field\":[\"......\",\"......\",\"......\",\"......\",\"......\",\"......\",\"......\","
    "\"......\",\"......\",\"......\",\"......\",\"......\"],\"pad\":\"" /* over 400 bytes: */
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\""
    "}",
    "\xEF\xBB\xBF{\"id\":1}",
};
#define NPIECES (sizeof pieces / sizeof pieces[0])

/* The answer of a request for `body` as `type`, gathered whole. */
static void answer(const char *type, const char *body, size_t len, struct route_intake *intake,
		   struct route_response *resp)
{
	struct route_request req = {.method = "POST",
				    .path = "/v1/puyo",
				    .content_type = type,
				    .body = intake ? NULL : body,
				    .body_len = len,
				    .limits = &limits,
				    .intake = intake};
	route_handle(&req, resp);
	assert_true(route_response_gather(resp));
}

/* Checks every answer line of `got` against the lines of body sent alone. */
static void check_lines(const char *body, size_t len, const struct route_response *got)
{
	const char *a = got->body, *aend = got->body + got->body_len;
	unsigned long lineno = 0, cases = 0, failed = 0;
	for (const char *p = body, *end = body + len; p < end;) {
		const char *lf = memchr(p, '\n', (size_t)(end - p));
		size_t n = lf ? (size_t)(lf - p) : (size_t)(end - p);
		lineno++;
		const char *line = p;
		size_t llen = n > 0 && line[n - 1] == '\r' ? n - 1 : n;
		p += n + 1;
		if (lineno == 1 && llen >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
			line += 3;
			llen -= 3;
		}
		size_t k = 0;
		while (k < llen && (line[k] == ' ' || line[k] == '\t' || line[k] == '\r'))
			k++;
		if (k == llen)
			continue;
		cases++;
		const char *alf = memchr(a, '\n', (size_t)(aend - a));
		assert_non_null(alf);
		json_t *got_line = json_loadb(a, (size_t)(alf - a), 0, NULL);
		assert_non_null(got_line);
		a = alf + 1;
		if (llen > limits.max_json_body) {
			assert_int_equal(json_integer_value(json_object_get(got_line, "line")),
					 lineno);
			assert_int_equal(json_integer_value(json_object_get(
					     json_object_get(got_line, "error"), "status")),
					 413);
			failed++;
			json_decref(got_line);
			continue;
		}
		struct route_response alone;
		answer("application/json", line, llen, NULL, &alone);
		json_t *want = json_loadb(alone.body, alone.body_len, 0, NULL);
		assert_non_null(want);
		json_t *parsed = json_loadb(line, llen, 0, NULL);
		json_t *id = json_is_object(parsed) ? json_object_get(parsed, "id") : NULL;
		if (!json_is_string(id) && !json_is_integer(id))
			id = NULL;
		json_t *expect;
		if (json_object_get(parsed, "cases")) {
			/* a batch on a line is that line's error, not a batch */
			assert_non_null(json_object_get(got_line, "error"));
			expect = NULL;
			failed++;
		} else if (alone.status == 200) {
			expect = json_deep_copy(want);
			if (id)
				json_object_set(expect, "id", id);
		} else {
			expect = json_object();
			json_object_set_new(expect, "line", json_integer((json_int_t)lineno));
			if (id)
				json_object_set(expect, "id", id);
			json_object_set(expect, "error", want);
			failed++;
		}
		if (expect && !json_equal(expect, got_line)) {
			char *e = json_dumps(expect, JSON_COMPACT),
			     *g = json_dumps(got_line, JSON_COMPACT);
			fail_msg("line %lu: want %s, got %s", lineno, e, g);
		}
		json_decref(expect);
		json_decref(parsed);
		json_decref(want);
		json_decref(got_line);
		route_response_free(&alone);
	}
	char summary[160];
	int n = snprintf(summary, sizeof summary,
			 "{\"summary\":{\"cases\":%lu,\"answered\":%lu,\"failed\":%lu}}\n", cases,
			 cases - failed, failed);
	assert_int_equal((size_t)(aend - a), (size_t)n);
	assert_memory_equal(a, summary, (size_t)n);
}

static void streams_should_be_answered_as_their_lines_alone_in_any_chunks(void **state)
{
	(void)state;
	struct gen_rng rng;
	gen_rng_init(&rng, 42);
	char *body = malloc(1 << 16);
	assert_non_null(body);
	for (unsigned round = 0; round < 300; round++) {
		size_t len = 0;
		unsigned lines = 1 + (unsigned)gen_rng_below(&rng, 12);
		for (unsigned i = 0; i < lines; i++) {
			const char *piece = pieces[gen_rng_below(&rng, NPIECES)];
			if (i > 0 && strncmp(piece, "\xEF\xBB\xBF", 3) == 0)
				piece += 3;
			len += (size_t)sprintf(body + len, "%s%s", piece,
					       gen_rng_below(&rng, 3) == 0 ? "\r\n" : "\n");
		}
		if (gen_rng_below(&rng, 2) == 0)
			len--; /* a last line without its LF */
		struct route_response whole;
		answer("application/x-ndjson", body, len, NULL, &whole);
		assert_int_equal(whole.status, 200);
		assert_string_equal(whole.content_type, "application/x-ndjson");
		check_lines(body, len, &whole);

		struct route_request head = {.method = "POST",
					     .path = "/v1/puyo",
					     .content_type = "application/x-ndjson",
					     .limits = &limits};
		struct route_match m;
		route_match(&head, (long long)len, &m);
		head.entry = m.entry;
		struct route_intake *s = route_intake_new(&head);
		assert_non_null(s);
		bool bytewise = round % 4 == 0;
		for (size_t at = 0; at < len;) {
			size_t n = bytewise ? 1 : 1 + (size_t)gen_rng_below(&rng, len - at);
			route_intake_feed(s, body + at, n);
			at += n;
		}
		struct route_response fed;
		answer("application/x-ndjson", NULL, len, s, &fed);
		if (fed.body_len != whole.body_len ||
		    memcmp(fed.body, whole.body, fed.body_len) != 0)
			fail_msg("body %.*s\nwhole: %.*s\nfed:   %.*s", (int)len, body,
				 (int)whole.body_len, whole.body, (int)fed.body_len, fed.body);
		route_response_free(&whole);
		route_response_free(&fed);
		route_intake_free(s);
	}
	free(body);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(streams_should_be_answered_as_their_lines_alone_in_any_chunks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
