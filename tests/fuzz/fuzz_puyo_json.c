/*
 * libFuzzer target: the Puyo JSON case reader (puyo_json_read).
 *
 * Input: a JSON text (any value, duplicates refused as the service does);
 * what jansson refuses is skipped. Each value is read lenient and strict,
 * first-wins, collecting and without an error struct. Checked:
 * - the status is CODEC_OK or CODEC_E_INVALID, the same with and without
 *   an error struct; collect mode reports first what first-wins mode does,
 *   under the case pointer it was given;
 * - every error builds a problem+json document;
 * - a field read leniently runs to an end that holds (fuzz_puyo.h) and
 *   reads back the same through both codecs;
 * - what strict mode accepts, lenient mode accepts as the same field, and
 *   it is Baekjoon's: 12 rows, no garbage, nothing floating.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_puyo.h"

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

#define CASE_POINTER "/cases/7"

static void run_read(struct puyo_read *run, const json_t *value, const char *pointer, bool strict,
		     unsigned max_faults, bool with_err)
{
	memset(run, 0, sizeof *run);
	error_init(&run->err, max_faults);
	run->status =
	    puyo_json_read(value, pointer, strict, &run->field, with_err ? &run->err : NULL);
	FUZZ_CHECK(run->status == CODEC_OK || run->status == CODEC_E_INVALID, "status %d",
		   run->status);
	if (!with_err)
		return;
	FUZZ_CHECK(run->err.status == run->status, "error status %d, returned %d", run->err.status,
		   run->status);
	fuzz_check_error(&run->err, puyo_statuses, 1);
	size_t plen = strlen(pointer);
	for (unsigned i = 0; i < run->err.nfaults; i++)
		FUZZ_CHECK(strncmp(run->err.faults[i].pointer, pointer, plen) == 0 &&
			       run->err.faults[i].line == 0,
			   "fault at '%s' outside the case '%s'", run->err.faults[i].pointer,
			   pointer);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *value = fuzz_json_value(data, size);
	if (!value)
		return 0;

	static struct puyo_read first, collect, bare, lenient;
	for (int strict = 0; strict <= 1; strict++) {
		run_read(&first, value, "", strict, 1, true);
		run_read(&collect, value, CASE_POINTER, strict, CODEC_FAULTS_MAX, true);
		run_read(&bare, value, "", strict, 1, false);
		FUZZ_CHECK(bare.status == first.status && collect.status == first.status,
			   "statuses: first-wins %d, collecting %d, no error struct %d",
			   first.status, collect.status, bare.status);
		if (first.err.nfaults) {
			const struct codec_fault *a = &first.err.faults[0];
			const struct codec_fault *b = &collect.err.faults[0];
			char want[CODEC_POINTER_MAX];
			snprintf(want, sizeof want, "%s%s", CASE_POINTER, a->pointer);
			FUZZ_CHECK(strcmp(a->detail, b->detail) == 0 &&
				       (strcmp(b->pointer, want) == 0 ||
					strlen(b->pointer) >= CODEC_POINTER_MAX - 8),
				   "first-wins '%s' at '%s', collect mode '%s' at '%s'", a->detail,
				   a->pointer, b->detail, b->pointer);
		}
		check_modes_agree(&first, &collect, &bare, &lenient, strict);
	}
	json_decref(value);
	return 0;
}
