/*
 * Unit tests of the Monomino-Domino codecs (md_codec.h): the JSON case
 * reader, the Baekjoon text push parser in its lenient and strict modes,
 * the result writers, and the data-driven cases of
 * tests/cases/monomino-domino (run from the repository root).
 *
 * Expected statuses, locations and texts are the contract's; expected
 * answers come from the problem statement or are worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "writer_check.h"

#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/md_codec.h"
#include "route/status.h"
#include "dropjudge/gen.h"

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

#define CASES_DIR	   "tests/cases/monomino-domino"
#define DEFAULT_MAX_BLOCKS 1000000ul /* the server's default --max-blocks */
#define MAX_FAULTS	   12

/* ---- collecting what a decoder hands out -------------------------------- */

struct sink {
	size_t n;	   /* blocks received */
	size_t stop_after; /* ask to stop after this many; 0: never */
	struct md_block blocks[64];
	unsigned long index[64];
	struct md_game game; /* every block played */
	bool index_ok;	     /* indexes were 0, 1, 2, ... */
};

static void sink_init(struct sink *s, size_t stop_after)
{
	memset(s, 0, sizeof *s);
	s->stop_after = stop_after;
	s->index_ok = true;
	md_init(&s->game);
}

static int sink_block(void *ctx, struct md_block block, unsigned long index)
{
	struct sink *s = ctx;
	if (index != s->n)
		s->index_ok = false;
	if (s->n < 64) {
		s->blocks[s->n] = block;
		s->index[s->n] = index;
	}
	s->n++;
	md_place(&s->game, block);
	return s->stop_after && s->n >= s->stop_after;
}

struct want_fault {
	const char *pointer; /* JSON cases */
	unsigned line;	     /* text cases */
	unsigned column;
	const char *detail;
};

static void assert_faults(const struct codec_error *err, const struct want_fault *want,
			  const char *name)
{
	unsigned n = 0;
	while (n < MAX_FAULTS && (want[n].pointer || want[n].line))
		n++;
	if (err->nfaults != n) {
		for (unsigned i = 0; i < err->nfaults; i++)
			print_message("  got %s line %u column %u: %s\n", err->faults[i].pointer,
				      err->faults[i].line, err->faults[i].column,
				      err->faults[i].detail);
		fail_msg("%s: %u faults, want %u", name, err->nfaults, n);
	}
	for (unsigned i = 0; i < n; i++) {
		const struct codec_fault *f = &err->faults[i];
		const struct want_fault *w = &want[i];
		bool ok = strncmp(f->detail, w->detail, strlen(w->detail)) == 0 &&
			  f->line == w->line && f->column == w->column &&
			  strcmp(f->pointer, w->pointer ? w->pointer : "") == 0;
		if (!ok)
			fail_msg("%s: fault %u is '%s' line %u column %u: %s; want '%s' line %u "
				 "column %u: %s",
				 name, i, f->pointer, f->line, f->column, f->detail,
				 w->pointer ? w->pointer : "", w->line, w->column, w->detail);
	}
}

/* ---- the text reader ------------------------------------------------------- */

struct text_case {
	const char *name;
	const char *input;
	bool strict;
	bool collect;
	unsigned long max_blocks; /* 0: the server default */
	enum codec_status status;
	size_t blocks; /* handed to the callback */
	struct want_fault faults[MAX_FAULTS];
};

#define SYN CODEC_E_SYNTAX
#define INV CODEC_E_INVALID

