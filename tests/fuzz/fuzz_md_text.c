/*
 * libFuzzer target: the Monomino-Domino text push parser (md_text_*).
 *
 * Input: byte 0 chooses the options (bits 0-2: max_blocks from a table;
 * bits 4-7: the callback asks to stop after that many blocks, 0 never),
 * byte 1 seeds the chunk sizes, the rest is the text. Each input is read
 * lenient and strict, first-wins and collecting, whole and in chunks whose
 * sizes come from the input. Checked:
 * - the same status, error and blocks whether the text comes whole or in
 *   chunks (each chunk in its own exact-size buffer, so that a read past a
 *   chunk's end is caught);
 * - the fast path (md_text.c, whole lines from chunks of 8 bytes or
 *   more) against the byte-at-a-time reader alone (one-byte chunks): the
 *   same status, error and blocks, in both modes;
 * - md_text_take() as `dropjudge solve` uses it (canonical lines straight
 *   into batches of 1..40, every other line through md_text_feed(), in
 *   chunks of 1..256 bytes) against the byte-at-a-time reader: the same
 *   status, error and blocks, in both modes;
 * - every block handed to the callback passes md_check(), indexes count
 *   0, 1, 2, ..., and no block is handed on after a fault or a stop;
 * - collect mode reports first what first-wins mode reports; no error
 *   struct gives the same status;
 * - success hands on exactly N blocks, at most max_blocks;
 * - what strict mode accepts, lenient mode accepts with the same blocks,
 *   and md_json_read accepts the same blocks as a JSON case;
 * - every error builds a problem+json document.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/md_codec.h"
#include "fuzz_common.h"

/* Errors of the tests: collect mode takes its storage from a small ring,
 * so that two collecting errors can be alive at once. */
static struct codec_fault fault_ring[4][CODEC_FAULTS_MAX];
static unsigned fault_ring_next;

static void error_init(struct codec_error *err, unsigned max_faults)
{
	if (max_faults <= 1) {
		codec_error_init(err);
		return;
	}
	codec_error_collect(err, fault_ring[fault_ring_next++ % 4], max_faults);
}

#define BLOCKS_KEPT 4096

/* What a read handed to the callback. */
struct sink {
	const struct md_text_reader *reader; /* to check that no fault came first */
	const struct codec_error *err;	     /* the reader's error, NULL allowed */
	unsigned long n;		     /* blocks received */
	unsigned long stop_after;	     /* ask to stop after this many; 0 never */
	bool stopped;			     /* the callback asked to stop */
	struct md_block blocks[BLOCKS_KEPT]; /* the first BLOCKS_KEPT */
};

static int sink_block(void *ctx, struct md_block block, unsigned long index)
{
	struct sink *s = ctx;
	FUZZ_CHECK(!s->stopped, "block %lu after the callback asked to stop", index);
	FUZZ_CHECK(md_check(block.t, block.x, block.y) == MD_FAULT_NONE,
		   "block %lu (%u %u %u) is not legal", index, block.t, block.x, block.y);
	FUZZ_CHECK(index == s->n, "index %lu, want %lu", index, s->n);
	FUZZ_CHECK(md_text_status(s->reader) == CODEC_OK, "block %lu handed on after a fault",
		   index);
	FUZZ_CHECK(!s->err || !codec_error_is_set(s->err),
		   "block %lu handed on after an error was set", index);
	if (s->n < BLOCKS_KEPT)
		s->blocks[s->n] = block;
	s->n++;
	if (s->stop_after && s->n >= s->stop_after) {
		s->stopped = true;
		return 1;
	}
	return 0;
}

static bool same_blocks(const struct sink *a, const struct sink *b)
{
	if (a->n != b->n)
		return false;
	unsigned long kept = a->n < BLOCKS_KEPT ? a->n : BLOCKS_KEPT;
	for (unsigned long i = 0; i < kept; i++)
		if (a->blocks[i].t != b->blocks[i].t || a->blocks[i].x != b->blocks[i].x ||
		    a->blocks[i].y != b->blocks[i].y)
			return false;
	return true;
}

/* One read of the text. */
struct run {
	enum codec_status fed;	       /* what the last md_text_feed said */
	enum codec_status status;      /* what md_text_finish said */
	struct codec_error err;	       /* zeroed first, so that runs compare */
	struct md_text_reader *reader; /* as left at the end */
	struct sink sink;
};

