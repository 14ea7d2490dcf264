/*
 * libFuzzer target: the Monomino-Domino JSON case reader (md_json_read).
 *
 * Input: a JSON text (any value, duplicates refused as the service does);
 * what jansson refuses is skipped. Each value is read lenient and strict,
 * first-wins, collecting and without an error struct, with no limit and
 * with a limit of 2 blocks. Checked:
 * - every block handed to the callback passes md_check(), indexes count
 *   0, 1, 2, ..., and none is handed on after a fault;
 * - the status is CODEC_OK or CODEC_E_INVALID; success hands on every
 *   element of "blocks", at most max_blocks;
 * - collect mode reports first what first-wins mode reports, under the
 *   case pointer it was given; no error struct gives the same status;
 * - what strict mode accepts, lenient mode accepts with the same blocks;
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

#define BLOCKS_KEPT  4096
#define CASE_POINTER "/cases/7"

struct sink {
	const struct codec_error *err; /* to check that no fault came first, may be NULL */
	unsigned long n;
	struct md_block blocks[BLOCKS_KEPT];
};

static int sink_block(void *ctx, struct md_block block, unsigned long index)
{
	struct sink *s = ctx;
	FUZZ_CHECK(md_check(block.t, block.x, block.y) == MD_FAULT_NONE,
		   "block %lu (%u %u %u) is not legal", index, block.t, block.x, block.y);
	FUZZ_CHECK(index == s->n, "index %lu, want %lu", index, s->n);
	FUZZ_CHECK(!codec_error_is_set(s->err), "block %lu handed on after a fault", index);
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

struct run {
	enum codec_status status;
	struct codec_error err;
	struct sink sink;
};

static const enum codec_status json_statuses[] = {CODEC_E_INVALID};

static void run_read(struct run *run, const json_t *value, const char *pointer,
		     const struct md_read_options *opt, unsigned max_faults, bool with_err)
{
	memset(run, 0, sizeof *run);
	error_init(&run->err, max_faults);
	struct codec_error *err = with_err ? &run->err : NULL;
	run->sink.err = err;
	run->status = md_json_read(value, pointer, opt, err, sink_block, &run->sink);
	FUZZ_CHECK(run->status == CODEC_OK || run->status == CODEC_E_INVALID, "status %d",
		   run->status);
	if (with_err) {
		FUZZ_CHECK(run->err.status == run->status, "error status %d, returned %d",
			   run->err.status, run->status);
		fuzz_check_error(&run->err, json_statuses, 1);
		size_t plen = strlen(pointer);
		for (unsigned i = 0; i < run->err.nfaults; i++)
			FUZZ_CHECK(strncmp(run->err.faults[i].pointer, pointer, plen) == 0,
				   "fault at '%s' outside the case '%s'",
				   run->err.faults[i].pointer, pointer);
	}
	if (opt->max_blocks)
		FUZZ_CHECK(run->sink.n <= opt->max_blocks, "%lu blocks over the limit of %lu",
			   run->sink.n, opt->max_blocks);
	if (run->status == CODEC_OK) {
		const json_t *blocks = json_object_get(value, "blocks");
		FUZZ_CHECK(json_is_array(blocks), "success without a blocks array");
		FUZZ_CHECK(run->sink.n == json_array_size(blocks), "success with %lu of %zu blocks",
			   run->sink.n, json_array_size(blocks));
		if (opt->strict)
			FUZZ_CHECK(run->sink.n >= MD_BAEKJOON_MIN_N &&
				       run->sink.n <= MD_BAEKJOON_MAX_N,
				   "strict mode took %lu blocks", run->sink.n);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *value = fuzz_json_value(data, size);
	if (!value)
		return 0;

	static struct run first, collect, bare, lenient;
	static const unsigned long limits[] = {0, 2};
	for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++) {
		for (int strict = 0; strict <= 1; strict++) {
			struct md_read_options opt = {.max_blocks = limits[l],
						      .strict = strict == 1};
			run_read(&first, value, "", &opt, 1, true);
			run_read(&collect, value, CASE_POINTER, &opt, CODEC_FAULTS_MAX, true);
			run_read(&bare, value, "", &opt, 1, false);
			FUZZ_CHECK(
			    bare.status == first.status && same_blocks(&bare.sink, &first.sink),
			    "without an error struct %d, with %d", bare.status, first.status);
			FUZZ_CHECK(collect.status == first.status &&
				       same_blocks(&collect.sink, &first.sink),
				   "collecting %d, first-wins %d", collect.status, first.status);
			if (first.err.nfaults) {
				/* The same first fault, under the case's pointer. */
				const struct codec_fault *a = &first.err.faults[0];
				const struct codec_fault *b = &collect.err.faults[0];
				char want[CODEC_POINTER_MAX];
				snprintf(want, sizeof want, "%s%s", CASE_POINTER, a->pointer);
				FUZZ_CHECK(strcmp(a->detail, b->detail) == 0 &&
					       (strcmp(b->pointer, want) == 0 ||
						strlen(b->pointer) >= CODEC_POINTER_MAX - 8),
					   "first-wins '%s' at '%s', collect mode '%s' at '%s'",
					   a->detail, a->pointer, b->detail, b->pointer);
			}
			if (!strict) {
				lenient = first;
			} else if (first.status == CODEC_OK) {
				FUZZ_CHECK(lenient.status == CODEC_OK,
					   "strict accepts, lenient refuses: %s",
					   lenient.err.detail);
				FUZZ_CHECK(same_blocks(&first.sink, &lenient.sink),
					   "strict and lenient gave other blocks");
			}
		}
	}
	json_decref(value);
	return 0;
}