static const struct text_case text_cases[] = {
    /* lenient, accepted */
    {"example 7", "8\n1 1 1\n2 3 0\n3 2 2\n3 2 3\n3 1 3\n2 0 0\n3 2 0\n3 1 2\n", .blocks = 8},
    {"CRLF", "2\r\n1 1 1\r\n2 3 0\r\n", .blocks = 2},
    {"tabs, runs of blanks, no final newline", " 2 \n\t1\t1  1\n2 3 0", .blocks = 2},
    {"blank and whitespace lines after the last", "1\n1 1 1\n\n \t \n\r\n\n", .blocks = 1},
    {"N = 0", "0\n", .blocks = 0},
    {"N = 0 without newline", "0", .blocks = 0},
    {"N = 0 and blank lines", "0\n\n\n", .blocks = 0},
    {"'+', leading zeros and -0", "+1\n01 +1 -0\n", .blocks = 1},
    /* lenient, first fault wins */
    {"empty input", "", .status = SYN,
     .faults = {{NULL, 1, 0, "expected N, the number of placements"}}},
    {"blank line 1", "\n1 1 1\n", .status = SYN,
     .faults = {{NULL, 1, 0, "expected N, the number of placements"}}},
    {"whitespace line 1", "  \t\n", .status = SYN,
     .faults = {{NULL, 1, 0, "expected N, the number of placements"}}},
    {"N not an integer", "abc\n", .status = SYN,
     .faults = {{NULL, 1, 1, "expected an integer, found 'abc'"}}},
    {"N with a decimal point", " 1.0\n1 1 1\n", .status = SYN,
     .faults = {{NULL, 1, 2, "expected an integer, found '1.0'"}}},
    {"two integers on line 1", "3 4\n", .status = SYN,
     .faults = {{NULL, 1, 3, "expected 1 integer, found 2"}}},
    {"N negative", "-1\n", .status = INV, .faults = {{NULL, 1, 1, "N must be 0 or more"}}},
    {"N over max_blocks", "5\n", .max_blocks = 4, .status = INV,
     .faults = {{NULL, 1, 1, "too many blocks: more than the limit of 4"}}},
    {"N far over any limit", "  99999999999999999999999999\n", .status = INV,
     .faults = {{NULL, 1, 3, "too many blocks: more than the limit of 1000000"}}},
    {"two integers", "2\n1 1\n", .status = SYN,
     .faults = {{NULL, 2, 0, "expected 3 integers, found 2"}}},
    {"four integers", "1\n1 1 1 1\n", .status = SYN,
     .faults = {{NULL, 2, 7, "expected 3 integers, found 4"}}},
    {"a letter", "1\n1 x 1\n", .status = SYN,
     .faults = {{NULL, 2, 3, "expected an integer, found 'x'"}}},
    {"a sign alone", "1\n1 - 1\n", .status = SYN,
     .faults = {{NULL, 2, 3, "expected an integer, found '-'"}}},
    {"a sign inside", "1\n1 1-1 1\n", .status = SYN,
     .faults = {{NULL, 2, 3, "expected an integer, found '1-1'"}}},
    {"bad token before a short line", "1\n1 x\n", .status = SYN,
     .faults = {{NULL, 2, 3, "expected an integer, found 'x'"}}},
    {"fewer lines", "3\n1 1 1\n", .status = SYN, .blocks = 1,
     .faults = {{NULL, 3, 0, "expected 3 placements, found 1"}}},
    {"fewer lines, no final newline", "3\n1 1 1", .status = SYN, .blocks = 1,
     .faults = {{NULL, 3, 0, "expected 3 placements, found 1"}}},
    {"N but no lines", "1", .status = SYN,
     .faults = {{NULL, 2, 0, "expected 1 placement, found 0"}}},
    {"fewer lines, blank lines at the end", "2\n1 1 1\n\n\n", .status = SYN, .blocks = 1,
     .faults = {{NULL, 3, 0, "expected 2 placements, found 1"}}},
    {"a blank line among the placements", "2\n\n1 1 1\n", .status = SYN,
     .faults = {{NULL, 2, 0, "expected 3 integers, found 0"}}},
    {"an extra line", "1\n1 1 1\n2 0 0\n", .status = SYN, .blocks = 1,
     .faults = {{NULL, 3, 1, "more than 1 placement"}}},
    {"an extra line after blank lines", "1\n1 1 1\n\n  2 0 0\n", .status = SYN, .blocks = 1,
     .faults = {{NULL, 4, 3, "more than 1 placement"}}},
    {"an extra line of garbage", "2\n1 1 1\n1 1 1\nxyz", .status = SYN, .blocks = 2,
     .faults = {{NULL, 4, 1, "more than 2 placements"}}},
    {"a line when N = 0", "0\n\nx\n", .status = SYN,
     .faults = {{NULL, 3, 1, "more than 0 placements"}}},
    {"t = 4", "1\n4 0 0\n", .status = INV, .faults = {{NULL, 2, 1, "t must be 1, 2 or 3"}}},
    {"t = 0", "1\n0 0 0\n", .status = INV, .faults = {{NULL, 2, 1, "t must be 1, 2 or 3"}}},
    {"vertical domino at x = 3", "1\n3 3 0\n", .status = INV,
     .faults = {{NULL, 2, 3, "x must be 0..2 for a vertical domino (t = 3)"}}},
    {"x = 4", "1\n1 4 0\n", .status = INV, .faults = {{NULL, 2, 3, "x must be 0..3"}}},
    {"horizontal domino at y = 3", "1\n2 0 3\n", .status = INV,
     .faults = {{NULL, 2, 5, "y must be 0..2 for a horizontal domino (t = 2)"}}},
    {"y = -1", "1\n1 0 -1\n", .status = INV, .faults = {{NULL, 2, 5, "y must be 0..3"}}},
    {"columns count tabs as one byte", "1\n1\t\t0  9\n", .status = INV,
     .faults = {{NULL, 2, 7, "y must be 0..3"}}},
    {"a huge x", "1\n1 123456789012345678901234567890 0\n", .status = INV,
     .faults = {{NULL, 2, 3, "x must be 0..3"}}},
    {"blocks before the fault are handed on", "3\n1 1 1\n2 0 0\n9 9 9\n", .status = INV,
     .blocks = 2, .faults = {{NULL, 4, 1, "t must be 1, 2 or 3"}}},
    {"x is reported before y", "1\n1 9 9\n", .status = INV,
     .faults = {{NULL, 2, 3, "x must be 0..3"}}},
    {"non-ASCII and control bytes are escaped", "1\n1 \xC3\xA9\x01 1\n", .status = SYN,
     .faults = {{NULL, 2, 3, "expected an integer, found '\\xC3\\xA9\\x01'"}}},
    {"a long token is cut short", "1\n1 abcdefghijklmnopqrstuvwxyz 1\n", .status = SYN,
     .faults = {{NULL, 2, 3, "expected an integer, found 'abcdefghijklmnop...'"}}},
    /* lenient, collecting */
    {"lenient collects every fault", "3\n1 9 1\nx 1 1\n4 4 4\n", .collect = true, .status = INV,
     .faults = {{NULL, 2, 3, "x must be 0..3"},
		{NULL, 3, 1, "expected an integer, found 'x'"},
		{NULL, 4, 1, "t must be 1, 2 or 3"},
		{NULL, 4, 3, "x must be 0..3"},
		{NULL, 4, 5, "y must be 0..3"}}},
    {"lenient collects blank lines among the placements", "3\n\n\n1 1 1\n", .collect = true,
     .status = SYN,
     .faults = {{NULL, 2, 0, "expected 3 integers, found 0"},
		{NULL, 3, 0, "expected 3 integers, found 0"}}},
    {"lenient with a bad N checks the lines' form only", "x\n1 1\n\n1 1 1\n9 0 0\n",
     .collect = true, .status = SYN,
     .faults = {{NULL, 1, 1, "expected an integer, found 'x'"},
		{NULL, 2, 0, "expected 3 integers, found 2"},
		{NULL, 5, 1, "t must be 1, 2 or 3"}}},
    /* strict */
    {"strict, accepted", "2\n1 1 1\n2 0 0\n", .strict = true, .collect = true, .blocks = 2},
    {"strict N = 0", "0\n", .strict = true, .collect = true, .status = INV,
     .faults = {{NULL, 1, 1, "N must be 1..10000"}}},
    {"strict N = 10001", "10001\n", .strict = true, .collect = true, .status = INV,
     .faults = {{NULL, 1, 1, "N must be 1..10000"}}},
    {"strict empty input", "", .strict = true, .collect = true, .status = SYN,
     .faults = {{NULL, 1, 0, "expected N, the number of placements"}}},
    {"strict leading whitespace", "1\n 1 1 1\n", .strict = true, .collect = true, .status = SYN,
     .faults = {{NULL, 2, 1, "leading whitespace"}}},
    {"strict tab", "1\n1\t1 1\n", .strict = true, .collect = true, .status = SYN,
     .faults = {{NULL, 2, 2, "expected a single space between integers"}}},
    {"strict two spaces", "1\n1 1  1\n", .strict = true, .collect = true, .status = SYN,
     .faults = {{NULL, 2, 5, "expected a single space between integers"}}},
    {"strict trailing space", "1 \n1 1 1\n", .strict = true, .collect = true, .status = SYN,
     .faults = {{NULL, 1, 2, "trailing whitespace"}}},
    {"strict missing final newline", "1\n1 1 1", .strict = true, .collect = true, .status = SYN,
     .blocks = 1, .faults = {{NULL, 2, 6, "missing newline at the end of the input"}}},
    {"strict blank line after the last", "1\n1 1 1\n\n", .strict = true, .collect = true,
     .status = SYN, .blocks = 1,
     .faults = {{NULL, 3, 1, "expected the end of the input after line 2"}}},
    {"strict extra line", "1\n1 1 1\n2 0 0\n1 1 1\n", .strict = true, .collect = true,
     .status = SYN, .blocks = 1,
     .faults = {{NULL, 3, 1, "expected the end of the input after line 2"}}},
    {"strict blank line among the placements", "2\n1 1 1\n\n", .strict = true, .collect = true,
     .status = SYN, .blocks = 1, .faults = {{NULL, 3, 0, "expected 3 integers, found 0"}}},
    {"strict collects several faults at once", "3\r\n1  1 1 \n01 +1 -0\n", .strict = true,
     .collect = true, .status = SYN,
     .faults = {{NULL, 1, 2, "unexpected carriage return (lines must end with \\n alone)"},
		{NULL, 2, 3, "expected a single space between integers"},
		{NULL, 2, 7, "trailing whitespace"},
		{NULL, 3, 1, "expected an integer without '+', leading zeros or '-0', found '01'"},
		{NULL, 3, 4, "expected an integer without '+', leading zeros or '-0', found '+1'"},
		{NULL, 3, 7, "expected an integer without '+', leading zeros or '-0', found '-0'"},
		{NULL, 4, 0, "expected 3 placements, found 2"}}},
    {"strict collects every value fault of a line", "2\n4 4 4\n1 1\n", .strict = true,
     .collect = true, .status = INV,
     .faults = {{NULL, 2, 1, "t must be 1, 2 or 3"},
		{NULL, 2, 3, "x must be 0..3"},
		{NULL, 2, 5, "y must be 0..3"},
		{NULL, 3, 0, "expected 3 integers, found 2"}}},
    {"strict, first fault wins when not collecting", "1\n 1  1 1 \n", .strict = true, .status = SYN,
     .faults = {{NULL, 2, 1, "leading whitespace"}}},
    {"strict with a bad N still checks every line", "0\n1 1\n\n", .strict = true, .collect = true,
     .status = INV,
     .faults = {{NULL, 1, 1, "N must be 1..10000"},
		{NULL, 2, 0, "expected 3 integers, found 2"},
		{NULL, 3, 0, "expected 3 integers, found 0"}}},
};

/* WHOLE: one feed; BYTES: a byte at a time; RANDOM: 1..7 bytes at a time;
 * TAKE: as `dropjudge solve` reads, md_text_take() into batches of 1..40
 * blocks and md_text_feed() for each line it leaves, in chunks of 1..300
 * bytes (long enough for its 32-line steps). */
enum chunking { WHOLE, BYTES, RANDOM, TAKE };

/* Feeds data[0..len) as `dropjudge solve` does: canonical lines through
 * md_text_take() (batches of at most `cap` <= 40, handed to sink_block in
 * order), every other line through md_text_feed(). Returns the last status. */
static enum codec_status take_feed(struct md_text_reader *r, const char *data, size_t len,
				   struct sink *sink, size_t cap)
{
	enum codec_status status = md_text_status(r);
	size_t at = 0;
	while (at < len) {
		struct md_block batch[40];
		size_t taken;
		at += md_text_take(r, data + at, len - at, batch, cap, &taken);
		for (size_t i = 0; i < taken; i++)
			sink_block(sink, batch[i], (unsigned long)sink->n);
		if (taken == cap || at == len)
			continue;
		const char *nl = memchr(data + at, '\n', len - at);
		size_t line = nl ? (size_t)(nl - (data + at)) + 1 : len - at;
		status = md_text_feed(r, data + at, line, sink_block, sink);
		at += line;
	}
	return md_text_status(r) != CODEC_OK ? md_text_status(r) : status;
}

struct text_run {
	enum codec_status fed;	    /* last md_text_feed() answer */
	enum codec_status finished; /* md_text_finish() answer */
	struct codec_error err;
	struct sink sink;
};

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void text_run(struct text_run *run, const char *input, size_t len,
		     const struct md_read_options *opt, bool collect, enum chunking how,
		     uint64_t seed, size_t stop_after)
{
	error_init(&run->err, collect ? CODEC_FAULTS_MAX : 1);
	sink_init(&run->sink, stop_after);
	struct md_text_reader *r = md_text_new(opt, &run->err);
	assert_non_null(r);
	run->fed = CODEC_OK;
	size_t cap = 1 + (size_t)(rng_next(&seed) % 40);
	for (size_t at = 0; at < len;) {
		size_t n = len - at;
		if (how == BYTES)
			n = 1;
		else if (how == RANDOM)
			n = 1 + (size_t)(rng_next(&seed) % 7);
		else if (how == TAKE)
			n = 1 + (size_t)(rng_next(&seed) % 300);
		if (n > len - at)
			n = len - at;
		if (how == TAKE)
			run->fed = take_feed(r, input + at, n, &run->sink, cap);
		else
			run->fed = md_text_feed(r, input + at, n, sink_block, &run->sink);
		at += n;
	}
	/* feeding nothing changes nothing */
	md_text_feed(r, input, 0, sink_block, &run->sink);
	run->finished = md_text_finish(r, sink_block, &run->sink);
	md_text_free(r);
}