/* chunk_seed of a read one byte at a time, which never takes the fast path. */
#define CHUNK_BYTEWISE 0xFFFFFFFFu
/* chunk_seed bits of a read through md_text_take() (the low bits seed it). */
#define CHUNK_TAKE 0x80000000u

/* Feeds data[0..len) as `dropjudge solve` does: md_text_take() into batches
 * of `cap`, handed to the sink in order, and each line it leaves through
 * md_text_feed(). Returns the last status md_text_feed() gave. */
static enum codec_status take_feed(struct run *run, const char *data, size_t len, size_t cap,
				   enum codec_status fed)
{
	struct md_block batch[40];
	for (size_t at = 0; at < len;) {
		size_t taken;
		at += md_text_take(run->reader, data + at, len - at, batch, cap, &taken);
		for (size_t i = 0; i < taken; i++)
			sink_block(&run->sink, batch[i], run->sink.n);
		if (taken == cap || at == len)
			continue;
		const char *nl = memchr(data + at, '\n', len - at);
		size_t line = nl ? (size_t)(nl - (data + at)) + 1 : len - at;
		fed = md_text_feed(run->reader, data + at, line, sink_block, &run->sink);
		at += line;
	}
	return fed;
}

/*
 * Reads text[0..len). chunk_seed 0: whole, in one feed; CHUNK_BYTEWISE: one
 * byte per feed; otherwise in chunks of 1..16 bytes whose sizes come from
 * the seed and the text. with_err false: no error struct.
 */
static void run_read(struct run *run, const uint8_t *text, size_t len,
		     const struct md_read_options *opt, unsigned max_faults, bool with_err,
		     unsigned chunk_seed, unsigned long stop_after)
{
	md_text_free(run->reader); /* the one of the previous input */
	memset(run, 0, sizeof *run);
	error_init(&run->err, max_faults);
	struct codec_error *err = with_err ? &run->err : NULL;
	run->reader = md_text_new(opt, err);
	FUZZ_CHECK(run->reader != NULL, "no reader");
	run->sink.reader = run->reader;
	run->sink.err = err;
	run->sink.stop_after = stop_after;
	run->fed = CODEC_OK;
	if (chunk_seed & CHUNK_TAKE && chunk_seed != CHUNK_BYTEWISE) {
		unsigned state = chunk_seed;
		size_t cap = 1 + chunk_seed % 40;
		for (size_t pos = 0; pos < len;) {
			state = state * 1103515245u + 12345u + text[pos];
			size_t n = 1 + (state >> 16) % 256;
			if (n > len - pos)
				n = len - pos;
			char *copy = fuzz_dup(text + pos, n);
			run->fed = take_feed(run, copy, n, cap, run->fed);
			free(copy);
			pos += n;
		}
	} else if (chunk_seed == 0) {
		char *copy = fuzz_dup(text, len);
		run->fed = md_text_feed(run->reader, copy, len, sink_block, &run->sink);
		free(copy);
	} else {
		unsigned state = chunk_seed;
		for (size_t pos = 0; pos < len;) {
			state = state * 1103515245u + 12345u + text[pos];
			size_t n = chunk_seed == CHUNK_BYTEWISE ? 1 : 1 + (state >> 16) % 16;
			if (n > len - pos)
				n = len - pos;
			char *copy = fuzz_dup(text + pos, n);
			run->fed = md_text_feed(run->reader, copy, n, sink_block, &run->sink);
			free(copy);
			pos += n;
		}
		/* An empty chunk changes nothing. */
		run->fed = md_text_feed(run->reader, "", 0, sink_block, &run->sink);
	}
	run->status = md_text_finish(run->reader, sink_block, &run->sink);
	/* Finishing twice adds nothing. */
	FUZZ_CHECK(md_text_finish(run->reader, sink_block, &run->sink) == run->status,
		   "a second md_text_finish changed the status");
}

static const enum codec_status text_statuses[] = {CODEC_E_SYNTAX, CODEC_E_INVALID};

