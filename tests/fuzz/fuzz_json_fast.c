/*
 * libFuzzer target: the JSON fast paths (codec/md_json_fast.c,
 * codec/puyo_json_fast.c) against the jansson path they fall back to.
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

/* route_handle() on a POST of body to path; what it counted into *tally. */
static void post(const char *path, const char *body, size_t len, bool text,
		 const struct route_limits *limits, struct route_response *resp,
		 struct route_tally *tally)
{
	struct route_request req;
	memset(&req, 0, sizeof req);
	memset(tally, 0, sizeof *tally);
	req.tally = tally;
	req.method = "POST";
	req.path = path;
	req.content_type = "application/json";
	req.accept = text ? "text/plain" : "application/json";
	req.body = body;
	req.body_len = len;
	req.limits = limits;
	memset(resp, 0, sizeof *resp);
	route_handle(&req, resp);
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
	codec_error_init(&err, 1);
	memset(&full, 0, sizeof full);
	struct md_read_options opt = {limits->max_blocks, false};
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
	if (!puyo_json_fast_read(body, len, &fast))
		return;
	json_error_t jerr;
	json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	FUZZ_CHECK(root != NULL, "the fast path took what jansson refuses: %s", jerr.text);
	struct codec_error err;
	codec_error_init(&err, 1);
	enum codec_status st = puyo_json_read(root, "", false, &full, &err);
	json_decref(root);
	FUZZ_CHECK(st == CODEC_OK, "the fast path took a field puyo_json_read refuses: %s",
		   err.detail);
	FUZZ_CHECK(fast.rows == full.rows &&
		       memcmp(fast.cell, full.cell, fast.rows * sizeof fast.cell[0]) == 0,
		   "the fast path read another field");
	check_route("/v1/puyo", body, len, text, limits);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned flags = data[0];
	char *body = fuzz_dup(data + 1, size - 1);
	const struct route_limits *limits = flags & 4 ? &limits_small : &limits_default;
	if (flags & 1)
		check_puyo(body, size - 1, flags & 2, limits);
	else
		check_md(body, size - 1, flags & 2, limits);
	free(body);
	return 0;
}
