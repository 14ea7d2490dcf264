/*
 * Traced cases: the problem's trace(), which writes the steps as text,
 * against the reference, the trace built as a tree and dumped; random and
 * mutated traced bodies (cases, batches, judge, text) answered the same
 * when asked again and without a fault; and the limits of traces in a
 * request.
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

#include "mem/alloc.h"
#include "route/handlers.h"
#include "route/route.h"
#include "route_diff.h"

static const struct route_limits limits = {
    .max_body = BODY_MAX,
    .max_blocks = 1000,
    .max_batch = 40,
    .max_trace_steps = 100000,
};

static const char *const md_paths[] = {"/v1/monomino-domino", "/v1/monomino-domino/judge",
				       "/v1/monomino-domino/validate"};
/* Single cases with ?trace: the canonical ones are written as they are
 * read, the others built as trees; both must give the tree's bytes. */
static void random_traced_md_cases_should_read_the_same_both_ways(void **state)
{
	(void)state;
	struct route_limits l = limits;
	char *buf = malloc(1 << 16);
	assert_non_null(buf);
	for (unsigned r = 0; r < 2000; r++) {
		unsigned n = rnd(40);
		size_t len =
		    (size_t)sprintf(buf, "%s{%s\"blocks\"%s:%s[", rnd(2) ? " " : "",
				    rnd(2) ? "\n" : "", rnd(2) ? " " : "", rnd(2) ? "\t" : "");
		for (unsigned i = 0; i < n; i++) {
			unsigned t = 1 + rnd(3);
			len += (size_t)sprintf(
			    buf + len, "%s[%u,%s%u,%u]", i ? (rnd(2) ? "," : " , ") : "", t,
			    rnd(4) ? "" : " ", rnd(t == 3 ? 3 : 4), rnd(t == 2 ? 3 : 4));
		}
		len += (size_t)sprintf(buf + len, "]}%s", rnd(2) ? "\n" : "");
		if (rnd(3) == 0)
			len = mutate(buf, len, 1 << 16);
		l.max_trace_steps = rnd(4) == 0 ? rnd(40) + 1 : 100000;
		l.max_blocks = rnd(4) == 0 ? rnd(40) + 1 : 1000;
		same_answers(md_paths[0], "trace=true", buf, len, &l);
	}
	free(buf);
}

/* n random blocks, JSON ("[[t,x,y],...]") or, when `text`, Baekjoon lines. */
static size_t random_blocks(char *buf, unsigned n, bool text)
{
	size_t len = text ? (size_t)sprintf(buf, "%u\n", n) : (size_t)sprintf(buf, "[");
	for (unsigned i = 0; i < n; i++) {
		unsigned t = 1 + rnd(3), x = rnd(t == 3 ? 3 : 4), y = rnd(t == 2 ? 3 : 4);
		len += text ? (size_t)sprintf(buf + len, "%u %u %u\n", t, x, y)
			    : (size_t)sprintf(buf + len, "%s[%u,%u,%u]", i ? "," : "", t, x, y);
	}
	if (!text)
		len += (size_t)sprintf(buf + len, "]");
	return len;
}

/*
 * Traced cases that are not canonical, their trace written as text
 * (the problem's trace()) rather than built: a case with "trace": true (alone,
 * in a batch with an "id", in judge), a text body with ?trace, judge with
 * ?trace on an object or a text input, some mutated, some past the limits.
 * Each must give the tree's bytes.
 */
