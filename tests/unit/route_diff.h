/*
 * The differential harness of the route tests that read a body two ways
 * (test_batch.c, test_lean.c): route_handle() with the limits under test
 * and with route_limits.tree_only, the jansson tree of the whole body,
 * must give the same status, content type, headers, body bytes and
 * counts. A streamed answer is gathered whole first. Also a small
 * deterministic generator and a mutator of bodies.
 */
#ifndef DROPJUDGE_TESTS_ROUTE_DIFF_H
#define DROPJUDGE_TESTS_ROUTE_DIFF_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "route/route.h"

#define BODY_MAX (1u << 22)

/* A small deterministic generator (xorshift64*). */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static inline unsigned rnd(unsigned n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (unsigned)((rng_state * 0x2545F4914F6CDD1Du) >> 33) % n;
}

/* The answer of one reader. */
struct answer {
	struct route_response resp;
	struct route_tally tally;
	bool streamed; /* the body came as a stream */
};

/* The Content-Type of the bodies answer() sends, and its Accept (NULL:
 * none). */
static const char *body_type = "application/json";
static const char *body_accept = NULL;

/* A POST of body to path, with one query parameter "key=value" (NULL:
 * none), sent as `type`, with an Accept header when `accept` is not NULL;
 * a streamed answer is gathered whole. */
static inline void answer_as(const char *path, const char *query, const char *type,
			     const char *accept, const char *body, size_t len,
			     const struct route_limits *limits, struct answer *a)
{
	struct route_request req;
	memset(&req, 0, sizeof req);
	memset(a, 0, sizeof *a);
	req.method = "POST";
	req.path = path;
	req.content_type = type;
	req.accept = accept;
	req.body = body;
	req.body_len = len;
	req.limits = limits;
	req.tally = &a->tally;
	if (query) {
		char *eq = strchr(query, '=');
		static char key[32];
		snprintf(key, sizeof key, "%.*s", (int)(eq - query), query);
		req.params[0].key = key;
		req.params[0].value = eq + 1;
		req.nparams = 1;
	}
	route_handle(&req, &a->resp);
	a->streamed = a->resp.stream.read != NULL;
	assert_true(route_response_gather(&a->resp));
}

static inline void answer_with(const char *path, const char *query, const char *type,
			       const char *accept, const char *body, size_t len,
			       const struct route_limits *limits, struct answer *a)
{
	answer_as(path, query, type, accept, body, len, limits, a);
}

/* answer_with() as body_type, asking for body_accept. */
static inline void answer(const char *path, const char *query, const char *body, size_t len,
			  const struct route_limits *limits, struct answer *a)
{
	answer_with(path, query, body_type, body_accept, body, len, limits, a);
}

/* Demands of a the answer and counts of the reference b. */
static inline void same_as(const char *path, const char *query, const char *body, size_t len,
			   const struct answer *a, const struct answer *b, const char *who)
{
	if (a->resp.status != b->resp.status || a->resp.body_len != b->resp.body_len ||
	    (a->resp.body_len && memcmp(a->resp.body, b->resp.body, a->resp.body_len) != 0))
		fail_msg("%s?%s differs (%s) on %.*s\n-> %u %.*s\n-> %u %.*s (reference)", path,
			 query ? query : "", who, (int)(len > 2000 ? 2000 : len), body,
			 a->resp.status, (int)(a->resp.body_len > 2000 ? 2000 : a->resp.body_len),
			 a->resp.body, b->resp.status,
			 (int)(b->resp.body_len > 2000 ? 2000 : b->resp.body_len), b->resp.body);
	assert_string_equal(a->resp.content_type, b->resp.content_type);
	assert_int_equal(a->resp.nheaders, b->resp.nheaders);
	for (size_t i = 0; i < a->resp.nheaders; i++) {
		assert_string_equal(a->resp.headers[i].name, b->resp.headers[i].name);
		assert_string_equal(a->resp.headers[i].value, b->resp.headers[i].value);
	}
	assert_int_equal(a->tally.solved, b->tally.solved);
	assert_int_equal(a->tally.rejected, b->tally.rejected);
	for (size_t i = 0; i < ROUTE_VERDICTS; i++)
		assert_int_equal(a->tally.verdicts[i], b->tally.verdicts[i]);
}

/*
 * Demands the same answer from both readers; returns whether the body was
 * answered by the case-by-case reader's stream.
 */
static inline bool same_answers(const char *path, const char *query, const char *body, size_t len,
				const struct route_limits *limits)
{
	struct route_limits tree = *limits;
	struct answer a, b;
	tree.tree_only = true;
	answer(path, query, body, len, limits, &a);
	answer(path, query, body, len, &tree, &b);
	assert_false(b.streamed);
	same_as(path, query, body, len, &a, &b, "case by case");
	route_response_free(&a.resp);
	route_response_free(&b.resp);
	return a.streamed;
}

/* Bytes that mutations put into a body. */
static const char *const tokens[] = {
    "{", "}", "[", "]",		",",	  ":",	  "\"",	  "\\",		  " ",	  "\n", "0",
    "1", "-", "e", "\"cases\"", "\"id\"", "true", "null", "\xef\xbb\xbf", "\xc3", "\t", "\"trace\"",
};

/* Changes a few bytes of buf at random: a byte removed, a token put in, a
 * byte changed. Returns the new length. */
static inline size_t mutate(char *buf, size_t len, size_t size)
{
	unsigned edits = 1 + rnd(3);
	for (unsigned e = 0; e < edits && len > 0; e++) {
		size_t at = rnd((unsigned)len);
		switch (rnd(3)) {
		case 0:
			memmove(buf + at, buf + at + 1, len - at - 1);
			len--;
			break;
		case 1: {
			const char *t = tokens[rnd(sizeof tokens / sizeof *tokens)];
			size_t tl = strlen(t);
			if (len + tl >= size)
				break;
			memmove(buf + at + tl, buf + at, len - at);
			memcpy(buf + at, t, tl);
			len += tl;
			break;
		}
		default:
			buf[at] = (char)rnd(256);
			break;
		}
	}
	return len;
}

#endif
