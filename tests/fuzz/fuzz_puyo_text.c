/*
 * libFuzzer target: the Puyo text reader (puyo_text_read).
 *
 * Input: the text itself, in an exact-size buffer. It is read lenient and
 * strict, first-wins, collecting and without an error struct. Checked:
 * - the status is CODEC_OK or CODEC_E_INVALID, the same with and without
 *   an error struct; collect mode reports first what first-wins mode does;
 * - every error builds a problem+json document;
 * - a field read leniently runs to an end that holds (fuzz_puyo.h: chains
 *   within what the puyos allow, at most 18 on 12 rows, the final field
 *   settled and without a group, puyo_run() and stepping agree) and reads
 *   back the same through both codecs;
 * - what strict mode accepts, lenient mode accepts as the same field, and
 *   it is Baekjoon's: 12 rows, no garbage, nothing floating;
 * - the same bytes as one line of `solve puyo --lines` (puyo_lines_read)
 *   read alike with the AVX-512 reader and without (status, planes, first
 *   fault and its column), and a line read is the field the text reader
 *   makes of its rows one to a line.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/cpu.h"
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

static void run_read(struct puyo_read *run, const char *text, size_t len, bool strict,
		     unsigned max_faults, bool with_err)
{
	memset(run, 0, sizeof *run);
	error_init(&run->err, max_faults);
	run->status = puyo_text_read(text, len, strict, &run->field, with_err ? &run->err : NULL);
	FUZZ_CHECK(run->status == CODEC_OK || run->status == CODEC_E_INVALID, "status %d",
		   run->status);
	if (!with_err)
		return;
	FUZZ_CHECK(run->err.status == run->status, "error status %d, returned %d", run->err.status,
		   run->status);
	fuzz_check_error(&run->err, puyo_statuses, 1);
	for (unsigned i = 0; i < run->err.nfaults; i++)
		FUZZ_CHECK(run->err.faults[i].line >= 1 && !run->err.faults[i].pointer[0],
			   "fault %u without a line", i);
}

/* The input as one line of `solve puyo --lines`, with the AVX-512 reader
 * (where this processor has it) and without: the same status, planes and
 * first fault. */
static void check_lines(const char *text, size_t size)
{
	struct puyo_planes want, got;
	struct codec_error err, each;
	codec_error_init(&err);
	cpu_switch_set(&puyo_lines_avx512, false);
	enum codec_status st = puyo_lines_read(text, size, 7, &want, &err);
	cpu_switch_set(&puyo_lines_avx512, true);
	FUZZ_CHECK(st == CODEC_OK || st == CODEC_E_INVALID, "lines status %d", st);
	if (cpu_switch_on(&puyo_lines_avx512)) {
		codec_error_init(&each);
		enum codec_status st_k = puyo_lines_read(text, size, 7, &got, &each);
		FUZZ_CHECK(st_k == st, "lines: AVX-512 status %d, portable %d", st_k, st);
		if (st == CODEC_OK)
			FUZZ_CHECK(memcmp(&got, &want, sizeof want) == 0,
				   "lines: AVX-512 read other planes");
		else
			FUZZ_CHECK(fuzz_same_first_fault(&err, &each),
				   "lines: AVX-512 says '%s', portable '%s'", each.detail,
				   err.detail);
	}
	if (st != CODEC_OK || size + 1 > 256)
		return;
	/* the rows one to a line: the field the text reader reads */
	char rows[256];
	for (size_t i = 0; i < size; i++)
		rows[i] = text[i] == ' ' ? '\n' : text[i];
	rows[size] = '\n';
	struct puyo_field field;
	FUZZ_CHECK(puyo_text_read(rows, size + 1, false, &field, NULL) == CODEC_OK,
		   "a line read, its rows refused");
	struct puyo_planes from_text;
	puyo_planes_from_field(&from_text, &field);
	FUZZ_CHECK(memcmp(&from_text, &want, sizeof want) == 0, "a line read as other planes");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_dup(data, size);
	static struct puyo_read first, collect, bare, lenient;
	for (int strict = 0; strict <= 1; strict++) {
		run_read(&first, text, size, strict, 1, true);
		run_read(&collect, text, size, strict, CODEC_FAULTS_MAX, true);
		run_read(&bare, text, size, strict, 1, false);
		FUZZ_CHECK(bare.status == first.status, "without an error struct %d, with %d",
			   bare.status, first.status);
		FUZZ_CHECK(fuzz_same_first_fault(&first.err, &collect.err),
			   "strict %d: first-wins says '%s', collect mode first says '%s'", strict,
			   first.err.detail, collect.err.detail);
		check_modes_agree(&first, &collect, &bare, &lenient, strict);
	}
	check_lines(text, size);
	free(text);
	return 0;
}
