/*
 * libFuzzer target: the JSON fast paths (codec/md_json.c and
 * codec/puyo_codec.c) against the jansson path they fall back to.
 *
 * Input: byte 0 holds flags (bit 0: Puyo, else Monomino-Domino; bit 1:
 * Accept text/plain; bit 2: a limit of 3 blocks), the rest is a request
 * body. Checked:
 * - whatever a fast path takes, jansson parses (duplicates refused, as the
 *   service does) and the full decoder reads without a fault into exactly
 *   the same blocks or field;
 * - route_handle() answers a body the fast path takes with the same
 *   status, Content-Type and bytes, and counts the same for the metrics,
 *   as the same case that only the jansson path can take: "trace": false
 *   put first, which changes nothing for the full decoder and which the
 *   fast path never takes.
 * Bodies the fast path refuses go down the jansson path in both cases, so
 * every error is the jansson path's by construction.
 *
 * With bit 3 of the flags byte, the body is a batch instead (read as one
 * jansson tree): route_handle() must answer it without a fault, and with
 * the same status, Content-Type, headers and bytes, and the same counts,
 * when asked again. Bits 4-5 choose solve, judge or validate, bit 6 asks
 * ?trace=true, bit 7 a limit of 3 cases and 20 trace steps.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/md_codec.h"
#include "codec/puyo_codec.h"
#include "fuzz_common.h"
#include "route/route.h"

#define BLOCKS_KEPT 4096

struct sink {
	unsigned long n;
	struct md_block blocks[BLOCKS_KEPT];
};

static int sink_block(void *ctx, struct md_block block, unsigned long index)
{
	struct sink *s = ctx;
	FUZZ_CHECK(index == s->n, "index %lu, want %lu", index, s->n);
	if (s->n < BLOCKS_KEPT)
		s->blocks[s->n] = block;
	s->n++;
	return 0;
}

static bool same_blocks(const struct sink *a, const struct sink *b)
{
	if (a->n != b->n)
		return false;
	unsigned long kept = a->n < BLOCKS_KEPT ? a->n : BLOCKS_KEPT;
	return kept == 0 || memcmp(a->blocks, b->blocks, kept * sizeof a->blocks[0]) == 0;
}

static const struct route_limits limits_default = {
    .max_body = 1u << 20, .max_blocks = 1000000, .max_batch = 1000, .max_trace_steps = 0};
static const struct route_limits limits_small = {
    .max_body = 1u << 20, .max_blocks = 3, .max_batch = 1000, .max_trace_steps = 0};

/* route_handle() on a POST of body to path, answered as `accept` (NULL:
 * no Accept header), with ?trace=true when trace; what it counted into
 * *tally. */
static void post_request_as(const char *path, const char *body, size_t len, const char *accept,
			    bool trace, const struct route_limits *limits,
			    struct route_response *resp, struct route_tally *tally)
{
	struct route_request req;
	memset(&req, 0, sizeof req);
	memset(tally, 0, sizeof *tally);
	req.tally = tally;
	req.method = "POST";
	req.path = path;
	req.content_type = "application/json";
	req.accept = accept;
	req.body = body;
	req.body_len = len;
	req.limits = limits;
	if (trace) {
		req.params[0].key = "trace";
		req.params[0].value = "true";
		req.nparams = 1;
	}
	memset(resp, 0, sizeof *resp);
	route_handle(&req, resp);
}

static void post_request(const char *path, const char *body, size_t len, const char *accept,
			 bool trace, const struct route_limits *limits, struct route_response *resp,
			 struct route_tally *tally)
{
	post_request_as(path, body, len, accept, trace, limits, resp, tally);
}

/* Whether two answers are the same: status, type, headers and bytes. */
static void check_same(const struct route_response *a, const struct route_response *b,
		       const char *what)
{
	FUZZ_CHECK(a->status == b->status, "%s: %u / %u", what, a->status, b->status);
	FUZZ_CHECK((a->content_type == NULL) == (b->content_type == NULL) &&
		       (!a->content_type || strcmp(a->content_type, b->content_type) == 0),
		   "%s: content types differ", what);
	FUZZ_CHECK(a->nheaders == b->nheaders, "%s: %zu headers / %zu", what, a->nheaders,
		   b->nheaders);
	for (size_t i = 0; i < a->nheaders; i++)
		FUZZ_CHECK(strcmp(a->headers[i].name, b->headers[i].name) == 0 &&
			       strcmp(a->headers[i].value, b->headers[i].value) == 0,
			   "%s: header %s: %s / %s", what, a->headers[i].name, a->headers[i].value,
			   b->headers[i].value);
	FUZZ_CHECK(a->body_len == b->body_len && memcmp(a->body, b->body, a->body_len) == 0,
		   "%s: '%.*s' / '%.*s'", what, (int)a->body_len, a->body, (int)b->body_len,
		   b->body);
}

static void post(const char *path, const char *body, size_t len, bool text,
		 const struct route_limits *limits, struct route_response *resp,
		 struct route_tally *tally)
{
	post_request(path, body, len, text ? "text/plain" : "application/json", false, limits, resp,
		     tally);
}

/* The same body with "trace": false as its first member (body starts with '{'). */
static char *with_trace_false(const char *body, size_t len, size_t *out_len)
{
	static const char head[] = "{\"trace\":false,";
	const char *brace = memchr(body, '{', len);
	size_t rest = len - (size_t)(brace + 1 - body);
	char *b = malloc(sizeof head - 1 + rest);
	FUZZ_CHECK(b != NULL, "out of memory");
	memcpy(b, head, sizeof head - 1);
	memcpy(b + sizeof head - 1, brace + 1, rest);
	*out_len = sizeof head - 1 + rest;
	return b;
}