static void random_traced_trees_should_read_the_same_both_ways(void **state)
{
	(void)state;
	struct route_limits l = limits;
	char *blocks = malloc(1 << 16), *buf = malloc(1 << 18), *item = malloc(1 << 17);
	assert_non_null(blocks);
	assert_non_null(item);
	assert_non_null(buf);
	for (unsigned r = 0; r < 3000; r++) {
		unsigned shape = rnd(6), n = rnd(4) == 0 ? rnd(2000) : rnd(40);
		bool text = shape == 1 || shape == 5;
		random_blocks(blocks, n, text);
		const char *path = md_paths[shape >= 4 ? 1 : 0];
		const char *query = "trace=true";
		size_t len = 0;
		switch (shape) {
		case 0: /* a case alone, "trace" in the body */
			len = (size_t)sprintf(buf, "{\"blocks\":%s,\"trace\":%s}", blocks,
					      rnd(4) ? "true" : "false");
			query = rnd(2) ? NULL : query;
			break;
		case 1: /* a text body */
			len = (size_t)sprintf(buf, "%s", blocks);
			break;
		case 2: /* a batch, cases with an id and "trace" */
			len =
			    (size_t)sprintf(buf,
					    "{\"cases\":[{\"id\":%s,\"trace\":true,\"blocks\":%s},"
					    "{\"blocks\":[[1,1,1]],\"trace\":true,\"id\":\"z\"}]}",
					    rnd(2) ? "\"a\\u00e9\\n\"" : "12", blocks);
			query = rnd(2) ? NULL : query;
			break;
		case 3: /* a batch of a case with "blocks" as the only member */
			len =
			    (size_t)sprintf(buf, "{\"cases\":[{\"blocks\":%s, \"id\":3}]}", blocks);
			break;
		case 4: /* judge on an object input */
			len = (size_t)sprintf(
			    buf, "{\"input\":{\"blocks\":%s%s},\"output\":\"0\\n0\\n\"}", blocks,
			    rnd(2) ? ",\"trace\":true" : "");
			if (rnd(2)) { /* in a batch, twice, the second with an "id" */
				memcpy(item, buf, len + 1);
				len = (size_t)sprintf(buf, "{\"cases\":[%s,{\"id\":1,%s]}", item,
						      item + 1);
			}
			break;
		default: /* judge on a text input */
			len = 0;
			len += (size_t)sprintf(buf, "{\"input\":\"");
			for (const char *c = blocks; *c; c++)
				len += (size_t)sprintf(buf + len, *c == '\n' ? "\\n" : "%c", *c);
			len += (size_t)sprintf(buf + len, "\",\"output\":\"1\\n2\\n\"}");
			break;
		}
		if (rnd(4) == 0)
			len = mutate(buf, len, 1 << 18);
		l.max_trace_steps = rnd(4) == 0 ? rnd(2000) + 1 : 100000;
		l.max_blocks = rnd(4) == 0 ? rnd(2000) + 1 : 100000;
		body_type = text ? "text/plain" : "application/json";
		same_answers(path, query, buf, len, &l);
	}
	body_type = "application/json";
	free(blocks);
	free(item);
	free(buf);
}

/*
 * The problem's trace(), which writes the steps as text, against the
 * reference, the solve with its trace built as a tree and dumped: random
 * cases (JSON objects and texts, some faulty, some past the trace's limit)
 * must be taken exactly when the reference solves them, with the same
 * steps' bytes, count and final state.
 */
static void trace_text_should_be_the_dump_of_the_tree(void **state)
{
	(void)state;
	char *blocks = malloc(1 << 17);
	assert_non_null(blocks);
	for (unsigned r = 0; r < 600; r++) {
		unsigned n = rnd(8) == 0 ? PROBLEM_MAX_TRACE_STEPS - 2 + rnd(4) : rnd(60);
		bool text = r % 2;
		random_blocks(blocks, n, text);
		if (rnd(5) == 0)
			blocks[rnd((unsigned)strlen(blocks))] = '9';
		json_t *root = NULL;
		if (!text) {
			char *obj = malloc(strlen(blocks) + 16);
			assert_non_null(obj);
			sprintf(obj, "{\"blocks\":%s}", blocks);
			root = json_loads(obj, 0, NULL);
			free(obj);
			if (!root)
				continue;
		}
		size_t len = strlen(blocks);
		struct codec_error err;
		codec_error_init(&err);
		const struct problem_limits pl = {.max_blocks = limits.max_blocks};
		struct problem_outcome want = {.steps = NULL}, got = {.steps = NULL};
		enum codec_status st =
		    root ? problem_md.solve_json(root, "", &pl, true, &want, &err)
			 : problem_md.solve_text(blocks, len, &pl, true, &want, &err);
		struct problem_text steps = {.data = NULL};
		size_t nsteps = 0;
		int taken = problem_md.trace(root, "", root ? NULL : blocks, len, &pl, &got, &steps,
					     &nsteps);
		assert_int_equal(taken, st == CODEC_OK);
		if (taken == 1) {
			char *dump = json_dumps(want.steps, JSON_COMPACT);
			assert_non_null(dump);
			size_t dlen = strlen(dump);
			assert_int_equal(nsteps, json_array_size(want.steps));
			assert_int_equal(steps.len, dlen - 2); /* without "[" and "]" */
			assert_memory_equal(steps.data, dump + 1, steps.len);
			assert_memory_equal(&got.u.md, &want.u.md, sizeof want.u.md);
			free(dump);
		}
		problem_outcome_release(&want);
		problem_text_free(&steps);
		json_decref(root);
	}
	free(blocks);
}

/* A traced case with faults among its blocks (JSON, or a text body, there
 * sometimes with one block fewer than its count says) is answered with its
 * faults, byte for byte as the same case without a trace (no trace is
 * built). */
