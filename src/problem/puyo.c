/*
 * Puyo Puyo (Baekjoon 11559) as a problem (problem.h): decode a field, run
 * the chain steps (recording each one for a trace), encode the outcome; the
 * field generator; its package's statement, examples and tests.
 */
#include <stdio.h>
#include <string.h>

#include "codec/puyo_codec.h"
#include "codec/puyo_links.h"
#include "dropjudge/gen.h"
#include "problem/problem.h"

/* Largest Baekjoon text of a field: 13 rows of 6 characters and '\n'. */
#define PUYO_TEXT_MAX (PUYO_ROWS_MAX * (PUYO_COLS + 1) + 1)

/* Appends the field as Baekjoon text; false when out of memory. */
static bool puyo_put_field(struct problem_text *out, const struct puyo_field *field)
{
	char text[PUYO_TEXT_MAX];
	int n = puyo_text_field(field, text, sizeof text);
	problem_text_put(out, text, (size_t)n);
	return !out->failed;
}

/* puyo_step_fn: appends each step, its counts and the field after it, to
 * the trace array; false when out of memory. */
static bool puyo_trace_step(void *ctx, const struct puyo_step *step, const struct puyo_field *field)
{
	json_t **steps = ctx;
	json_t *entry =
	    json_pack("{sI sI sI sI sI sI so}", "chain", (json_int_t)step->chain, "popped",
		      (json_int_t)step->popped, "garbage", (json_int_t)step->garbage, "groups",
		      (json_int_t)step->groups, "colors", (json_int_t)step->colors, "score",
		      (json_int_t)step->score, "field", puyo_json_rows(field));
	if (json_array_append_new(*steps, entry) == 0) /* entry freed if not */
		return true;
	json_decref(*steps);
	*steps = NULL;
	return false;
}

/* Runs the chain on out->u.puyo.field (the core's puyo_run_steps()),
 * recording each step when tracing. */
static enum codec_status puyo_solve_field(struct problem_outcome *out, bool trace,
					  struct codec_error *err)
{
	out->u.puyo.input = out->u.puyo.field;
	out->steps = trace ? json_array() : NULL;
	puyo_run_steps(&out->u.puyo.field, &out->u.puyo.result, trace ? puyo_trace_step : NULL,
		       &out->steps);
	return trace && !out->steps ? problem_oom(err) : CODEC_OK;
}

static enum codec_status puyo_solve_json(const json_t *case_obj, const char *pointer,
					 const struct problem_limits *limits, bool trace,
					 struct problem_outcome *out, struct codec_error *err)
{
	(void)limits; /* a field has a fixed size */
	/* The rows, or a puyop.com / Puyo Nexus field string or link. */
	enum codec_status st = puyo_links_read_case(case_obj, pointer, &out->u.puyo.field, err);
	return st != CODEC_OK ? st : puyo_solve_field(out, trace, err);
}

static bool puyo_solve_json_fast(const char *body, size_t len, const struct problem_limits *limits,
				 struct problem_outcome *out)
{
	(void)limits;
	/* puyo_solve_field() without a trace, run on the planes as they were read */
	struct puyo_planes planes;
	unsigned rows;
	if (!puyo_json_fast_planes(body, len, &planes, &rows))
		return false;
	puyo_planes_to_field(&planes, rows, &out->u.puyo.input);
	out->steps = NULL;
	puyo_planes_run(&planes, rows, &out->u.puyo.field, &out->u.puyo.result);
	return true;
}

static enum codec_status puyo_solve_text(const char *text, size_t len,
					 const struct problem_limits *limits, bool trace,
					 struct problem_outcome *out, struct codec_error *err)
{
	(void)limits;
	enum codec_status st = puyo_text_read(text, len, false, &out->u.puyo.field, err);
	return st != CODEC_OK ? st : puyo_solve_field(out, trace, err);
}

static json_t *puyo_outcome_links(const struct problem_outcome *out)
{
	return puyo_links_json(&out->u.puyo.input);
}

