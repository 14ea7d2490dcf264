/*
 * Unit tests of the Puyo search (issue 47): the straightforward reference
 * of tests/bench/puyo_search_ref.c held to the simulator's chains and score
 * on random fields, and examples of triggers and sequences computed by hand
 * from the rules (the same ones the README shows).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dropjudge/puyo.h"

#include "../bench/puyo_search_ref.c"

/* splitmix64: a fixed sequence, so a failure can be replayed. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static unsigned rng_below(uint64_t *s, unsigned n)
{
	return (unsigned)(rng_next(s) % n);
}

/*
 * How many random cases a differential test runs: `sample` in `make test`,
 * `full` under `make test-long` (DROPJUDGE_TEST_LONG=1 in the environment).
 */
static unsigned test_cases(unsigned sample, unsigned full)
{
	const char *v = getenv("DROPJUDGE_TEST_LONG");
	return v && strcmp(v, "1") == 0 ? full : sample;
}

/* A 13-row char grid, row 0 the hidden row: anything, floating included. */
static void random_grid(char g[REF_ROWS][REF_COLS], uint64_t *s, bool hidden)
{
	unsigned colors = 1 + rng_below(s, 5);
	unsigned empty = rng_below(s, 60);   /* percent */
	unsigned garbage = rng_below(s, 25); /* percent */
	for (unsigned r = 0; r < REF_ROWS; r++) {
		for (unsigned c = 0; c < REF_COLS; c++) {
			unsigned roll = rng_below(s, 100);
			if ((r == 0 && !hidden) || roll < empty)
				g[r][c] = '.';
			else if (roll < empty + garbage)
				g[r][c] = 'O';
			else
				g[r][c] = ref_color_order[rng_below(s, colors)];
		}
	}
}

/* The grid as the simulator's field: 13 rows, or the 12 below an empty row 0. */
static void grid_field(char g[REF_ROWS][REF_COLS], unsigned rows, struct puyo_field *f)
{
	puyo_field_init(f, rows);
	for (unsigned r = 0; r < rows; r++)
		for (unsigned c = 0; c < REF_COLS; c++)
			f->cell[r][c] = (uint8_t)puyo_cell_from_char(g[r + REF_ROWS - rows][c]);
}

static void reference_should_score_as_the_simulator_on_random_fields(void **state)
{
	(void)state;
	uint64_t s = 47;
	unsigned fired = 0, n = test_cases(20000, 1000000);
	for (unsigned i = 0; i < n; i++) {
		char g[REF_ROWS][REF_COLS];
		bool hidden = rng_below(&s, 2);
		random_grid(g, &s, hidden);
		struct puyo_field f;
		grid_field(g, hidden ? 13 : 12, &f);
		struct puyo_result want;
		puyo_run(&f, &want);
		int chains;
		long score;
		ref_run(g, &chains, &score);
		if ((unsigned)chains != want.chains || (uint64_t)score != want.score) {
			print_message(
			    "case %u: reference %d chains %ld, simulator %u chains %llu\n", i,
			    chains, score, want.chains, (unsigned long long)want.score);
			fail();
		}
		fired += chains > 0;
	}
	assert_true(fired > n / 10); /* the property says something */
}

/* A request on a 12-row field given by its bottom rows (top first). */
static void request_init(struct ref_request *rq, const char *const *rows, unsigned n)
{
	memset(rq, 0, sizeof *rq);
	memset(rq->field, '.', sizeof rq->field);
	for (unsigned i = 0; i < n; i++)
		memcpy(rq->field[REF_ROWS - n + i], rows[i], REF_COLS);
	rq->add = 3;
	rq->limit = 10;
	strcpy(rq->colors, "RGBPY");
}

/* Asserts that text begins with want. */
static void assert_prefix(const char *text, const char *want)
{
	if (strncmp(text, want, strlen(want)) != 0) {
		print_message("want:\n%s\ngot:\n%s\n", want, text);
		fail();
	}
}

/*
 * Bottom row RRR...: one red on any of columns 1-4 makes four reds (1
 * chain, 10 x 4 x max(1, 0) = 40 points); nothing else pops with 3 puyos.
 */
static void reference_should_find_the_triggers_of_three_reds(void **state)
{
	(void)state;
	static const char *const rows[] = {"RRR..."};
	struct ref_request rq;
	char out[16384];
	request_init(&rq, rows, 1);
	assert_int_equal(ref_search(&rq, out, sizeof out), 0);
	assert_prefix(out, "fires_now none\n"
			   "trigger 1 R 1 1 40\n"
			   "trigger 2 R 1 1 40\n"
			   "trigger 3 R 1 1 40\n"
			   "trigger 4 R 1 1 40\n"
			   "examined 1\n"
			   "seq | | 1 R 1 1 40\n");
}