static void assert_same_runs(const struct text_run *a, const struct text_run *b, const char *name)
{
	if (a->finished != b->finished || a->sink.n != b->sink.n ||
	    a->err.nfaults != b->err.nfaults || a->err.status != b->err.status)
		fail_msg("%s: chunked run differs", name);
	assert_string_equal(a->err.detail, b->err.detail);
	for (unsigned i = 0; i < a->err.nfaults; i++) {
		assert_int_equal(a->err.faults[i].line, b->err.faults[i].line);
		assert_int_equal(a->err.faults[i].column, b->err.faults[i].column);
		assert_string_equal(a->err.faults[i].detail, b->err.faults[i].detail);
	}
	for (size_t i = 0; i < a->sink.n && i < 64; i++) {
		assert_memory_equal(&a->sink.blocks[i], &b->sink.blocks[i],
				    sizeof(struct md_block));
	}
}

static void md_text_should_answer_each_case_of_the_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof text_cases / sizeof text_cases[0]; i++) {
		const struct text_case *c = &text_cases[i];
		struct md_read_options opt = {.max_blocks = c->max_blocks ? c->max_blocks
									  : DEFAULT_MAX_BLOCKS,
					      .strict = c->strict};
		struct text_run run;
		text_run(&run, c->input, strlen(c->input), &opt, c->collect, WHOLE, 0, 0);
		if (run.finished != c->status)
			fail_msg("%s: status %d, want %d", c->name, (int)run.finished,
				 (int)c->status);
		if (run.sink.n != c->blocks)
			fail_msg("%s: %zu blocks, want %zu", c->name, run.sink.n, c->blocks);
		assert_true(run.sink.index_ok);
		assert_faults(&run.err, c->faults, c->name);
		assert_int_equal(run.err.dropped, 0);
	}
}

static void md_text_should_not_care_where_the_chunks_end(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof text_cases / sizeof text_cases[0]; i++) {
		const struct text_case *c = &text_cases[i];
		struct md_read_options opt = {.max_blocks = c->max_blocks ? c->max_blocks
									  : DEFAULT_MAX_BLOCKS,
					      .strict = c->strict};
		size_t len = strlen(c->input);
		struct text_run whole, part;
		text_run(&whole, c->input, len, &opt, c->collect, WHOLE, 0, 0);
		text_run(&part, c->input, len, &opt, c->collect, BYTES, 0, 0);
		assert_same_runs(&whole, &part, c->name);
		for (uint64_t seed = 1; seed <= 25; seed++) {
			text_run(&part, c->input, len, &opt, c->collect, RANDOM, seed, 0);
			assert_same_runs(&whole, &part, c->name);
			text_run(&part, c->input, len, &opt, c->collect, TAKE, seed, 0);
			assert_same_runs(&whole, &part, c->name);
		}
	}
}

/*
 * Differential test of the fast path (md_text_take): a text fed whole
 * takes it for every canonical line, fed one byte at a time never does.
 * Random cases of canonical lines, then a few bytes changed, inserted or
 * dropped, so that the fast path meets every kind of line it must refuse:
 * both reads must agree on status, every fault and every block.
 */
static void md_text_fast_path_should_read_like_the_byte_at_a_time_reader(void **state)
{
	(void)state;
	static const char noise[] = " \t\r\n0123456789+-x";
	static char text[4096];
	uint64_t seed = 0x20061;
	for (unsigned iter = 0; iter < 3000; iter++) {
		struct gen_rng rng;
		gen_rng_init(&rng, iter);
		unsigned n = (unsigned)(rng_next(&seed) % 60);
		unsigned declared = n + (unsigned)(rng_next(&seed) % 3) - 1u;
		int len = snprintf(text, sizeof text, "%u\n", iter % 17 == 0 ? n : declared);
		for (unsigned i = 0; i < n; i++) {
			struct md_block b = gen_md_block(&rng);
			len += snprintf(text + len, sizeof text - (size_t)len, "%u %u %u\n", b.t,
					b.x, b.y);
		}
		unsigned edits = (unsigned)(rng_next(&seed) % 4);
		for (unsigned e = 0; e < edits && len > 1; e++) {
			size_t at = (size_t)(rng_next(&seed) % (uint64_t)len);
			char c = noise[rng_next(&seed) % (sizeof noise - 1)];
			switch (rng_next(&seed) % 3) {
			case 0:
				text[at] = c;
				break;
			case 1:
				memmove(text + at + 1, text + at, (size_t)len - at);
				text[at] = c;
				len++;
				break;
			default:
				memmove(text + at, text + at + 1, (size_t)len - at - 1);
				len--;
			}
		}
		size_t stop_after = rng_next(&seed) % 5 == 0 ? rng_next(&seed) % 20 : 0;
		for (int strict = 0; strict <= 1; strict++) {
			for (int collect = 0; collect <= 1; collect++) {
				struct md_read_options opt = {.max_blocks = DEFAULT_MAX_BLOCKS,
							      .strict = strict == 1};
				static struct text_run fast, slow;
				text_run(&fast, text, (size_t)len, &opt, collect, WHOLE, 0,
					 stop_after);
				text_run(&slow, text, (size_t)len, &opt, collect, BYTES, 0,
					 stop_after);
				assert_same_runs(&fast, &slow, "fast path against bytewise");
				assert_memory_equal(&fast.sink.game, &slow.sink.game,
						    sizeof fast.sink.game);
				if (stop_after)
					continue;
				/* md_text_take() never asks the sink to stop */
				static struct text_run take;
				text_run(&take, text, (size_t)len, &opt, collect, TAKE, iter + 1,
					 0);
				assert_same_runs(&take, &slow, "md_text_take against bytewise");
				assert_memory_equal(&take.sink.game, &slow.sink.game,
						    sizeof take.sink.game);
			}
		}
	}
}

/*
 * md_text_take() reads 32 lines at a step: one line that is canonical in
 * shape but not a legal block (t = 0, a vertical domino in row 3, a
 * horizontal one in column 3), or holds a digit over 3, at each of 40
 * places, must be left to the slow path exactly as the byte-at-a-time
 * reader decides it.
 */
static void md_text_take_should_leave_every_illegal_line_to_the_slow_path(void **state)
{
	(void)state;
	static const char *const odd[] = {"0 1 1", "3 3 0", "3 3 3", "2 0 3", "2 3 3",
					  "1 4 0", "1 0 9", "9 1 1", "3 2 3", "2 3 2"};
	static char text[4096];
	for (size_t o = 0; o < sizeof odd / sizeof odd[0]; o++) {
		for (unsigned place = 0; place < 40; place++) {
			int len = snprintf(text, sizeof text, "40\n");
			for (unsigned i = 0; i < 40; i++) {
				const char *line =
				    i == place ? odd[o] : (i % 3 ? "3 2 1" : "2 1 2");
				len +=
				    snprintf(text + len, sizeof text - (size_t)len, "%s\n", line);
			}
			struct md_read_options opt = {.max_blocks = DEFAULT_MAX_BLOCKS,
						      .strict = false};
			static struct text_run take, slow;
			text_run(&slow, text, (size_t)len, &opt, true, BYTES, 0, 0);
			for (uint64_t seed = 1; seed <= 8; seed++) {
				text_run(&take, text, (size_t)len, &opt, true, TAKE, seed, 0);
				assert_same_runs(&take, &slow, odd[o]);
				assert_memory_equal(&take.sink.game, &slow.sink.game,
						    sizeof take.sink.game);
			}
		}
	}
}

static void md_text_should_read_the_public_example_whatever_the_chunks(void **state)
{
	(void)state;
	static const char input[] =
	    "8\r\n1 1 1\r\n2 3 0\r\n3 2 2\r\n3 2 3\r\n3 1 3\r\n2 0 0\r\n3 2 0\r\n3 1 2";
	struct md_read_options opt = {.max_blocks = DEFAULT_MAX_BLOCKS, .strict = false};
	for (int how = WHOLE; how <= RANDOM; how++) {
		for (uint64_t seed = 1; seed <= (how == RANDOM ? 50u : 1u); seed++) {
			struct text_run run;
			text_run(&run, input, sizeof input - 1, &opt, false, (enum chunking)how,
				 seed, 0);
			assert_int_equal(run.finished, CODEC_OK);
			assert_int_equal(run.sink.n, 8);
			assert_int_equal(run.sink.game.score, 2);
			assert_int_equal(md_tiles(&run.sink.game), 15);
			assert_int_equal(run.sink.blocks[7].t, 3);
			assert_int_equal(run.sink.blocks[7].x, 1);
			assert_int_equal(run.sink.blocks[7].y, 2);
		}
	}
}