static json_t *puyo_outcome_json(struct problem_outcome *out)
{
	const struct puyo_result *r = &out->u.puyo.result;
	json_t *steps = out->steps; /* taken; "o*" leaves the member out when NULL */
	out->steps = NULL;
	return json_pack("{sI sI sb so so*}", "chains", (json_int_t)r->chains, "score",
			 (json_int_t)r->score, "all_clear", r->all_clear, "field",
			 puyo_json_rows(&out->u.puyo.field), "steps", steps);
}

static int puyo_outcome_write(const struct problem_outcome *out, char *buf, size_t size)
{
	return puyo_json_write_result(&out->u.puyo.field, &out->u.puyo.result, buf, size);
}

/* outcome_pack: a byte: 13 rows (bit 7), all_clear (bit 6), the chains (bits
 * 0-5; 0 bytes when more); the score in 7-bit groups (low first, bit 7 set on
 * all but the last); the cells row by row, 3 bits each, low bits first. */
static size_t puyo_outcome_pack(const struct problem_outcome *out, unsigned char *buf)
{
	const struct puyo_field *f = &out->u.puyo.field;
	const struct puyo_result *r = &out->u.puyo.result;
	if (r->chains > 63 || (f->rows != PUYO_ROWS && f->rows != PUYO_ROWS_MAX))
		return 0;
	size_t n = 0;
	buf[n++] = (unsigned char)((f->rows == PUYO_ROWS_MAX ? 0x80 : 0) |
				   (r->all_clear ? 0x40 : 0) | r->chains);
	uint64_t score = r->score;
	for (; score >= 0x80; score >>= 7)
		buf[n++] = (unsigned char)(score | 0x80);
	buf[n++] = (unsigned char)score;
	uint64_t acc = 0; /* bits not yet written, low first */
	unsigned bits = 0, rows = f->rows;
	for (unsigned row = 0; row < rows; row++) {
		/* the row's cells read before any byte is written (buf may alias them) */
		uint64_t row_bits = 0;
		for (unsigned col = 0; col < PUYO_COLS; col++)
			row_bits |= (uint64_t)(f->cell[row][col] & 7) << (3 * col);
		acc |= row_bits << bits;
		bits += 3 * PUYO_COLS;
		for (; bits >= 8; bits -= 8, acc >>= 8)
			buf[n++] = (unsigned char)acc;
	}
	if (bits > 0)
		buf[n++] = (unsigned char)acc;
	return n;
}