/* The invariants of one read on its own. */
static void check_run(const struct run *run, const struct md_read_options *opt, bool with_err)
{
	FUZZ_CHECK(run->status == md_text_status(run->reader),
		   "finish said %d, the reader holds %d", run->status, md_text_status(run->reader));
	FUZZ_CHECK(run->fed == CODEC_OK || run->fed == run->status, "feed said %d, finish %d",
		   run->fed, run->status);
	FUZZ_CHECK(run->status == CODEC_OK || run->status == CODEC_E_SYNTAX ||
		       run->status == CODEC_E_INVALID,
		   "status %d", run->status);
	if (with_err) {
		FUZZ_CHECK(run->err.status == run->status, "error status %d, returned %d",
			   run->err.status, run->status);
		fuzz_check_error(&run->err, text_statuses, 2);
		if (run->status != CODEC_OK)
			FUZZ_CHECK(run->err.nfaults >= 1 || run->err.dropped,
				   "an error with no fault");
	}
	if (opt->max_blocks)
		FUZZ_CHECK(run->sink.n <= opt->max_blocks, "%lu blocks over the limit of %lu",
			   run->sink.n, opt->max_blocks);
	if (opt->strict && run->status == CODEC_OK && !run->sink.stopped)
		FUZZ_CHECK(run->sink.n >= MD_BAEKJOON_MIN_N && run->sink.n <= MD_BAEKJOON_MAX_N,
			   "strict mode took %lu blocks", run->sink.n);
	if (run->status == CODEC_OK && !run->sink.stopped) {
		unsigned long declared = 0;
		FUZZ_CHECK(md_text_declared(run->reader, &declared), "success without N");
		FUZZ_CHECK(run->sink.n == declared, "success with %lu of %lu blocks", run->sink.n,
			   declared);
	}
	if (run->sink.stopped)
		FUZZ_CHECK(run->status == CODEC_OK, "stopped by the callback, status %d",
			   run->status);
}

/* The blocks, as the JSON case {"blocks": [[t, x, y], ...]}. */
static json_t *blocks_json(const struct sink *s)
{
	json_t *blocks = json_array();
	for (unsigned long i = 0; blocks && i < s->n; i++)
		json_array_append_new(
		    blocks, json_pack("[iii]", s->blocks[i].t, s->blocks[i].x, s->blocks[i].y));
	return json_pack("{so}", "blocks", blocks);
}

struct json_sink {
	const struct sink *want;
	unsigned long n;
};

static int json_sink_block(void *ctx, struct md_block block, unsigned long index)
{
	struct json_sink *js = ctx;
	FUZZ_CHECK(index == js->n && index < js->want->n, "JSON block %lu of %lu", index,
		   js->want->n);
	const struct md_block *w = &js->want->blocks[index];
	FUZZ_CHECK(w->t == block.t && w->x == block.x && w->y == block.y,
		   "JSON block %lu differs from the text", index);
	js->n++;
	return 0;
}

/* The blocks a text read accepted are accepted as a JSON case, the same. */
static void check_json_agrees(const struct run *run, const struct md_read_options *opt)
{
	if (run->sink.n > BLOCKS_KEPT)
		return;
	json_t *c = blocks_json(&run->sink);
	FUZZ_CHECK(c != NULL, "out of memory");
	struct codec_error err;
	memset(&err, 0, sizeof err);
	codec_error_init(&err);
	struct json_sink js = {&run->sink, 0};
	enum codec_status st = md_json_read(c, "", opt, &err, json_sink_block, &js);
	FUZZ_CHECK(st == CODEC_OK, "the text's %lu blocks are refused as JSON: %s", run->sink.n,
		   err.detail);
	FUZZ_CHECK(js.n == run->sink.n, "JSON gave %lu blocks, text %lu", js.n, run->sink.n);
	json_decref(c);
}