static void md_text_should_read_lines_longer_than_any_buffer(void **state)
{
	(void)state;
	size_t pad = 100000;
	char *buf = malloc(pad + 64);
	if (!buf) {
		fail_msg("out of memory");
		return;
	}
	struct md_read_options opt = {.max_blocks = DEFAULT_MAX_BLOCKS, .strict = false};
	struct text_run run;

	/* blanks before the integers: fine in lenient mode */
	memcpy(buf, "1\n", 2);
	memset(buf + 2, ' ', pad);
	memcpy(buf + 2 + pad, "1 1 1\n", 6);
	text_run(&run, buf, pad + 8, &opt, false, RANDOM, 7, 0);
	assert_int_equal(run.finished, CODEC_OK);
	assert_int_equal(run.sink.n, 1);

	/* a huge token of letters: an error naming a cut-short token */
	memcpy(buf, "1\n1 ", 4);
	memset(buf + 4, 'a', pad);
	memcpy(buf + 4 + pad, " 1\n", 3);
	text_run(&run, buf, pad + 7, &opt, false, WHOLE, 0, 0);
	assert_int_equal(run.finished, CODEC_E_SYNTAX);
	assert_int_equal(run.err.faults[0].line, 2);
	assert_int_equal(run.err.faults[0].column, 3);
	assert_string_equal(run.err.faults[0].detail,
			    "expected an integer, found 'aaaaaaaaaaaaaaaa...'");

	/* a huge number of digits: an integer out of range */
	memcpy(buf, "1\n1 1 ", 6);
	memset(buf + 6, '7', pad);
	memcpy(buf + 6 + pad, "\n", 1);
	text_run(&run, buf, pad + 7, &opt, false, BYTES, 0, 0);
	assert_int_equal(run.finished, CODEC_E_INVALID);
	assert_int_equal(run.err.faults[0].column, 5);
	assert_string_equal(run.err.faults[0].detail, "y must be 0..3, got 7777777777777777...");

	/* strict: the column of a fault far along a line */
	memcpy(buf, "1\n1 1 1", 7);
	memset(buf + 7, ' ', pad);
	memcpy(buf + 7 + pad, "\n", 1);
	text_run(&run, buf, pad + 8, &(struct md_read_options){.max_blocks = 0, .strict = true},
		 true, WHOLE, 0, 0);
	assert_int_equal(run.err.nfaults, 1);
	assert_int_equal(run.err.faults[0].column, 6);
	assert_string_equal(run.err.faults[0].detail, "trailing whitespace");
	free(buf);
}

static void md_text_should_take_a_nul_byte_as_a_bad_character(void **state)
{
	(void)state;
	static const char input[] = "1\n1 \0 1\n";
	struct md_read_options opt = {.max_blocks = DEFAULT_MAX_BLOCKS, .strict = false};
	struct text_run run;
	text_run(&run, input, sizeof input - 1, &opt, false, WHOLE, 0, 0);
	assert_int_equal(run.finished, CODEC_E_SYNTAX);
	assert_string_equal(run.err.faults[0].detail, "expected an integer, found '\\x00'");
	assert_int_equal(run.err.faults[0].column, 3);
}

static void md_text_should_stop_reading_when_the_callback_asks(void **state)
{
	(void)state;
	static const char input[] = "5\n1 1 1\n1 1 1\n1 1 1\n9 9 9\n";
	struct md_read_options opt = {.max_blocks = DEFAULT_MAX_BLOCKS, .strict = false};
	for (int how = WHOLE; how <= BYTES; how++) {
		struct text_run run;
		text_run(&run, input, sizeof input - 1, &opt, false, (enum chunking)how, 0, 2);
		assert_int_equal(run.finished, CODEC_OK);
		assert_int_equal(run.fed, CODEC_OK);
		assert_int_equal(run.sink.n, 2);
		assert_false(codec_error_is_set(&run.err));
	}
}

static void md_text_should_report_its_status_without_an_error_struct(void **state)
{
	(void)state;
	struct sink s;
	sink_init(&s, 0);
	struct md_text_reader *r = md_text_new(NULL, NULL);
	assert_int_equal(md_text_feed(r, "2\n1 1 1\n5 0 0\n1 1 1\n", 20, sink_block, &s),
			 CODEC_E_INVALID);
	assert_int_equal(md_text_finish(r, sink_block, &s), CODEC_E_INVALID);
	assert_int_equal(s.n, 1);

	md_text_free(r);
	r = md_text_new(NULL, NULL);
	assert_int_equal(md_text_feed(r, "2\n", 2, NULL, NULL), CODEC_OK);
	assert_int_equal(md_text_finish(r, NULL, NULL), CODEC_E_SYNTAX);
	/* finishing twice adds nothing */
	assert_int_equal(md_text_finish(r, NULL, NULL), CODEC_E_SYNTAX);
	md_text_free(r);
}

static void md_text_should_count_the_faults_that_did_not_fit(void **state)
{
	(void)state;
	/* 150 lines of three faults each */
	size_t size = 8 + 150 * 6;
	char *buf = malloc(size);
	if (!buf) {
		fail_msg("out of memory");
		return;
	}
	size_t len = (size_t)snprintf(buf, size, "150\n");
	for (int i = 0; i < 150; i++)
		len += (size_t)snprintf(buf + len, size - len, "9 9 9\n");
	struct text_run run;
	text_run(&run, buf, len, &(struct md_read_options){.max_blocks = 0, .strict = true}, true,
		 WHOLE, 0, 0);
	assert_int_equal(run.finished, CODEC_E_INVALID);
	assert_int_equal(run.err.nfaults, CODEC_FAULTS_MAX);
	assert_int_equal(run.err.dropped, 450 - CODEC_FAULTS_MAX);
	assert_int_equal(run.sink.n, 0);
	free(buf);
}

static void md_text_should_write_the_baekjoon_output(void **state)
{
	(void)state;
	struct md_game g;
	char buf[64];
	md_init(&g);
	assert_int_equal(md_text_result(&g, buf, sizeof buf), 4);
	assert_string_equal(buf, "0\n0\n");
	static const int moves[8][3] = {{1, 1, 1}, {2, 3, 0}, {3, 2, 2}, {3, 2, 3},
					{3, 1, 3}, {2, 0, 0}, {3, 2, 0}, {3, 1, 2}};
	for (int i = 0; i < 8; i++)
		md_place(&g, (struct md_block){(uint8_t)moves[i][0], (uint8_t)moves[i][1],
					       (uint8_t)moves[i][2]});
	assert_int_equal(md_text_result(&g, buf, sizeof buf), 5);
	assert_string_equal(buf, "2\n15\n");
	/* too small: cut short, the full length is still returned */
	assert_int_equal(md_text_result(&g, buf, 3), 5);
	assert_string_equal(buf, "2\n");
}

/* The answer is written without printf: the same bytes and length as
 * snprintf("%" PRIu64 "\n%u\n") for scores of every width (up to
 * UINT64_MAX) and into every size of buffer, 0 included. */
static void md_text_should_write_the_answer_as_printf_does(void **state)
{
	(void)state;
	static const uint64_t scores[] = {
	    0,	       1, 9, 10, 99, 100, 4294967295u, 4294967296u, 999999999999ull, UINT64_MAX - 1,
	    UINT64_MAX};
	static const uint32_t boards[][2] = {{0, 0}, {0x3u << 8, 0}, {0xffffffu, 0x0f0f0fu}};
	for (size_t i = 0; i < sizeof scores / sizeof scores[0]; i++) {
		for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
			struct md_game g;
			md_init(&g);
			g.score = scores[i];
			g.green = boards[b][0];
			g.blue = boards[b][1];
			char want[64];
			int len =
			    snprintf(want, sizeof want, "%" PRIu64 "\n%u\n", g.score, md_tiles(&g));
			for (size_t size = 0; size <= (size_t)len + 1; size++) {
				char got[64], ref[64];
				memset(got, 'x', sizeof got);
				memset(ref, 'x', sizeof ref);
				assert_int_equal(md_text_result(&g, got, size), len);
				assert_int_equal(
				    snprintf(ref, size, "%" PRIu64 "\n%u\n", g.score, md_tiles(&g)),
				    len);
				assert_memory_equal(got, ref, sizeof got);
			}
		}
	}
}

/* ---- the JSON reader ---------------------------------------------------------- */

struct json_case {
	const char *name;
	const char *json;
	const char *pointer; /* of the case; NULL: "" */
	bool strict;
	bool collect;
	unsigned long max_blocks; /* 0: the server default */
	enum codec_status status;
	size_t blocks;
	struct want_fault faults[MAX_FAULTS];
};

#define UNKNOWN_CASE  "unknown member; a case holds \"blocks\", \"trace\" and \"id\""
#define UNKNOWN_BLOCK "unknown member; a block holds \"t\", \"x\" and \"y\""