/* outcome_unpack: reads what puyo_outcome_pack() wrote. */
static size_t puyo_outcome_unpack(const unsigned char *buf, struct problem_outcome *out)
{
	struct puyo_field *f = &out->u.puyo.field;
	struct puyo_result *r = &out->u.puyo.result;
	size_t n = 0;
	unsigned char head = buf[n++];
	f->rows = (head & 0x80) ? PUYO_ROWS_MAX : PUYO_ROWS;
	r->all_clear = (head & 0x40) != 0;
	r->chains = head & 0x3f;
	r->score = 0;
	for (unsigned shift = 0;; shift += 7) {
		unsigned char b = buf[n++];
		r->score |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	uint64_t acc = 0; /* bits read, not yet taken, low first */
	unsigned bits = 0, rows = f->rows;
	for (unsigned row = 0; row < rows; row++) {
		for (; bits < 3 * PUYO_COLS; bits += 8)
			acc |= (uint64_t)buf[n++] << bits;
		/* the row made whole, then stored: a byte store may alias anything */
		uint8_t c[PUYO_COLS];
		for (unsigned col = 0; col < PUYO_COLS; col++)
			c[col] = (uint8_t)(acc >> (3 * col) & 7);
		memcpy(f->cell[row], c, sizeof c);
		acc >>= 3 * PUYO_COLS;
		bits -= 3 * PUYO_COLS;
	}
	return n;
}

static int puyo_outcome_text(const struct problem_outcome *out, char *buf, size_t size)
{
	return puyo_text_result(&out->u.puyo.result, buf, size);
}

static void puyo_validate_json(const json_t *case_obj, const char *pointer,
			       const struct problem_limits *limits, struct codec_error *err)
{
	(void)limits; /* a field has a fixed size */
	struct puyo_field field;
	puyo_json_read(case_obj, pointer, true, &field, err);
}

static void puyo_validate_text(const char *text, size_t len, struct codec_error *err)
{
	struct puyo_field field;
	puyo_text_read(text, len, true, &field, err);
}

/* generate: a field from the seed with the asked colours and at least
 * min_chains chains, as the Baekjoon input text or JSON; with_answer adds
 * the solve result and the Baekjoon output. */
static enum codec_status puyo_generate(const struct problem_gen *g, struct problem_text *text,
				       json_t **obj, struct codec_error *err)
{
	struct puyo_field field;
	if (!gen_puyo_field(g->seed, (unsigned)g->colors, (unsigned)g->min_chains, &field)) {
		if (g->colors == 1 && g->min_chains > 1)
			return codec_error_at_param(
			    err, CODEC_E_INVALID, "min_chains",
			    "a field of one colour pops everything in its first "
			    "chain: ask for at most 1 chain, or more colours");
		return codec_error_at_param(
		    err, CODEC_E_INVALID, "min_chains",
		    "no field of %llu colours with at least %llu chains was "
		    "found within the search bound for this seed; try "
		    "another seed or more colours",
		    (unsigned long long)g->colors, (unsigned long long)g->min_chains);
	}
	if (g->text)
		return puyo_put_field(text, &field) ? CODEC_OK : problem_oom(err);
	*obj = json_pack("{so}", "field", puyo_json_rows(&field));
	if (g->with_answer) {
		struct problem_outcome out = {.u.puyo.field = field};
		puyo_solve_field(&out, false, err); /* cannot fail without a trace */
		*obj = problem_with_answer(&problem_puyo, *obj, &out);
	}
	return CODEC_OK;
}

/* --- the package -------------------------------------------------------- */

/* Generated tests that fail (a search that hit its bound) are retried with
 * the next seed of the stream, at most this many times. */
#define PUYO_GENERATE_TRIES 64

static const char puyo_legend[] =
    "The field has 12 rows and 6 columns. `.` is an empty cell; `R`, `G`, `B`, `P` and `Y` "
    "are puyos of five colours. Every puyo rests on the floor or on another puyo.\n"
    "\n"
    "One chain step: find every group of 4 or more puyos of one colour connected up, down, "
    "left or right (not diagonally). If there is none, stop. All such groups pop at the same "
    "time, and however many groups pop, it is one chain. Then, in each column, the puyos "
    "left fall straight down, keeping their order, until they rest on the floor or on "
    "another puyo; and the next step begins.\n"
    "\n"
    "Find the number of chain steps in which something popped.";

static const char puyo_input[] =
    "12 lines of 6 characters each, the rows of the field from the top: `.` for an empty "
    "cell, `R`, `G`, `B`, `P` or `Y` for a puyo. No puyo has an empty cell below it.";

static const char puyo_output[] = "Print the number of chains (0 when nothing pops).";

#define PUYO_EMPTY_ROWS_8  "......\n......\n......\n......\n......\n......\n......\n......\n"
#define PUYO_EMPTY_ROWS_10 PUYO_EMPTY_ROWS_8 "......\n......\n"
#define PUYO_EMPTY_ROWS_11 PUYO_EMPTY_ROWS_10 "......\n"

static const struct problem_case puyo_samples[] = {
    {"1", PUYO_EMPTY_ROWS_8 ".Y....\n.YG...\nRRYG..\nRRYGG.\n"},
};

static const struct problem_case puyo_edges[] = {
    {"empty-field", PUYO_EMPTY_ROWS_11 "......\n"},
    {"four-in-a-row", PUYO_EMPTY_ROWS_11 "RRRR..\n"},
    {"three-in-a-row", PUYO_EMPTY_ROWS_11 "RRR...\n"},
    {"two-groups-one-chain", PUYO_EMPTY_ROWS_10 "GGGG..\nRRRR..\n"},
    {"five-in-an-l", PUYO_EMPTY_ROWS_8 "......\nR.....\nR.....\nRRR...\n"},
    {"full-field-no-group", "RBYGPR\nGPRBYG\nBYGPRB\nPRBYGP\nYGPRBY\nRBYGPR\n"
			    "GPRBYG\nBYGPRB\nPRBYGP\nYGPRBY\nRBYGPR\nGPRBYG\n"},
    {"full-field-one-colour", "RRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\n"
			      "RRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\nRRRRRR\n"},
};

/* Random: 3 or 4 colours, 0 to 3 chains. Large: all 5 colours, 3 to 5
 * chains. Chains: 4 colours and at least min_chains. */
static bool puyo_generate_test(enum problem_kind kind, uint64_t seed, unsigned min_chains,
			       struct problem_text *out, struct codec_error *err)
{
	struct gen_rng rng;
	gen_rng_init(&rng, seed);
	unsigned colors = 4, chains = min_chains;
	if (kind == PROBLEM_LARGE) {
		colors = PUYO_COLORS;
		chains = 3 + (unsigned)gen_rng_below(&rng, 3);
	} else if (kind != PROBLEM_CHAINS) {
		colors = 3 + (unsigned)gen_rng_below(&rng, 2);
		chains = (unsigned)gen_rng_below(&rng, 4);
	}
	struct puyo_field field;
	for (unsigned i = 0; i < PUYO_GENERATE_TRIES; i++)
		if (gen_puyo_field(gen_rng_next(&rng), colors, chains, &field)) {
			puyo_put_field(out, &field);
			return true;
		}
	codec_error_at_param(err, CODEC_E_INVALID, "min_chains",
			     "no field of %u colours with at least %u chains was found within "
			     "the search bound from this seed; try another seed",
			     colors, chains);
	return false;
}

/* The accepted solution and the input validator's fixed source
 * (src/package/files, assembled in by blobs.S). */
extern const char pkg_puyo_solution[], pkg_puyo_solution_end[];
extern const char pkg_puyo_validator[], pkg_puyo_validator_end[];

/* Puyo's field for the validator: puyo.h's size and Baekjoon's alphabet
 * (the empty cell and the colours, no garbage). */
static void puyo_constants(struct problem_text *out)
{
	char alphabet[PUYO_COLORS + 2];
	for (unsigned c = PUYO_EMPTY; c <= PUYO_COLORS; c++)
		alphabet[c] = puyo_cell_to_char((uint8_t)c);
	alphabet[PUYO_COLORS + 1] = '\0';
	problem_text_printf(out,
			    "#define DJ_PUYO_ROWS %d\n#define DJ_PUYO_COLS %d\n"
			    "#define DJ_PUYO_EMPTY '%c'\n#define DJ_PUYO_ALPHABET ",
			    PUYO_ROWS, PUYO_COLS, alphabet[PUYO_EMPTY]);
	problem_text_c_string(out, alphabet);
	problem_text_puts(out, "\n");
}

const struct problem problem_puyo = {
    .id = "puyo",
    .short_name = "puyo",
    .title = "Puyo Puyo",
    .baekjoon = 11559,
    .time_limit_ms = 2000,
    .memory_mib = 256,
    .solve_json = puyo_solve_json,
    .solve_json_fast = puyo_solve_json_fast,
    .solve_text = puyo_solve_text,
    .outcome_json = puyo_outcome_json,
    .outcome_write = puyo_outcome_write,
    .outcome_pack = puyo_outcome_pack,
    .outcome_unpack = puyo_outcome_unpack,
    .outcome_text = puyo_outcome_text,
    .outcome_links = puyo_outcome_links,
    .validate_json = puyo_validate_json,
    .validate_text = puyo_validate_text,
    .generate = puyo_generate,
    .generate_test = puyo_generate_test,
    .legend = puyo_legend,
    .input_format = puyo_input,
    .output_format = puyo_output,
    .samples = puyo_samples,
    .nsamples = PROBLEM_COUNT(puyo_samples),
    .edges = puyo_edges,
    .nedges = PROBLEM_COUNT(puyo_edges),
    .has_chains = true,
    .solution = pkg_puyo_solution,
    .solution_end = pkg_puyo_solution_end,
    .validator = pkg_puyo_validator,
    .validator_end = pkg_puyo_validator_end,
    .answer_tokens = 1,
    .constants = puyo_constants,
};