/*
 * The field below: a red on column 2 lands next to the three reds of
 * column 1 (chain 1: 4 puyos, 40 points); the green above them falls onto
 * the greens (chain 2: 4 puyos, 10 x 4 x 8 = 320): 360 in all. A pair
 * [R, B] fires the same two chains from exactly four placements: column
 * 2 with rotations 0, 1 and 3 puts the red on (row 10, column 2), rotation
 * 2 puts it above the blue, next to the red of row 9. Each leaves only the
 * blue: no red trigger with add 1. All 22 placements are legal.
 */
static void reference_should_rank_the_two_chain_placements_first(void **state)
{
	(void)state;
	static const char *const rows[] = {"G.....", "R.....", "R.....", "RG....", "GG...."};
	struct ref_request rq;
	char out[16384];
	request_init(&rq, rows, 5);
	rq.add = 1;
	strcpy(rq.colors, "R");
	assert_int_equal(ref_search(&rq, out, sizeof out), 0);
	assert_prefix(out, "fires_now none\n"
			   "trigger 2 R 1 2 360\n"
			   "examined 1\n");
	rq.npairs = 1;
	rq.pairs[0][0] = 'R';
	rq.pairs[0][1] = 'B';
	rq.limit = 4;
	assert_int_equal(ref_search(&rq, out, sizeof out), 0);
	assert_string_equal(out, "fires_now none\n"
				 "trigger 2 R 1 2 360\n"
				 "examined 22\n"
				 "seq 2,0 | 2,360 | none\n"
				 "seq 2,1 | 2,360 | none\n"
				 "seq 2,2 | 2,360 | none\n"
				 "seq 2,3 | 2,360 | none\n");
}

/*
 * Four reds standing in column 1 fire at once (1 chain, 40 points); the
 * search starts from the empty field left. A pair [R, R] has 11
 * placements; a vertical one in column 1 leaves two reds that two more on
 * column 1 (or on column 2) complete: the best trigger of every end field
 * drops 2 and scores 40, so the placements' order decides.
 */
static void reference_should_settle_and_fire_the_field_first(void **state)
{
	(void)state;
	static const char *const rows[] = {"R.....", "R.....", "R.....", "R....."};
	struct ref_request rq;
	char out[16384];
	request_init(&rq, rows, 4);
	rq.npairs = 1;
	rq.pairs[0][0] = 'R';
	rq.pairs[0][1] = 'R';
	rq.limit = 3;
	assert_int_equal(ref_search(&rq, out, sizeof out), 0);
	assert_string_equal(out, "fires_now 1 40\n"
				 "examined 11\n"
				 "seq 1,0 | 0,0 | 1 R 2 1 40\n"
				 "seq 1,1 | 0,0 | 1 R 2 1 40\n"
				 "seq 2,0 | 0,0 | 1 R 2 1 40\n");
}

/* A column with one free cell takes no vertical pair; a full one nothing. */
static void reference_should_refuse_placements_above_the_13th_row(void **state)
{
	(void)state;
	static const char *const rows[] = {
	    "RGBPYG", "GBPYRB", "BPYRGP", "PYRGBY", "YRGBPR", "RGBPYG",
	    "GBPYRB", "BPYRGP", "PYRGBY", "YRGBPR", "RGBPYG", "GBPYRB",
	};
	struct ref_request rq;
	char out[16384];
	request_init(&rq, rows, 12);
	rq.npairs = 1;
	rq.pairs[0][0] = 'R';
	rq.pairs[0][1] = 'G';
	/* every column has only the hidden cell free: horizontal pairs only */
	assert_int_equal(ref_search(&rq, out, sizeof out), 0);
	assert_prefix(out, "fires_now none\nexamined 10\n");
	rq.field[0][0] = 'Y';
	rq.field[0][1] = 'Y';
	rq.field[0][2] = 'Y';
	rq.field[0][3] = 'Y';
	rq.field[0][4] = 'Y';
	rq.field[0][5] = 'Y';
	/* the hidden row never pops: the field is full and nothing fits */
	assert_int_equal(ref_search(&rq, out, sizeof out), 0);
	assert_string_equal(out, "fires_now none\nexamined 0\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(reference_should_score_as_the_simulator_on_random_fields),
	    cmocka_unit_test(reference_should_find_the_triggers_of_three_reds),
	    cmocka_unit_test(reference_should_rank_the_two_chain_placements_first),
	    cmocka_unit_test(reference_should_settle_and_fire_the_field_first),
	    cmocka_unit_test(reference_should_refuse_placements_above_the_13th_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
