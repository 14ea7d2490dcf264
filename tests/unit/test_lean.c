/*
 * Large cases read lean (route/lean.c), Monomino-Domino and Puyo, against the
 * reference, the jansson tree of the whole body (route_limits.tree_only):
 * single cases, judge cases and the cases of batches, of every shape the
 * decoder takes or refuses, whole or mutated at random, must be answered
 * with the same status, headers and bytes. Every test here reads every
 * case lean (lean_from 0). And a lean read must hold one element's tree at
 * a time: its peak of allocated bytes is measured against the body's size.
 */
#include "route_diff.h"

#include <jansson.h>

#include "mem/alloc.h"

/* Every case read lean, limits a case can reach. */
static const struct route_limits lean_limits = {
    .max_body = BODY_MAX,
    .max_blocks = 1000,
    .max_batch = 40,
    .max_trace_steps = 100000,
    .lean_from = 0,
};

/* Elements of "blocks": legal blocks first (the ones drawn most), then
 * every kind of fault the decoder names, and JSON that only jansson
 * decides (escaped names, duplicates, big numbers, deep arrays). */
static const char *const elements[] = {
    "[1,0,0]",
    "[2, 1, 2]",
    " [3,3,1] ",
    "{\"t\":1,\"x\":2,\"y\":3}",
    "{ \"y\" : 0 , \"t\" : 3 , \"x\" : 1 }",
    "[\n1,\t0,\r0]",
    "[1.0,0,0]",
    "[1,0,0.5]",
    "[4,0,0]",
    "[2,0,3]",
    "[3,3,0]",
    "[1,2]",
    "[1,2,3,4]",
    "\"1 0 0\"",
    "null",
    "7",
    "{\"t\":1,\"x\":0}",
    "{\"t\":1,\"x\":0,\"y\":0,\"z\":1}",
    "{\"\\u0074\":1,\"x\":0,\"y\":0}",
    "{\"t\":1,\"t\":2,\"x\":0,\"y\":0}",
    "[1,0,99999999999999999999999]",
    "[1,0,-0]",
    "[1,0,1e0]",
    "[[1],0,0]",
    "{\"t\":\"1\",\"x\":0,\"y\":0}",
    "[true,false,null]",
    "[01,0,0]",
    "[1,0,0,]",
    "{\"t\":1,\"x\":0,\"y\":0,\"\\u0000\":1}",
    "[1,0,\"\xff\"]",
    "[1,0,\"caf\xc3\xa9\"]",
    "[[[[[[[[[[1]]]]]]]]]]",
    "[1,-1,0]",
    "{}",
    "[]",
};

#define LEGAL 6 /* elements[0..LEGAL) are legal blocks */

static size_t put(char *buf, size_t len, size_t size, const char *s)
{
	size_t n = strlen(s);
	if (len + n < size) {
		memcpy(buf + len, s, n);
		len += n;
	}
	buf[len < size ? len : size - 1] = '\0';
	return len;
}

/* A large value no decoder looks into: an array or an object of `n`
 * members (or, now and then, thousands), nested a little, now and then
 * with a name twice. */
static size_t junk(char *buf, size_t len, size_t size, unsigned n)
{
	/* now and then past LEAN_PIECE (64 KiB), which is checked a member at a
	 * time, and then mostly without a name twice */
	if (rnd(12) == 0)
		n = 2000 + rnd(3000);
	bool dups = n < 2000 || rnd(4) == 0;
	bool object = rnd(2) == 0;
	len = put(buf, len, size, object ? "{" : "[");
	for (unsigned i = 0; i < n; i++) {
		char item[96];
		unsigned k = dups && rnd(40) == 0 && i > 0 ? rnd(i) : i;
		if (object)
			snprintf(item, sizeof item, "%s\"k%u\":%s", i ? "," : "", k,
				 rnd(3) ? "[1,{\"a\":[true,null]},\"s\"]" : "-12.5");
		else
			snprintf(item, sizeof item, "%s%s", i ? "," : "",
				 rnd(3) ? "{\"a\":[1,2,{\"b\":\"c\"}],\"d\":false}" : "[[[]]]");
		len = put(buf, len, size, item);
	}
	return put(buf, len, size, object ? "}" : "]");
}