static const struct json_case json_cases[] = {
    {"array and object forms", "{\"blocks\": [[1, 1, 1], {\"t\": 2, \"x\": 3, \"y\": 0}]}",
     .blocks = 2},
    {"members in any order", "{\"blocks\": [{\"y\": 2, \"x\": 0, \"t\": 3}], \"trace\": true}",
     .blocks = 1},
    {"no blocks", "{\"blocks\": [], \"trace\": false}", .blocks = 0},
    {"not an object", "[[1, 1, 1]]", .status = INV,
     .faults = {{"", 0, 0, "expected an object {\"blocks\": [...]}"}}},
    {"missing blocks", "{}", .status = INV, .faults = {{"/blocks", 0, 0, "required"}}},
    {"blocks not an array", "{\"blocks\": {}}", .status = INV,
     .faults = {{"/blocks", 0, 0, "must be an array"}}},
    {"unknown member", "{\"blocks\": [], \"foo\": 1}", .status = INV,
     .faults = {{"/foo", 0, 0, UNKNOWN_CASE}}},
    {"unknown member escaped", "{\"a/b~c\": 1, \"blocks\": []}", .status = INV,
     .faults = {{"/a~1b~0c", 0, 0, UNKNOWN_CASE}}},
    {"trace not a boolean", "{\"blocks\": [], \"trace\": 1}", .status = INV,
     .faults = {{"/trace", 0, 0, "trace must be true or false"}}},
    {"t = 4", "{\"blocks\": [[4, 0, 0]]}", .status = INV,
     .faults = {{"/blocks/0/0", 0, 0, "t must be 1, 2 or 3"}}},
    {"vertical domino at x = 3", "{\"blocks\": [[1, 1, 1], [3, 3, 0]]}", .status = INV, .blocks = 1,
     .faults = {{"/blocks/1/1", 0, 0, "x must be 0..2 for a vertical domino (t = 3)"}}},
    {"horizontal domino at y = 3", "{\"blocks\": [[2, 0, 3]]}", .status = INV,
     .faults = {{"/blocks/0/2", 0, 0, "y must be 0..2 for a horizontal domino (t = 2)"}}},
    {"object form x = 4", "{\"blocks\": [{\"t\": 1, \"x\": 4, \"y\": 0}]}", .status = INV,
     .faults = {{"/blocks/0/x", 0, 0, "x must be 0..3"}}},
    {"object form y = -1", "{\"blocks\": [{\"t\": 1, \"x\": 0, \"y\": -1}]}", .status = INV,
     .faults = {{"/blocks/0/y", 0, 0, "y must be 0..3"}}},
    {"x before y", "{\"blocks\": [[1, 9, 9]]}", .status = INV,
     .faults = {{"/blocks/0/1", 0, 0, "x must be 0..3"}}},
    {"a real", "{\"blocks\": [[1.5, 0, 0]]}", .status = INV,
     .faults = {{"/blocks/0/0", 0, 0, "t must be an integer"}}},
    {"a real with no fraction", "{\"blocks\": [[1, 1.0, 0]]}", .status = INV,
     .faults = {{"/blocks/0/1", 0, 0, "x must be an integer"}}},
    {"a string", "{\"blocks\": [[1, \"1\", 0]]}", .status = INV,
     .faults = {{"/blocks/0/1", 0, 0, "x must be an integer"}}},
    {"a boolean", "{\"blocks\": [[1, 0, true]]}", .status = INV,
     .faults = {{"/blocks/0/2", 0, 0, "y must be an integer"}}},
    {"a null", "{\"blocks\": [{\"t\": null, \"x\": 0, \"y\": 0}]}", .status = INV,
     .faults = {{"/blocks/0/t", 0, 0, "t must be an integer"}}},
    {"two values", "{\"blocks\": [[1, 1]]}", .status = INV,
     .faults = {{"/blocks/0", 0, 0, "expected 3 integers [t, x, y], found 2 values"}}},
    {"one value", "{\"blocks\": [[1]]}", .status = INV,
     .faults = {{"/blocks/0", 0, 0, "expected 3 integers [t, x, y], found 1 value"}}},
    {"a number for a block", "{\"blocks\": [5]}", .status = INV,
     .faults = {{"/blocks/0", 0, 0, "expected [t, x, y] or {\"t\": t, \"x\": x, \"y\": y}"}}},
    {"missing y", "{\"blocks\": [[1, 1, 1], {\"t\": 1, \"x\": 0}]}", .status = INV, .blocks = 1,
     .faults = {{"/blocks/1/y", 0, 0, "required"}}},
    {"unknown block member", "{\"blocks\": [{\"t\": 1, \"x\": 0, \"y\": 0, \"z\": 0}]}",
     .status = INV, .faults = {{"/blocks/0/z", 0, 0, UNKNOWN_BLOCK}}},
    {"too many blocks", "{\"blocks\": [[1, 1, 1], [1, 1, 1], [1, 1, 1]]}", .max_blocks = 2,
     .status = INV, .faults = {{"/blocks", 0, 0, "too many blocks: more than the limit of 2"}}},
    {"exactly max_blocks", "{\"blocks\": [[1, 1, 1], [1, 1, 1]]}", .max_blocks = 2, .blocks = 2},
    {"inside a batch", "{\"blocks\": [[0, 0, 0]]}", .pointer = "/cases/3", .status = INV,
     .faults = {{"/cases/3/blocks/0/0", 0, 0, "t must be 1, 2 or 3"}}},
    {"strict, no blocks", "{\"blocks\": []}", .strict = true, .collect = true, .status = INV,
     .faults = {{"/blocks", 0, 0, "expected 1..10000 blocks, found 0"}}},
    {"strict, accepted", "{\"blocks\": [[3, 2, 3]]}", .strict = true, .collect = true, .blocks = 1},
    {"collects every fault",
     "{\"foo\": 1, \"bar\": 2, \"blocks\": [[0, 9, 9], {\"t\": 1, \"q\": 1}, \"x\", [1, 1, 1], "
     "[1.5, \"a\", 0]], \"trace\": \"yes\"}",
     .collect = true, .status = INV,
     .faults = {{"/foo", 0, 0, UNKNOWN_CASE},
		{"/bar", 0, 0, UNKNOWN_CASE},
		{"/trace", 0, 0, "trace must be true or false"},
		{"/blocks/0/0", 0, 0, "t must be 1, 2 or 3"},
		{"/blocks/0/1", 0, 0, "x must be 0..3"},
		{"/blocks/0/2", 0, 0, "y must be 0..3"},
		{"/blocks/1/q", 0, 0, UNKNOWN_BLOCK},
		{"/blocks/1/x", 0, 0, "required"},
		{"/blocks/1/y", 0, 0, "required"},
		{"/blocks/2", 0, 0, "expected [t, x, y] or {\"t\": t, \"x\": x, \"y\": y}"},
		{"/blocks/4/0", 0, 0, "t must be an integer"},
		{"/blocks/4/1", 0, 0, "x must be an integer"}}},
    {"collects the limit and the blocks", "{\"blocks\": [[1, 1, 1], [1, 1, 9], [2, 0, 3]]}",
     .collect = true, .max_blocks = 2, .status = INV,
     .faults = {{"/blocks", 0, 0, "too many blocks: more than the limit of 2"},
		{"/blocks/1/2", 0, 0, "y must be 0..3"},
		{"/blocks/2/2", 0, 0, "y must be 0..2 for a horizontal domino (t = 2)"}}},
};

static enum codec_status json_run(const char *text, const char *pointer,
				  const struct md_read_options *opt, bool collect,
				  struct codec_error *err, struct sink *sink, size_t stop_after)
{
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		fail_msg("bad JSON in a test: %s: %s", text, jerr.text);
	error_init(err, collect ? CODEC_FAULTS_MAX : 1);
	sink_init(sink, stop_after);
	enum codec_status st =
	    md_json_read(root, pointer ? pointer : "", opt, err, sink_block, sink);
	json_decref(root);
	return st;
}

static void md_json_should_answer_each_case_of_the_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof json_cases / sizeof json_cases[0]; i++) {
		const struct json_case *c = &json_cases[i];
		struct md_read_options opt = {.max_blocks = c->max_blocks ? c->max_blocks
									  : DEFAULT_MAX_BLOCKS,
					      .strict = c->strict};
		struct codec_error err;
		struct sink sink;
		enum codec_status st =
		    json_run(c->json, c->pointer, &opt, c->collect, &err, &sink, 0);
		if (st != c->status)
			fail_msg("%s: status %d, want %d", c->name, (int)st, (int)c->status);
		if (sink.n != c->blocks)
			fail_msg("%s: %zu blocks, want %zu", c->name, sink.n, c->blocks);
		assert_true(sink.index_ok);
		assert_faults(&err, c->faults, c->name);
		assert_int_equal(err.dropped, 0);
		assert_int_equal(err.status, c->status);
	}
}

static void md_json_should_hand_on_the_blocks_it_read(void **state)
{
	(void)state;
	struct codec_error err;
	struct sink sink;
	struct md_read_options opt = {.max_blocks = DEFAULT_MAX_BLOCKS, .strict = false};
	assert_int_equal(json_run("{\"blocks\": [[1, 1, 1], {\"t\": 2, \"x\": 3, \"y\": 0}, "
				  "[3, 2, 3]]}",
				  "", &opt, false, &err, &sink, 0),
			 CODEC_OK);
	assert_int_equal(sink.n, 3);
	struct md_block want[3] = {{1, 1, 1}, {2, 3, 0}, {3, 2, 3}};
	for (int i = 0; i < 3; i++) {
		assert_int_equal(sink.blocks[i].t, want[i].t);
		assert_int_equal(sink.blocks[i].x, want[i].x);
		assert_int_equal(sink.blocks[i].y, want[i].y);
		assert_int_equal(sink.index[i], i);
	}
}