static void faults_of_a_traced_case_should_be_those_without_trace(void **state)
{
	(void)state;
	struct route_limits l = limits;
	l.max_blocks = 100000;
	char *blocks = malloc(1 << 17), *buf = malloc(1 << 18);
	assert_non_null(blocks);
	assert_non_null(buf);
	for (unsigned r = 0; r < 300; r++) {
		unsigned n = 1 + rnd(r < 10 ? 10000 : 300);
		size_t blen = random_blocks(blocks, n, false);
		for (unsigned f = 1 + rnd(3); f > 0; f--) { /* a t of 9, or a y of 7 */
			char *at = blocks + 2 + rnd((unsigned)blen - 3);
			while (*at != '[')
				at--;
			if (rnd(2))
				at[1] = '9';
			else
				at[5] = '7';
		}
		struct answer with, without;
		size_t len = (size_t)sprintf(buf, "{\"blocks\":%s,\"trace\":true}", blocks);
		answer(md_paths[0], NULL, buf, len, &l, &with);
		len = (size_t)sprintf(buf, "{\"blocks\":%s,\"trace\":false}", blocks);
		answer(md_paths[0], NULL, buf, len, &l, &without);
		if (r % 2) { /* the same blocks as a text body, with ?trace and without */
			route_response_free(&with.resp);
			route_response_free(&without.resp);
			json_t *arr = json_loads(blocks, 0, NULL);
			len = (size_t)sprintf(buf, "%u\n", n + rnd(2));
			for (size_t i = 0; i < json_array_size(arr); i++) {
				json_t *b = json_array_get(arr, i);
				len += (size_t)sprintf(
				    buf + len, "%lld %lld %lld\n",
				    (long long)json_integer_value(json_array_get(b, 0)),
				    (long long)json_integer_value(json_array_get(b, 1)),
				    (long long)json_integer_value(json_array_get(b, 2)));
			}
			json_decref(arr);
			body_type = "text/plain";
			answer(md_paths[0], "trace=true", buf, len, &l, &with);
			answer(md_paths[0], NULL, buf, len, &l, &without);
			body_type = "application/json";
		}
		assert_int_equal(with.resp.status, 422);
		assert_int_equal(without.resp.status, 422);
		assert_int_equal(with.resp.body_len, without.resp.body_len);
		assert_memory_equal(with.resp.body, without.resp.body, with.resp.body_len);
		route_response_free(&with.resp);
		route_response_free(&without.resp);
	}
	free(blocks);
	free(buf);
}

/* Checks the first fault of a problem answer (of the first slot of a batch):
 * its "parameter" or "pointer". */
static void first_fault(const struct route_response *resp, const char *key, const char *value)
{
	json_t *p = json_loadb(resp->body, resp->body_len, 0, NULL);
	assert_non_null(p);
	const json_t *results = json_object_get(p, "results");
	const json_t *problem = results ? json_object_get(json_array_get(results, 0), "error") : p;
	const json_t *f = json_array_get(json_object_get(problem, "errors"), 0);
	const char *got = json_string_value(json_object_get(f, key));
	assert_non_null(got);
	assert_string_equal(got, value);
	json_decref(p);
}

/* A JSON body of {"blocks": [n blocks]} (with `extra` members first), the
 * block at `bad` (n: none) out of the rules; in a batch when `batch`. */
static size_t md_body(char *buf, unsigned n, unsigned bad, const char *extra, bool batch)
{
	size_t len = (size_t)sprintf(buf, "%s{%s\"blocks\":[", batch ? "{\"cases\":[" : "", extra);
	for (unsigned i = 0; i < n; i++)
		len += (size_t)sprintf(buf + len, "%s[%u,%u,%u]", i ? "," : "",
				       i == bad ? 9 : 1 + i % 3, i % 3, (i / 3) % 3);
	len += (size_t)sprintf(buf + len, "]}%s", batch ? "]}" : "");
	return len;
}

/*
 * A trace covers at most 10000 placements (PROBLEM_MAX_TRACE_STEPS): one
 * more is 422 at ?trace (or at the case's "trace"), told without building
 * the steps; a fault in the first 10001 blocks is told first, one after
 * them is never reached; 10000 are answered with 10000 steps.
 */