static const unsigned long max_blocks_table[8] = {0, 1, 2, 3, 5, 10, 10000, 1000000};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	unsigned long max_blocks = max_blocks_table[data[0] & 7];
	unsigned long stop_after = data[0] >> 4;
	unsigned chunk_seed = (unsigned)data[1] + 1;
	const uint8_t *text = data + 2;
	size_t len = size - 2;

	static struct run whole, chunked, bytewise, collect, collect_chunked, bare, lenient_ok;
	for (int strict = 0; strict <= 1; strict++) {
		struct md_read_options opt = {.max_blocks = max_blocks, .strict = strict == 1};

		run_read(&whole, text, len, &opt, 1, true, 0, stop_after);
		check_run(&whole, &opt, true);
		run_read(&chunked, text, len, &opt, 1, true, chunk_seed, stop_after);
		check_run(&chunked, &opt, true);
		FUZZ_CHECK(whole.status == chunked.status &&
			       fuzz_same_error(&whole.err, &chunked.err),
			   "strict %d: whole gave %d '%s', chunks %d '%s'", strict, whole.status,
			   whole.err.detail, chunked.status, chunked.err.detail);
		FUZZ_CHECK(same_blocks(&whole.sink, &chunked.sink),
			   "strict %d: whole gave %lu blocks, chunks %lu", strict, whole.sink.n,
			   chunked.sink.n);

		run_read(&bytewise, text, len, &opt, 1, true, CHUNK_BYTEWISE, stop_after);
		FUZZ_CHECK(whole.status == bytewise.status &&
			       fuzz_same_error(&whole.err, &bytewise.err) &&
			       same_blocks(&whole.sink, &bytewise.sink),
			   "strict %d: fast path gave %d '%s' and %lu blocks, bytewise %d '%s' "
			   "and %lu",
			   strict, whole.status, whole.err.detail, whole.sink.n, bytewise.status,
			   bytewise.err.detail, bytewise.sink.n);

		if (stop_after == 0) {
			/* md_text_take() never asks to stop: only without stops */
			static struct run take;
			run_read(&take, text, len, &opt, 1, true, CHUNK_TAKE | chunk_seed, 0);
			check_run(&take, &opt, true);
			FUZZ_CHECK(take.status == bytewise.status &&
				       fuzz_same_error(&take.err, &bytewise.err) &&
				       same_blocks(&take.sink, &bytewise.sink),
				   "strict %d: md_text_take gave %d '%s' and %lu blocks, bytewise "
				   "%d '%s' and %lu",
				   strict, take.status, take.err.detail, take.sink.n,
				   bytewise.status, bytewise.err.detail, bytewise.sink.n);
		}

		run_read(&collect, text, len, &opt, CODEC_FAULTS_MAX, true, 0, stop_after);
		check_run(&collect, &opt, true);
		run_read(&bytewise, text, len, &opt, CODEC_FAULTS_MAX, true, CHUNK_BYTEWISE,
			 stop_after);
		FUZZ_CHECK(fuzz_same_error(&collect.err, &bytewise.err) &&
			       same_blocks(&collect.sink, &bytewise.sink),
			   "strict %d, collecting: fast path '%s', bytewise '%s'", strict,
			   collect.err.detail, bytewise.err.detail);
		run_read(&collect_chunked, text, len, &opt, CODEC_FAULTS_MAX, true, chunk_seed,
			 stop_after);
		check_run(&collect_chunked, &opt, true);
		FUZZ_CHECK(fuzz_same_error(&collect.err, &collect_chunked.err),
			   "strict %d, collecting: whole and chunks differ ('%s' / '%s')", strict,
			   collect.err.detail, collect_chunked.err.detail);
		FUZZ_CHECK(same_blocks(&collect.sink, &collect_chunked.sink),
			   "strict %d, collecting: whole and chunks gave other blocks", strict);
		FUZZ_CHECK(fuzz_same_first_fault(&whole.err, &collect.err),
			   "strict %d: first-wins says '%s', collect mode first says '%s'", strict,
			   whole.err.detail, collect.err.detail);
		FUZZ_CHECK(same_blocks(&whole.sink, &collect.sink),
			   "strict %d: first-wins and collect mode gave other blocks", strict);

		run_read(&bare, text, len, &opt, 1, false, chunk_seed, stop_after);
		check_run(&bare, &opt, false);
		FUZZ_CHECK(bare.status == whole.status && same_blocks(&bare.sink, &whole.sink),
			   "strict %d: without an error struct %d, with %d", strict, bare.status,
			   whole.status);

		if (!strict) {
			lenient_ok = whole;
			if (whole.status == CODEC_OK && !whole.sink.stopped)
				check_json_agrees(&whole, &opt);
		} else if (whole.status == CODEC_OK && !whole.sink.stopped) {
			FUZZ_CHECK(lenient_ok.status == CODEC_OK,
				   "strict accepts, lenient refuses: %s", lenient_ok.err.detail);
			FUZZ_CHECK(same_blocks(&whole.sink, &lenient_ok.sink),
				   "strict and lenient gave other blocks");
		}
	}
	return 0;
}