static void md_json_should_check_the_baekjoon_limit_in_strict_mode(void **state)
{
	(void)state;
	json_t *blocks = json_array();
	for (int i = 0; i < MD_BAEKJOON_MAX_N; i++)
		json_array_append_new(blocks, json_pack("[iii]", 1, 0, 0));
	json_t *root = json_pack("{sO}", "blocks", blocks);
	struct codec_error err;
	struct md_read_options strict = {.max_blocks = 0, .strict = true};
	error_init(&err, CODEC_FAULTS_MAX);
	assert_int_equal(md_json_read(root, "", &strict, &err, NULL, NULL), CODEC_OK);
	json_array_append_new(blocks, json_pack("[iii]", 1, 0, 0));
	error_init(&err, CODEC_FAULTS_MAX);
	assert_int_equal(md_json_read(root, "", &strict, &err, NULL, NULL), CODEC_E_INVALID);
	assert_int_equal(err.nfaults, 1);
	assert_string_equal(err.faults[0].pointer, "/blocks");
	assert_string_equal(err.faults[0].detail, "expected 1..10000 blocks, found 10001");
	/* lenient: no Baekjoon limit */
	struct md_read_options lenient = {.max_blocks = 0, .strict = false};
	codec_error_init(&err);
	assert_int_equal(md_json_read(root, "", &lenient, &err, NULL, NULL), CODEC_OK);
	json_decref(blocks);
	json_decref(root);
}

static void md_json_should_stop_reading_when_the_callback_asks(void **state)
{
	(void)state;
	struct codec_error err;
	struct sink sink;
	struct md_read_options opt = {.max_blocks = DEFAULT_MAX_BLOCKS, .strict = false};
	assert_int_equal(json_run("{\"blocks\": [[1, 1, 1], [1, 1, 1], [1, 1, 1], [9, 9, 9]]}", "",
				  &opt, false, &err, &sink, 2),
			 CODEC_OK);
	assert_int_equal(sink.n, 2);
	assert_false(codec_error_is_set(&err));
}

static void md_json_should_report_its_status_without_an_error_struct(void **state)
{
	(void)state;
	json_t *root = json_loads("{\"blocks\": [[1, 1, 1], [1, 7, 1], [9, 1, 1]]}", 0, NULL);
	struct sink sink;
	sink_init(&sink, 0);
	assert_int_equal(md_json_read(root, NULL, NULL, NULL, sink_block, &sink), CODEC_E_INVALID);
	assert_int_equal(sink.n, 1);
	json_decref(root);
}

static void md_json_should_write_the_result_with_both_boards(void **state)
{
	(void)state;
	static const int moves[8][3] = {{1, 1, 1}, {2, 3, 0}, {3, 2, 2}, {3, 2, 3},
					{3, 1, 3}, {2, 0, 0}, {3, 2, 0}, {3, 1, 2}};
	struct md_game g;
	md_init(&g);
	for (int i = 0; i < 8; i++)
		md_place(&g, (struct md_block){(uint8_t)moves[i][0], (uint8_t)moves[i][1],
					       (uint8_t)moves[i][2]});
	json_t *result = md_json_result(&g);
	assert_non_null(result);
	char *text = json_dumps(result, JSON_COMPACT);
	assert_string_equal(text,
			    "{\"score\":2,\"tiles\":15,"
			    "\"green\":[\"....\",\"....\",\"....\",\"#...\",\"#.##\",\".###\"],"
			    "\"blue\":[\"......\",\"..#.#.\",\"..####\",\"...#.#\"]}");
	free(text);
	json_decref(result);

	json_t *step = json_object();
	md_init(&g);
	md_place(&g, (struct md_block){1, 1, 1});
	assert_int_equal(md_json_add_boards(step, &g), 0);
	text = json_dumps(step, JSON_COMPACT);
	assert_string_equal(text,
			    "{\"green\":[\"....\",\"....\",\"....\",\"....\",\"....\",\".#..\"],"
			    "\"blue\":[\"......\",\".....#\",\"......\",\"......\"]}");
	free(text);
	json_decref(step);
}

static int md_write(const void *ctx, char *buf, size_t size)
{
	return md_json_write_result(ctx, buf, size);
}

/* Checks md_json_write_result() against the dump of md_json_result(). */
static void md_assert_writes_like_the_dump(const struct md_game *g)
{
	char *want = dump_line(md_json_result(g));
	assert_writes(want, md_write, g, true);
	free(want);
}

static void md_json_write_result_should_give_the_bytes_of_the_dump(void **state)
{
	(void)state;
	struct md_game g;
	md_init(&g);
	md_assert_writes_like_the_dump(&g);
	unsigned checked = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct gen_rng rng;
		gen_rng_init(&rng, seed);
		md_init(&g);
		unsigned moves = (unsigned)gen_rng_below(&rng, 60);
		for (unsigned i = 0; i < moves; i++) {
			md_place(&g, gen_md_block(&rng));
			char *want = dump_line(md_json_result(&g));
			assert_writes(want, md_write, &g, false);
			free(want);
			checked++;
		}
		md_assert_writes_like_the_dump(&g);
	}
	/* Scores far past any game, up to the wrap jansson's signed integer gives. */
	static const uint64_t scores[] = {
	    9, 10, 99999, 4294967296u, INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX};
	for (size_t i = 0; i < sizeof scores / sizeof scores[0]; i++) {
		g.score = scores[i];
		md_assert_writes_like_the_dump(&g);
	}
	assert_true(checked >= 2000);
}

/* Failure injection: an allocator that fails after `alloc_budget` calls. */
static long alloc_budget;

static void *failing_malloc(size_t size)
{
	if (alloc_budget-- <= 0)
		return NULL;
	return malloc(size);
}

static void md_json_should_return_null_and_leak_nothing_when_memory_runs_out(void **state)
{
	(void)state;
	struct md_game g;
	md_init(&g);
	md_place(&g, (struct md_block){3, 2, 3});
	bool succeeded = false;
	for (long budget = 0; budget < 200 && !succeeded; budget++) {
		alloc_budget = budget;
		json_set_alloc_funcs(failing_malloc, free);
		json_t *result = md_json_result(&g);
		json_set_alloc_funcs(malloc, free);
		succeeded = result != NULL;
		json_decref(result);
	}
	assert_true(succeeded);

	succeeded = false;
	for (long budget = 0; budget < 200 && !succeeded; budget++) {
		json_t *obj = json_object();
		assert_non_null(obj);
		alloc_budget = budget;
		json_set_alloc_funcs(failing_malloc, free);
		int rc = md_json_add_boards(obj, &g);
		json_set_alloc_funcs(malloc, free);
		assert_true(rc == 0 || rc == -1);
		succeeded = rc == 0;
		if (succeeded) {
			assert_int_equal(json_array_size(json_object_get(obj, "green")), 6);
			assert_int_equal(json_array_size(json_object_get(obj, "blue")), 4);
		}
		json_decref(obj);
	}
	assert_true(succeeded);
}