static void traces_past_ten_thousand_placements_should_be_refused(void **state)
{
	(void)state;
	struct route_limits wide = limits;
	wide.max_blocks = 100000;
	wide.max_batch = 1000;
	char *buf = malloc(BODY_MAX);
	assert_non_null(buf);
	struct answer a;
	static const struct {
		unsigned n, bad;
		const char *extra;
		bool batch;
		unsigned status;
		const char *key, *value;
	} rows[] = {
	    {10001, 10001, "", false, 422, "parameter", "trace"},
	    {10001, 10000, "", false, 422, "pointer", "/blocks/10000/0"},
	    {10002, 10001, "", false, 422, "parameter", "trace"},
	    {10001, 5, "", false, 422, "pointer", "/blocks/5/0"},
	    {10001, 10001, "\"trace\":true,", false, 422, "pointer", "/trace"},
	    {10001, 10001, "", true, 200, "parameter", "trace"},
	    {10001, 10001, "\"trace\":true,", true, 200, "pointer", "/cases/0/trace"},
	    {10000, 10000, "", false, 200, NULL, NULL},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		size_t len = md_body(buf, rows[i].n, rows[i].bad, rows[i].extra, rows[i].batch);
		bool query = rows[i].extra[0] == '\0';
		answer(md_paths[0], query ? "trace=true" : NULL, buf, len, &wide, &a);
		assert_int_equal(a.resp.status, rows[i].status);
		if (rows[i].key) {
			first_fault(&a.resp, rows[i].key, rows[i].value);
		} else {
			json_t *r = json_loadb(a.resp.body, a.resp.body_len, 0, NULL);
			assert_int_equal(json_array_size(json_object_get(r, "steps")), 10000);
			json_decref(r);
		}
		route_response_free(&a.resp);
		same_answers(md_paths[0], query ? "trace=true" : NULL, buf, len, &wide);
	}
	free(buf);
}

/* A request answered with the given Content-Type, asking for JSON. */
static void answer_typed(const char *path, const char *query, const char *type, const char *body,
			 const struct route_limits *l, struct answer *a)
{
	answer_with(path, query ? "trace=true" : NULL, type, "application/json", body, strlen(body),
		    l, a);
}

/*
 * --max-trace-steps counts the trace of a case alone too: with a limit of
 * 5 steps, a case of 8 placements traced is 422 (at ?trace, or at the
 * "trace" that asked), in JSON, in text and in judge; 5 placements pass.
 */
static void a_single_trace_should_count_against_the_request_limit(void **state)
{
	(void)state;
	struct route_limits tight = limits;
	tight.max_trace_steps = 5;
	static const char eight[] =
	    "[[1,1,1],[2,3,0],[3,2,2],[3,2,3],[3,1,3],[2,0,0],[3,2,0],[3,1,2]]";
	static const char five[] = "[[1,1,1],[2,3,0],[3,2,2],[3,2,3],[3,1,3]]";
	static const char text8[] = "8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n";
	char body[512];
	struct answer a;
	static const struct {
		const char *path, *query, *type, *head, *blocks, *tail, *key, *value;
		unsigned status;
	} rows[] = {
	    {md_paths[0], "t", "application/json", "{\"blocks\":", eight, "}", "parameter", "trace",
	     422},
	    {md_paths[0], NULL, "application/json", "{\"trace\":true,\"blocks\":", eight, "}",
	     "pointer", "/trace", 422},
	    {md_paths[0], "t", "text/plain", "", text8, "", "parameter", "trace", 422},
	    {md_paths[1], "t", "application/json", "{\"input\":{\"blocks\":", eight,
	     "},\"output\":\"2\\n15\\n\"}", "parameter", "trace", 422},
	    {md_paths[1], NULL, "application/json", "{\"input\":{\"trace\":true,\"blocks\":", eight,
	     "},\"output\":\"2\\n15\\n\"}", "pointer", "/input/trace", 422},
	    {md_paths[0], "t", "application/json", "{\"blocks\":", five, "}", NULL, NULL, 200},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		snprintf(body, sizeof body, "%s%s%s", rows[i].head, rows[i].blocks, rows[i].tail);
		answer_typed(rows[i].path, rows[i].query, rows[i].type, body, &tight, &a);
		assert_int_equal(a.resp.status, rows[i].status);
		if (rows[i].key)
			first_fault(&a.resp, rows[i].key, rows[i].value);
		route_response_free(&a.resp);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(random_traced_md_cases_should_read_the_same_both_ways),
	    cmocka_unit_test(random_traced_trees_should_read_the_same_both_ways),
	    cmocka_unit_test(trace_text_should_be_the_dump_of_the_tree),
	    cmocka_unit_test(faults_of_a_traced_case_should_be_those_without_trace),
	    cmocka_unit_test(traces_past_ten_thousand_placements_should_be_refused),
	    cmocka_unit_test(a_single_trace_should_count_against_the_request_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