static void check_route(const char *path, const char *body, size_t len, bool text,
			const struct route_limits *limits)
{
	struct route_response fast, full;
	struct route_tally fast_tally, full_tally;
	size_t len2;
	char *body2 = with_trace_false(body, len, &len2);
	post(path, body, len, text, limits, &fast, &fast_tally);
	post(path, body2, len2, text, limits, &full, &full_tally);
	FUZZ_CHECK(memcmp(&fast_tally, &full_tally, sizeof fast_tally) == 0,
		   "the fast path counted otherwise for the metrics");
	FUZZ_CHECK(fast.status == full.status, "fast path %u, jansson path %u", fast.status,
		   full.status);
	FUZZ_CHECK(fast.status == 200, "the fast path took a body answered %u", fast.status);
	FUZZ_CHECK(strcmp(fast.content_type, full.content_type) == 0, "content types %s / %s",
		   fast.content_type, full.content_type);
	FUZZ_CHECK(fast.body_len == full.body_len &&
		       memcmp(fast.body, full.body, fast.body_len) == 0,
		   "fast path answered '%.*s', jansson path '%.*s'", (int)fast.body_len, fast.body,
		   (int)full.body_len, full.body);
	route_response_free(&fast);
	route_response_free(&full);
	free(body2);
}

static void check_md(const char *body, size_t len, bool text, const struct route_limits *limits)
{
	static struct sink fast, full;
	memset(&fast, 0, sizeof fast);
	if (!md_json_fast_read(body, len, limits->max_blocks, sink_block, &fast))
		return;
	json_error_t jerr;
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	FUZZ_CHECK(root != NULL, "the fast path took what jansson refuses: %s", jerr.text);
	struct codec_error err;
	codec_error_init(&err);
	memset(&full, 0, sizeof full);
	struct md_read_options opt = {.max_blocks = limits->max_blocks, .strict = false};
	enum codec_status st = md_json_read(root, "", &opt, &err, sink_block, &full);
	json_decref(root);
	FUZZ_CHECK(st == CODEC_OK, "the fast path took a case md_json_read refuses: %s",
		   err.detail);
	FUZZ_CHECK(same_blocks(&fast, &full), "fast path %lu blocks, md_json_read %lu", fast.n,
		   full.n);
	check_route("/v1/monomino-domino", body, len, text, limits);
}

static void check_puyo(const char *body, size_t len, bool text, const struct route_limits *limits)
{
	struct puyo_field fast, full;
	struct puyo_planes planes;
	unsigned rows;
	if (!puyo_json_fast_planes(body, len, &planes, &rows))
		return;
	puyo_planes_to_field(&planes, rows, &fast);
	json_error_t jerr;
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	FUZZ_CHECK(root != NULL, "the fast path took what jansson refuses: %s", jerr.text);
	struct codec_error err;
	codec_error_init(&err);
	enum codec_status st = puyo_json_read(root, "", false, &full, &err);
	json_decref(root);
	FUZZ_CHECK(st == CODEC_OK, "the fast path took a field puyo_json_read refuses: %s",
		   err.detail);
	FUZZ_CHECK(fast.rows == full.rows &&
		       memcmp(fast.cell, full.cell, fast.rows * sizeof fast.cell[0]) == 0,
		   "the fast path read another field");
	check_route("/v1/puyo", body, len, text, limits);
}

/* route_handle() on a batch; a stream is gathered. */
static void post_batch(const char *path, bool trace, const char *body, size_t len,
		       const struct route_limits *limits, struct route_response *resp,
		       struct route_tally *tally)
{
	post_request(path, body, len, NULL, trace, limits, resp, tally);
	FUZZ_CHECK(route_response_gather(resp), "a streamed answer failed");
}

static void check_batch(unsigned flags, const char *body, size_t len)
{
	static const char *const paths[2][4] = {
	    {"/v1/monomino-domino", "/v1/monomino-domino/judge", "/v1/monomino-domino/validate",
	     "/v1/monomino-domino"},
	    {"/v1/puyo", "/v1/puyo/judge", "/v1/puyo/validate", "/v1/puyo"},
	};
	const char *path = paths[flags & 1][(flags >> 4) & 3];
	bool trace = (flags & 64) && !strstr(path, "validate");
	struct route_limits limits = flags & 4 ? limits_small : limits_default;
	if (flags & 128) {
		limits.max_batch = 3;
		limits.max_trace_steps = 20;
	}
	struct route_response a, b;
	struct route_tally ta, tb;
	post_batch(path, trace, body, len, &limits, &a, &ta);
	post_batch(path, trace, body, len, &limits, &b, &tb);
	FUZZ_CHECK(memcmp(&ta, &tb, sizeof ta) == 0, "asked again, counted otherwise");
	check_same(&a, &b, "first / asked again");
	route_response_free(&a);
	route_response_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned flags = data[0];
	char *body = fuzz_dup(data + 1, size - 1);
	const struct route_limits *limits = flags & 4 ? &limits_small : &limits_default;
	if (flags & 8)
		check_batch(flags, body, size - 1);
	else if (flags & 1)
		check_puyo(body, size - 1, flags & 2, limits);
	else
		check_md(body, size - 1, flags & 2, limits);
	free(body);
	return 0;
}