/* ---- the data-driven cases ----------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	assert_non_null(buf);
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap + 1);
		assert_non_null(buf);
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

struct case_run {
	enum codec_status status;
	struct codec_error err;
	struct sink sink;
};

/* Solves a case the way the service does: first fault wins, default limits. */
static void case_solve(const char *dir, bool text, const char *input, size_t len, enum chunking how,
		       struct case_run *run)
{
	struct md_read_options opt = {.max_blocks = DEFAULT_MAX_BLOCKS, .strict = false};
	codec_error_init(&run->err);
	sink_init(&run->sink, 0);
	if (text) {
		struct text_run tr;
		text_run(&tr, input, len, &opt, false, how, 99, 0);
		run->status = tr.finished;
		codec_error_copy(&run->err, &tr.err);
		run->sink = tr.sink;
		return;
	}
	json_error_t jerr;
	json_t *root = json_loadb(input, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		fail_msg("%s: input.json does not parse: %s", dir, jerr.text);
	run->status = md_json_read(root, "", &opt, &run->err, sink_block, &run->sink);
	json_decref(root);
}

static void case_check_error(const char *dir, const struct case_run *run, const char *want_text)
{
	json_error_t jerr;
	json_t *want = json_loads(want_text, 0, &jerr);
	if (!want)
		fail_msg("%s: expected-error.json does not parse: %s", dir, jerr.text);
	json_int_t status = json_integer_value(json_object_get(want, "status"));
	if (problem_http_status(run->status) != (unsigned)status)
		fail_msg("%s: HTTP status %u, want %lld", dir, problem_http_status(run->status),
			 (long long)status);
	json_t *errors = json_object_get(want, "errors");
	if (json_array_size(errors) != run->err.nfaults)
		fail_msg("%s: %u faults, want %zu (first: %s)", dir, run->err.nfaults,
			 json_array_size(errors), run->err.detail);
	size_t i;
	json_t *e;
	json_array_foreach(errors, i, e)
	{
		const struct codec_fault *f = &run->err.faults[i];
		const char *pointer = json_string_value(json_object_get(e, "pointer"));
		json_int_t line = json_integer_value(json_object_get(e, "line"));
		json_int_t column = json_integer_value(json_object_get(e, "column"));
		if (strcmp(f->pointer, pointer ? pointer : "") != 0 || f->line != line ||
		    f->column != column)
			fail_msg("%s: fault at '%s' line %u column %u (%s), want '%s' line %lld "
				 "column %lld",
				 dir, f->pointer, f->line, f->column, f->detail,
				 pointer ? pointer : "", (long long)line, (long long)column);
	}
	json_decref(want);
}

static void md_codec_should_answer_every_data_driven_case(void **state)
{
	(void)state;
	DIR *d = opendir(CASES_DIR);
	if (!d)
		fail_msg("cannot open %s (run the tests from the repository root)", CASES_DIR);
	unsigned checked = 0, answers = 0, errors = 0;
	struct dirent *ent;
	while ((ent = readdir(d))) {
		if (ent->d_name[0] == '.')
			continue;
		char path[512], dir[300];
		snprintf(dir, sizeof dir, "%s/%s", CASES_DIR, ent->d_name);
		size_t len, want_len;
		bool text = true;
		snprintf(path, sizeof path, "%s/input.txt", dir);
		char *input = read_file(path, &len);
		if (!input) {
			text = false;
			snprintf(path, sizeof path, "%s/input.json", dir);
			input = read_file(path, &len);
		}
		if (!input)
			fail_msg("%s: no input.txt or input.json", dir);
		snprintf(path, sizeof path, "%s/expected.txt", dir);
		char *want = read_file(path, &want_len);
		bool want_error = false;
		if (!want) {
			snprintf(path, sizeof path, "%s/expected-error.json", dir);
			want = read_file(path, &want_len);
			want_error = true;
		}
		if (!want)
			fail_msg("%s: no expected.txt or expected-error.json", dir);

		for (int how = WHOLE; how <= (text ? RANDOM : WHOLE); how++) {
			struct case_run run;
			case_solve(dir, text, input, len, (enum chunking)how, &run);
			if (want_error) {
				case_check_error(dir, &run, want);
				continue;
			}
			if (run.status != CODEC_OK)
				fail_msg("%s: %s", dir, run.err.detail);
			char got[64];
			md_text_result(&run.sink.game, got, sizeof got);
			if (strcmp(got, want) != 0)
				fail_msg("%s: answered %s, want %s", dir, got, want);
		}
		checked++;
		if (want_error)
			errors++;
		else
			answers++;
		free(input);
		free(want);
	}
	closedir(d);
	print_message("%u data-driven cases: %u answers, %u errors\n", checked, answers, errors);
	assert_true(answers >= 16);
	assert_true(errors >= 15);
}

/* ---- the JSON fast path (md_json_fast_runs) ---------------------------- */

static void md_json_fast_should_take_the_canonical_case_only_and_read_it_as_jansson(void **state)
{
	(void)state;
	static const struct {
		const char *body;
		bool taken;
	} cases[] = {
	    {"{\"blocks\":[[1,1,1],[2,3,0],[3,2,2]]}", true},
	    {" {\n\t\"blocks\" : [ [ 1 , 1 , 1 ] , [3,2,3] ] }\r\n", true},
	    {"{\"blocks\":[[2,3,2]]}", true},
	    {"{\"blocks\":[]}", false},			      /* left to jansson */
	    {"{\"blocks\":[[2,3,3]]}", false},		      /* outside red */
	    {"{\"blocks\":[[0,0,0]]}", false},		      /* bad type */
	    {"{\"blocks\":[[1,1,12]]}", false},		      /* two digits */
	    {"{\"blocks\":[[1,1,1.0]]}", false},	      /* a real */
	    {"{\"blocks\":[[1,1,1e0]]}", false},	      /* an exponent */
	    {"{\"blocks\":[[1,1,-0]]}", false},		      /* a sign */
	    {"{\"blocks\":[[1,1,1]],\"trace\":true}", false}, /* another member */
	    {"{\"trace\":false,\"blocks\":[[1,1,1]]}", false},
	    {"{\"blocks\":[{\"t\":1,\"x\":1,\"y\":1}]}", false},
	    {"{\"blocks\":[[1,1,1]]} x", false},
	    {"{\"blocks\":[[1,1,1]],}", false},
	    {"{\"blocks\":[[1,1,1],]}", false},
	    {"{\"blocks\":[[1,1,1]]", false},
	    {"{\"blocks\":[[1,1,1]]}\v", false},     /* not JSON whitespace */
	    {"{\"block\\u0073\":[[1,1,1]]}", false}, /* an escape */
	    {"{\"cases\":[{\"blocks\":[[1,1,1]]}]}", false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *body = cases[i].body;
		struct sink fast, full;
		sink_init(&fast, 0);
		bool taken = md_json_fast_read(body, strlen(body), 0, sink_block, &fast);
		if (taken != cases[i].taken)
			fail_msg("'%s': taken %d, want %d", body, taken, cases[i].taken);
		if (!taken)
			continue;
		json_t *root = json_loads(body, JSON_REJECT_DUPLICATES, NULL);
		assert_non_null(root);
		sink_init(&full, 0);
		assert_int_equal(md_json_read(root, "", NULL, NULL, sink_block, &full), CODEC_OK);
		json_decref(root);
		assert_int_equal(fast.n, full.n);
		assert_memory_equal(fast.blocks, full.blocks, fast.n * sizeof fast.blocks[0]);
		assert_memory_equal(&fast.game, &full.game, sizeof fast.game);
	}
	/* over the limit: left to jansson, which names it */
	const char *three = "{\"blocks\":[[1,1,1],[1,1,1],[1,1,1]]}";
	struct sink s;
	sink_init(&s, 0);
	assert_false(md_json_fast_read(three, strlen(three), 2, sink_block, &s));
	sink_init(&s, 0);
	assert_true(md_json_fast_read(three, strlen(three), 3, sink_block, &s));
}

/* The blocks md_json_fast_runs() hands on, all of them, in order. */
struct runs {
	size_t n;
	size_t calls;
	size_t stop_at; /* calls after which play() asks to stop; 0: never */
	struct md_block *blocks;
};

static int runs_play(void *ctx, const struct md_block *blocks, size_t n)
{
	struct runs *r = ctx;
	memcpy(r->blocks + r->n, blocks, n * sizeof *blocks);
	r->n += n;
	return r->stop_at && ++r->calls >= r->stop_at;
}

/* A sink of any size, for md_json_fast_read() on long bodies. */
struct all {
	size_t n;
	struct md_block *blocks;
};

static int all_block(void *ctx, struct md_block block, unsigned long index)
{
	struct all *a = ctx;
	(void)index;
	a->blocks[a->n++] = block;
	return 0;
}

static void md_json_fast_legal_digits_should_be_md_check(void **state)
{
	(void)state;
	uint64_t legal = md_json_fast_legal();
	for (unsigned t = 0; t < 4; t++)
		for (unsigned x = 0; x < 4; x++)
			for (unsigned y = 0; y < 4; y++)
				assert_int_equal((legal >> (t << 4 | x << 2 | y)) & 1,
						 md_check(t, x, y) == MD_FAULT_NONE);
}

/*
 * md_json_fast_runs() against md_json_fast_read(), its reference: random
 * bodies of compact, spaced and broken blocks, cut and mutated, with and
 * without a limit and for any size of run, must be taken alike and give
 * the same blocks.
 */
static void md_json_fast_runs_should_read_as_block_by_block(void **state)
{
	(void)state;
	enum { MAX = 3000 };
	static const char *const pieces[] = {"[1,1,1]",	 "[2,3,0]",  "[3,2,2]",	 "[1,0,3]",
					     " [3,0,1]", "[2,1,2] ", "[3,3,1]",	 "[2,0,3]",
					     "[0,1,1]",	 "[1,1,12]", "[1,4,1]",	 "[1,1,1.0]",
					     "[ 1,1,1]", "[1,1,1 ]", "\n[1,1,1]"};
	char *body = malloc(MAX * 12 + 64);
	struct md_block *a = malloc(MAX * 2 * sizeof *a), *b = malloc(MAX * 2 * sizeof *b);
	struct md_block buf[64];
	assert_non_null(body);
	assert_non_null(a);
	assert_non_null(b);
	uint64_t seed = 88172645463325252u;
	for (unsigned round = 0; round < 4000; round++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		unsigned n = (unsigned)(seed % (round % 4 == 0 ? MAX : 40)) + 1;
		bool compact = (seed >> 20) % 3 != 0;
		size_t len = (size_t)sprintf(body, "{\"blocks\":[");
		for (unsigned i = 0; i < n; i++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			unsigned k = (unsigned)(seed % (compact ? 7 : 15));
			if (compact && seed % 997 == 0)
				k = 7 + (unsigned)(seed % 8);
			len += (size_t)sprintf(body + len, "%s%s", i ? "," : "", pieces[k]);
		}
		len += (size_t)sprintf(body + len, "]}%s", (seed >> 30) % 5 ? "" : " ");
		if ((seed >> 33) % 6 == 0)
			len = (size_t)((seed >> 36) % (len + 1)); /* cut short */
		else if ((seed >> 33) % 6 == 1)
			body[(seed >> 36) % len] = (char)(seed >> 50); /* one byte changed */
		unsigned long limit =
		    (seed >> 40) % 3 == 0 ? (unsigned long)((seed >> 44) % (n + 2)) : 0;
		size_t cap = 1 + (size_t)((seed >> 48) % 64);
		struct all ref = {.n = 0, .blocks = a};
		bool want = md_json_fast_read(body, len, limit, all_block, &ref);
		struct runs got = {.n = 0, .blocks = b, .stop_at = (seed >> 56) % 9 == 0 ? 2 : 0};
		bool have = md_json_fast_runs(body, len, limit, buf, cap, runs_play, &got);
		if (got.stop_at && got.calls >= got.stop_at) {
			assert_false(have); /* stopped by play() */
			continue;
		}
		if (want != have)
			fail_msg("'%.*s' (limit %lu, runs of %zu): taken %d, by block %d",
				 (int)(len > 300 ? 300 : len), body, limit, cap, have, want);
		if (!want)
			continue;
		assert_int_equal(got.n, ref.n);
		assert_memory_equal(a, b, ref.n * sizeof *a);
	}
	free(body);
	free(a);
	free(b);
}

/*
 * md_text_canonical() against the rule written
 * out: from the start, a line is taken while it is exactly "t x y\n" of
 * digits with md_check() legal, at least 8 bytes are left from its start,
 * and fewer than cap are taken. Random texts of mostly canonical lines,
 * with bad ones (illegal digits, CRLF, tabs, two digits, short) here and
 * there, cut anywhere, for any cap.
 */
static void md_text_canonical_should_take_the_canonical_lines(void **state)
{
	(void)state;
	static const char *const bad[] = {"0 1 1\n",  "3 3 1\n",  "2 1 3\n", "1 1 1\r\n",
					  "1\t1 1\n", "1 1 12\n", "1 1\n",   "4 0 0\n",
					  "1 1 /\n",  " 1 1 1\n"};
	enum { LINES = 700 };
	char *text = malloc(LINES * 8 + 1);
	struct md_block *want = malloc(LINES * sizeof *want), *got = malloc(LINES * sizeof *got);
	assert_non_null(text);
	assert_non_null(want);
	assert_non_null(got);
	uint64_t seed = 20061;
	for (unsigned round = 0; round < 3000; round++) {
		unsigned lines = 1 + (unsigned)(rng_next(&seed) % LINES);
		unsigned rate = 1 + (unsigned)(rng_next(&seed) % 400); /* one bad line in `rate` */
		size_t len = 0;
		for (unsigned i = 0; i < lines; i++) {
			uint64_t r = rng_next(&seed);
			if (r % rate == 0) {
				const char *b = bad[(r >> 20) % (sizeof bad / sizeof bad[0])];
				memcpy(text + len, b, strlen(b));
				len += strlen(b);
				continue;
			}
			unsigned t, x, y;
			do {
				r = rng_next(&seed);
				t = 1 + (unsigned)(r % 3);
				x = (unsigned)(r >> 8) % 4;
				y = (unsigned)(r >> 16) % 4;
			} while (md_check(t, x, y) != MD_FAULT_NONE);
			len += (size_t)sprintf(text + len, "%u %u %u\n", t, x, y);
		}
		if (rng_next(&seed) % 3 == 0)
			len = (size_t)(rng_next(&seed) % (len + 1));
		size_t cap = 1 + (size_t)(rng_next(&seed) % (LINES + 10));

		/* the rule */
		size_t n = 0, used = 0;
		while (n < cap && len - used >= 8) {
			const char *l = text + used;
			if (l[1] != ' ' || l[3] != ' ' || l[5] != '\n' || l[0] < '0' ||
			    l[0] > '9' || l[2] < '0' || l[2] > '9' || l[4] < '0' || l[4] > '9' ||
			    md_check(l[0] - '0', l[2] - '0', l[4] - '0') != MD_FAULT_NONE)
				break;
			want[n++] = (struct md_block){(uint8_t)(l[0] - '0'), (uint8_t)(l[2] - '0'),
						      (uint8_t)(l[4] - '0')};
			used += 6;
		}
		size_t taken = (size_t)-1;
		size_t bytes = md_text_canonical(text, len, got, cap, &taken);
		if (taken != n || bytes != used)
			fail_msg("round %u, cap %zu, %zu bytes: took %zu lines (%zu bytes), the "
				 "rule %zu (%zu)",
				 round, cap, len, taken, bytes, n, used);
		assert_memory_equal(got, want, n * sizeof *want);
	}
	free(text);
	free(want);
	free(got);
}

/*
 * md_text_canonical() on lines with no digit 0 and one illegal line at
 * each place of the first 200: it takes exactly the lines before it. A
 * reader that looked for t in the wrong bytes would take the illegal line
 * with the rest.
 */
static void md_text_canonical_should_stop_at_an_illegal_line_anywhere(void **state)
{
	(void)state;
	static const char *const illegal[] = {"0 1 1\n", "3 3 1\n", "2 1 3\n", "0 2 2\n"};
	enum { LINES = 400 };
	static char text[LINES * 6 + 8];
	static struct md_block got[LINES];
	uint64_t seed = 11559;
	for (size_t b = 0; b < sizeof illegal / sizeof illegal[0]; b++) {
		for (unsigned at = 0; at < 200; at++) {
			for (unsigned i = 0; i < LINES; i++) {
				uint64_t r = rng_next(&seed);
				unsigned t = 1 + (unsigned)(r % 3), x = 1 + (unsigned)(r >> 8) % 2,
					 y = 1 + (unsigned)(r >> 16) % 2;
				if (i == at)
					memcpy(text + 6 * i, illegal[b], 6);
				else
					snprintf(text + 6 * i, 7, "%u %u %u\n", t, x, y);
			}
			size_t taken = (size_t)-1;
			size_t bytes = md_text_canonical(text, LINES * 6, got, LINES, &taken);
			if (taken != at || bytes != 6 * (size_t)at)
				fail_msg("'%.5s' at line %u: took %zu lines", illegal[b], at,
					 taken);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(md_text_canonical_should_take_the_canonical_lines),
	    cmocka_unit_test(md_text_canonical_should_stop_at_an_illegal_line_anywhere),
	    cmocka_unit_test(md_json_fast_legal_digits_should_be_md_check),
	    cmocka_unit_test(md_json_fast_runs_should_read_as_block_by_block),
	    cmocka_unit_test(md_text_should_answer_each_case_of_the_table),
	    cmocka_unit_test(md_text_should_not_care_where_the_chunks_end),
	    cmocka_unit_test(md_text_should_read_the_public_example_whatever_the_chunks),
	    cmocka_unit_test(md_text_fast_path_should_read_like_the_byte_at_a_time_reader),
	    cmocka_unit_test(md_text_take_should_leave_every_illegal_line_to_the_slow_path),
	    cmocka_unit_test(md_text_should_read_lines_longer_than_any_buffer),
	    cmocka_unit_test(md_text_should_take_a_nul_byte_as_a_bad_character),
	    cmocka_unit_test(md_text_should_stop_reading_when_the_callback_asks),
	    cmocka_unit_test(md_text_should_report_its_status_without_an_error_struct),
	    cmocka_unit_test(md_text_should_count_the_faults_that_did_not_fit),
	    cmocka_unit_test(md_text_should_write_the_baekjoon_output),
	    cmocka_unit_test(md_text_should_write_the_answer_as_printf_does),
	    cmocka_unit_test(md_json_should_answer_each_case_of_the_table),
	    cmocka_unit_test(md_json_should_hand_on_the_blocks_it_read),
	    cmocka_unit_test(md_json_should_check_the_baekjoon_limit_in_strict_mode),
	    cmocka_unit_test(md_json_should_stop_reading_when_the_callback_asks),
	    cmocka_unit_test(md_json_should_report_its_status_without_an_error_struct),
	    cmocka_unit_test(md_json_should_write_the_result_with_both_boards),
	    cmocka_unit_test(md_json_write_result_should_give_the_bytes_of_the_dump),
	    cmocka_unit_test(md_json_should_return_null_and_leak_nothing_when_memory_runs_out),
	    cmocka_unit_test(md_codec_should_answer_every_data_driven_case),
	    cmocka_unit_test(
		md_json_fast_should_take_the_canonical_case_only_and_read_it_as_jansson),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