/* The members of a case, in a random order: "blocks" of n elements
 * (legal ones only when `legal`), and maybe "id", "trace" and unknown
 * members, large or small. */
static size_t md_case(char *buf, size_t len, size_t size, unsigned n, bool legal)
{
	static const char *const ws[] = {"", " ", "\n", "\r\n\t "};
	unsigned order[5] = {0, 1, 2, 3, 4};
	for (unsigned i = 4; i > 0; i--) {
		unsigned j = rnd(i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	len = put(buf, len, size, "{");
	bool first = true;
	for (unsigned m = 0; m < 5; m++) {
		unsigned what = order[m];
		if (what != 0 && rnd(2) == 0)
			continue;
		if (what == 4 && !legal && rnd(3) != 0)
			continue;
		len = put(buf, len, size, first ? ws[rnd(4)] : ",");
		first = false;
		switch (what) {
		case 0:
			/* now and then with an escape, which names the same member */
			len = put(buf, len, size, rnd(8) ? "\"blocks\":" : "\"bl\\u006fcks\":");
			len = put(buf, len, size, ws[rnd(4)]);
			len = put(buf, len, size, "[");
			for (unsigned i = 0; i < n; i++) {
				unsigned k = legal || rnd(50) != 0
						 ? rnd(LEGAL)
						 : rnd(sizeof elements / sizeof *elements);
				if (i)
					len = put(buf, len, size, ",");
				len = put(buf, len, size, elements[k]);
			}
			len = put(buf, len, size, "]");
			break;
		case 1:
			len = put(buf, len, size, rnd(2) ? "\"id\":\"a\\u00e9b\"" : "\"id\":7");
			break;
		case 2:
			len = put(buf, len, size, rnd(4) ? "\"trace\":false" : "\"trace\":true");
			break;
		case 3:
			len = put(buf, len, size, "\"id\":");
			len = junk(buf, len, size, 1 + rnd(300));
			break;
		default:
			len = put(buf, len, size, rnd(2) ? "\"junk\":" : "\"blocks\":");
			len = junk(buf, len, size, rnd(2) ? 1 + rnd(400) : 2);
			break;
		}
	}
	return put(buf, len, size, "}");
}

/* A body for `path`: the case alone, or as a judge case's input. */
static size_t md_body(char *buf, size_t size, const char *path, unsigned n, bool legal)
{
	size_t len = 0;
	bool judge = strstr(path, "judge") != NULL;
	if (judge)
		len = put(buf, len, size,
			  rnd(2) ? "{\"output\":\"0\\n3\\n\",\"input\":" : "{\"input\":");
	len = md_case(buf, len, size, n, legal);
	if (judge)
		len = put(buf, len, size, rnd(2) ? ",\"output\":\"3\\n4\\n\"}" : "}");
	return len;
}

/* Rows of a Puyo "field": the public example's, then faults. */
static const char *const rows[] = {
    "\"......\"", "\"......\"",	  "\"......\"",	      "\"......\"",    "\"......\"",
    "\"......\"", "\"......\"",	  "\"......\"",	      "\".Y....\"",    "\".YG...\"",
    "\"RRYG..\"", "\"RRYGG.\"",	  "\"OOOOOO\"",	      "\"..X...\"",    "\".....\"",
    "7",	  "[\"......\"]", "\"\\u002e.....\"", "\"\xff.....\"", "null",
    "\"RRRR..\"", " \"GGGG..\" ",
};

/* A Puyo case: "field" of n rows (the example's when n is 12 and the rows
 * are `legal`), maybe "id", "trace", a link and unknown members. */
static size_t puyo_case(char *buf, size_t len, size_t size, unsigned n, bool legal)
{
	len = put(buf, len, size, "{");
	if (rnd(3) == 0)
		len = put(buf, len, size, rnd(2) ? "\"id\":\"p\"," : "\"trace\":true,");
	if (rnd(4) == 0) {
		len = put(buf, len, size, "\"more\":");
		len = junk(buf, len, size, 1 + rnd(300));
		len = put(buf, len, size, ",");
	}
	if (rnd(8) == 0)
		len = put(buf, len, size, "\"puyop\":\"4004g09y09yg\",");
	len = put(buf, len, size, rnd(8) ? "\"field\":[" : "\"fi\\u0065ld\":[");
	for (unsigned i = 0; i < n; i++) {
		if (i)
			len = put(buf, len, size, ",");
		unsigned k = legal && i < 12 ? i : rnd(sizeof rows / sizeof *rows);
		len = put(buf, len, size, rows[k]);
	}
	len = put(buf, len, size, "]");
	if (rnd(3) == 0)
		len = put(buf, len, size, rnd(2) ? ",\"trace\":false" : ",\"id\":{\"x\":1}");
	return put(buf, len, size, "}");
}

static const char *const paths[] = {"/v1/monomino-domino", "/v1/monomino-domino/judge",
				    "/v1/monomino-domino/validate"};
static const char *const puyo_paths[] = {"/v1/puyo", "/v1/puyo/judge", "/v1/puyo/validate"};

/* Puyo cases read lean: a "field" of any length, alone or as judge input. */
static void lean_puyo_cases_should_be_answered_as_their_tree(void **state)
{
	(void)state;
	char *buf = malloc(BODY_MAX);
	assert_non_null(buf);
	for (unsigned r = 0; r < 3000; r++) {
		const char *path = puyo_paths[rnd(3)];
		bool judge = strstr(path, "judge") != NULL;
		unsigned n = rnd(3) ? 12 + rnd(2) : rnd(8) == 0 ? rnd(5000) : rnd(30);
		size_t len = put(buf, 0, BODY_MAX, judge ? "{\"input\":" : "");
		len = puyo_case(buf, len, BODY_MAX, n, rnd(2) == 0);
		if (judge)
			len = put(buf, len, BODY_MAX, ",\"output\":\"3\\n\"}");
		if (rnd(4) == 0)
			len = rnd((unsigned)len + 1);
		else if (rnd(2))
			len = mutate(buf, len, BODY_MAX);
		const char *query = rnd(3) == 0 && !strstr(path, "validate") ? "trace=true" : NULL;
		same_answers(path, query, buf, len, &lean_limits);
	}
	free(buf);
}

static void run(unsigned rounds, bool mutated)
{
	char *buf = malloc(BODY_MAX);
	assert_non_null(buf);
	for (unsigned r = 0; r < rounds; r++) {
		const char *path = paths[rnd(3)];
		unsigned n = rnd(8) == 0 ? rnd(3000) : rnd(40);
		size_t len = md_body(buf, BODY_MAX, path, n, rnd(2) == 0);
		if (mutated && rnd(4) == 0)
			len = rnd((unsigned)len + 1); /* cut short */
		else if (mutated)
			len = mutate(buf, len, BODY_MAX);
		const char *query = rnd(3) == 0 && !strstr(path, "validate") ? "trace=true" : NULL;
		struct route_limits l = lean_limits;
		if (rnd(4) == 0)
			l.max_blocks = 1 + rnd(50);
		if (rnd(4) == 0)
			l.max_trace_steps = 1 + rnd(60);
		/* solve drawn as SVG reads its case lean too */
		if (rnd(6) == 0 && strcmp(path, paths[0]) == 0)
			body_accept = "image/svg+xml";
		same_answers(path, query, buf, len, &l);
		body_accept = NULL;
	}
	free(buf);
}

static void lean_cases_should_be_answered_as_their_tree(void **state)
{
	(void)state;
	run(1500, false);
}

static void mutated_lean_cases_should_be_answered_as_their_tree(void **state)
{
	(void)state;
	run(3000, true);
}

/* Batches of large cases: each case is read lean inside the batch. */
static void lean_cases_of_a_batch_should_be_answered_as_their_tree(void **state)
{
	(void)state;
	char *buf = malloc(BODY_MAX);
	assert_non_null(buf);
	for (unsigned r = 0; r < 400; r++) {
		const char *path = paths[rnd(3)];
		size_t len = put(buf, 0, BODY_MAX, rnd(6) ? "{\"cases\":[" : "{\"c\\u0061ses\":[");
		unsigned cases = 1 + rnd(4);
		for (unsigned c = 0; c < cases; c++) {
			if (c)
				len = put(buf, len, BODY_MAX, ",");
			len += md_body(buf + len, BODY_MAX - len, path, rnd(300), rnd(2) == 0);
		}
		len = put(buf, len, BODY_MAX, "]");
		if (rnd(4) == 0) { /* a member beside "cases", refused by its name */
			len = put(buf, len, BODY_MAX, rnd(8) ? ",\"more\":" : ",\"cases\":");
			len = junk(buf, len, BODY_MAX, 1 + rnd(300));
		}
		len = put(buf, len, BODY_MAX, "}");
		if (rnd(4) == 0)
			len = rnd((unsigned)len + 1); /* cut short */
		else if (rnd(2))
			len = mutate(buf, len, BODY_MAX);
		const char *query = rnd(3) == 0 && !strstr(path, "validate") ? "trace=true" : NULL;
		if (rnd(6) == 0 && strcmp(path, puyo_paths[0]) == 0)
			body_accept = "image/svg+xml";
		same_answers(path, query, buf, len, &lean_limits);
		body_accept = NULL;
	}
	free(buf);
}

/* Bodies that are a large array, not a case: refused by their type, in
 * every route, whole, cut short or with trailing bytes. */
static void large_arrays_should_be_answered_as_their_tree(void **state)
{
	(void)state;
	char *buf = malloc(BODY_MAX);
	assert_non_null(buf);
	for (unsigned r = 0; r < 120; r++) {
		size_t len = put(buf, 0, BODY_MAX, "[");
		unsigned n = 3000 + rnd(3000);
		for (unsigned i = 0; i < n; i++)
			len = put(buf, len, BODY_MAX, i ? ",[1,2,3],{\"t\":1}" : "[1,1,1]");
		len = put(buf, len, BODY_MAX, rnd(4) ? "]" : "] x");
		if (rnd(3) == 0)
			len = mutate(buf, len, BODY_MAX);
		const char *path = rnd(2) ? paths[rnd(3)] : puyo_paths[rnd(3)];
		same_answers(path, NULL, buf, len, &lean_limits);
		/* and as the cases of a batch */
		memmove(buf + 10, buf, len);
		memcpy(buf, "{\"cases\":[", 10);
		len = put(buf, len + 10, BODY_MAX, "]}");
		same_answers(path, NULL, buf, len, &lean_limits);
	}
	free(buf);
}

/* Nesting about jansson's limit of 2048 levels, in an element of the lean
 * array and in a member beside it: the scan's own limit is lower, and
 * jansson decides every such body. */
static void deep_cases_should_be_answered_as_their_tree(void **state)
{
	(void)state;
	char *buf = malloc(BODY_MAX);
	assert_non_null(buf);
	for (unsigned depth = 2035; depth <= 2050; depth++) {
		for (unsigned where = 0; where < 2; where++) {
			size_t len =
			    put(buf, 0, BODY_MAX, where ? "{\"more\":" : "{\"blocks\":[[1,1,1],");
			for (unsigned i = 0; i < depth; i++)
				len = put(buf, len, BODY_MAX, "[");
			for (unsigned i = 0; i < depth; i++)
				len = put(buf, len, BODY_MAX, "]");
			len = put(buf, len, BODY_MAX, where ? ",\"blocks\":[[1,1,1]]}" : "]}");
			for (size_t p = 0; p < 3; p++)
				same_answers(paths[p], NULL, buf, len, &lean_limits);
		}
	}
	free(buf);
}

/* --- the peak of allocated bytes --- */

static size_t live, peak;

static void *count_malloc(size_t size)
{
	size_t *p = malloc(size + sizeof(size_t) * 2);
	if (!p)
		return NULL;
	p[0] = size;
	live += size;
	if (live > peak)
		peak = live;
	return p + 2;
}

static void count_free(void *ptr)
{
	if (!ptr)
		return;
	size_t *p = (size_t *)ptr - 2;
	live -= p[0];
	free(p);
}

static void *count_realloc(void *ptr, size_t size)
{
	if (!ptr)
		return count_malloc(size);
	size_t old = ((size_t *)ptr)[-2];
	void *q = count_malloc(size);
	if (!q)
		return NULL;
	memcpy(q, ptr, old < size ? old : size);
	count_free(ptr);
	return q;
}

/* The peak of bytes allocated while route_handle() answers the body. */
static size_t peak_of(const char *path, const char *query, const char *body, size_t len,
		      const struct route_limits *l, unsigned *status)
{
	struct answer a;
	json_set_alloc_funcs(count_malloc, count_free);
	dj_alloc_set(count_malloc, count_realloc, count_free);
	live = peak = 0;
	answer(path, query, body, len, l, &a);
	size_t got = peak;
	*status = a.resp.status;
	route_response_free(&a.resp);
	dj_alloc_set(NULL, NULL, NULL);
	json_set_alloc_funcs(malloc, free);
	return got;
}

static void a_lean_case_should_hold_one_element_at_a_time(void **state)
{
	(void)state;
	/* 20,000 blocks as objects with an "id": not the canonical shape */
	char *buf = malloc(BODY_MAX);
	assert_non_null(buf);
	size_t len = put(buf, 0, BODY_MAX, "{\"id\":\"big\",\"blocks\":[");
	for (unsigned i = 0; i < 20000; i++)
		len = put(buf, len, BODY_MAX,
			  i ? ",{\"t\":1,\"x\":0,\"y\":0}" : "{\"t\":2,\"x\":1,\"y\":1}");
	len = put(buf, len, BODY_MAX, "],\"trace\":false}");
	struct route_limits lean = lean_limits, tree = lean_limits;
	lean.max_blocks = tree.max_blocks = 100000;
	tree.tree_only = true;
	static const char *const where[] = {"/v1/monomino-domino", "/v1/monomino-domino/validate"};
	for (size_t w = 0; w < 2; w++) {
		unsigned st_lean, st_tree;
		size_t lean_peak = peak_of(where[w], NULL, buf, len, &lean, &st_lean);
		size_t tree_peak = peak_of(where[w], NULL, buf, len, &tree, &st_tree);
		assert_int_equal(st_lean, 200);
		assert_int_equal(st_tree, 200);
		/* the tree is many times the body; the lean read a few kilobytes */
		if (lean_peak > 64 * 1024 || tree_peak < 4 * len)
			fail_msg("%s: body %zu bytes, peak %zu bytes lean, %zu as a tree", where[w],
				 len, lean_peak, tree_peak);
	}
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(lean_cases_should_be_answered_as_their_tree),
	    cmocka_unit_test(mutated_lean_cases_should_be_answered_as_their_tree),
	    cmocka_unit_test(lean_cases_of_a_batch_should_be_answered_as_their_tree),
	    cmocka_unit_test(lean_puyo_cases_should_be_answered_as_their_tree),
	    cmocka_unit_test(deep_cases_should_be_answered_as_their_tree),
	    cmocka_unit_test(large_arrays_should_be_answered_as_their_tree),
	    cmocka_unit_test(a_lean_case_should_hold_one_element_at_a_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
