/*
 * Unit tests of the Puyo search (issue 47, src/core/puyo_search.c): the
 * straightforward reference of tests/bench/puyo_search_ref.c held to the
 * simulator's chains and score on random fields; examples of triggers and
 * sequences computed by hand from the rules (the same ones the README
 * shows), run on both; then the fast search held to the reference, as the
 * same canonical text, on thousands of random requests: garbage, the hidden
 * row, near-full columns, same-colour pairs, 0 to 3 pairs, every add, limit
 * and set of colours.
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
#include "dropjudge/puyo_search.h"

#include "../bench/puyo_search_ref.c"
#include "../bench/puyo_search_text.h"

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

/* ---- the fast search against the reference ---------------------------- */

/* The reference's request as the fast search's. */
static void request_fast(const struct ref_request *rq, struct puyo_search_request *req)
{
	memset(req, 0, sizeof *req);
	bool hidden = false;
	for (unsigned c = 0; c < REF_COLS; c++)
		hidden |= rq->field[0][c] != '.';
	/* a 12-row field when the hidden row is empty: the search tops it with one */
	unsigned rows = hidden || (rq->add & 1) ? 13 : 12;
	puyo_field_init(&req->field, rows);
	for (unsigned r = 0; r < rows; r++)
		for (unsigned c = 0; c < REF_COLS; c++)
			req->field.cell[r][c] =
			    (uint8_t)puyo_cell_from_char(rq->field[r + REF_ROWS - rows][c]);
	req->add = (unsigned)rq->add;
	req->pairs = (unsigned)rq->npairs;
	for (int i = 0; i < rq->npairs; i++)
		for (int j = 0; j < 2; j++)
			req->pair[i][j] = (uint8_t)puyo_cell_from_char(rq->pairs[i][j]);
	req->limit = (unsigned)rq->limit;
	for (const char *x = rq->colors; *x; x++)
		req->colors |= 1u << (puyo_cell_from_char(*x) - 1);
}

/* Runs both searches on rq; fails the test, with both texts, if they differ. */
static void expect_same(const struct ref_request *rq, unsigned i)
{
	static char want[1 << 15], got[1 << 15];
	static struct puyo_search_answer ans;
	struct puyo_search_request req;
	assert_int_equal(ref_search(rq, want, sizeof want), 0);
	request_fast(rq, &req);
	assert_int_equal(puyo_search(&req, &ans), 0);
	answer_text(&req, &ans, got, sizeof got);
	if (strcmp(want, got) != 0) {
		print_message("case %u: pairs %d add %d limit %d colors %s\nfield:\n", i,
			      rq->npairs, rq->add, rq->limit, rq->colors);
		for (unsigned r = 0; r < REF_ROWS; r++)
			print_message("%.6s\n", rq->field[r]);
		print_message("reference:\n%s\nfast:\n%s\n", want, got);
		fail();
	}
}

/*
 * A random request of `pairs` pairs: fields of any content (floating,
 * garbage), settled stacks, near-full columns, with or without the hidden
 * row; pairs of one colour one time in four.
 */
static void random_request(struct ref_request *rq, uint64_t *s, int pairs)
{
	memset(rq, 0, sizeof *rq);
	bool hidden = rng_below(s, 3) == 0;
	unsigned kind = rng_below(s, 3);
	if (kind == 0) {
		random_grid(rq->field, s, hidden);
	} else {
		unsigned colors = 2 + rng_below(s, 4), garbage = rng_below(s, 3) * 5;
		memset(rq->field, '.', sizeof rq->field);
		for (unsigned c = 0; c < REF_COLS; c++) {
			unsigned h = kind == 1 ? rng_below(s, 13) : 10 + rng_below(s, 4);
			if (!hidden && h > 12)
				h = 12;
			for (unsigned i = 0; i < h; i++)
				rq->field[REF_ROWS - 1 - i][c] =
				    rng_below(s, 100) < garbage
					? 'O'
					: ref_color_order[rng_below(s, colors)];
		}
	}
	rq->add = 1 + (int)rng_below(s, 4);
	rq->limit = rng_below(s, 4) == 0 ? 100 : 1 + (int)rng_below(s, 12);
	rq->npairs = pairs;
	for (int i = 0; i < pairs; i++) {
		rq->pairs[i][0] = ref_color_order[rng_below(s, 4)];
		rq->pairs[i][1] =
		    rng_below(s, 4) == 0 ? rq->pairs[i][0] : ref_color_order[rng_below(s, 4)];
	}
	unsigned set = rng_below(s, 2) ? 0x1F : 1 + rng_below(s, 31);
	size_t n = 0;
	for (unsigned v = 0; v < 5; v++)
		if (set >> v & 1)
			rq->colors[n++] = ref_color_order[v];
}

static void search_should_equal_the_reference_on_examples(void **state)
{
	(void)state;
	static const char *const three[] = {"RRR..."};
	static const char *const two[] = {"G.....", "R.....", "R.....", "RG....", "GG...."};
	struct ref_request rq;
	request_init(&rq, three, 1);
	expect_same(&rq, 0);
	request_init(&rq, two, 5);
	rq.npairs = 1;
	rq.pairs[0][0] = 'R';
	rq.pairs[0][1] = 'B';
	expect_same(&rq, 1);
	rq.npairs = 2;
	rq.pairs[1][0] = 'G';
	rq.pairs[1][1] = 'G';
	rq.limit = 100;
	expect_same(&rq, 2);
}

static void search_should_equal_the_reference_without_pairs(void **state)
{
	(void)state;
	uint64_t s = 4700;
	unsigned n = test_cases(3000, 100000);
	struct ref_request rq;
	for (unsigned i = 0; i < n; i++) {
		random_request(&rq, &s, 0);
		expect_same(&rq, i);
	}
}

static void search_should_equal_the_reference_with_one_pair(void **state)
{
	(void)state;
	uint64_t s = 4701;
	unsigned n = test_cases(2000, 50000);
	struct ref_request rq;
	for (unsigned i = 0; i < n; i++) {
		random_request(&rq, &s, 1);
		expect_same(&rq, i);
	}
}

static void search_should_equal_the_reference_with_two_pairs(void **state)
{
	(void)state;
	uint64_t s = 4702;
	unsigned n = test_cases(150, 5000);
	struct ref_request rq;
	for (unsigned i = 0; i < n; i++) {
		random_request(&rq, &s, 2);
		expect_same(&rq, i);
	}
}

static void search_should_equal_the_reference_with_three_pairs(void **state)
{
	(void)state;
	uint64_t s = 4703;
	unsigned n = test_cases(4, 200);
	struct ref_request rq;
	for (unsigned i = 0; i < n; i++) {
		random_request(&rq, &s, 3);
		expect_same(&rq, i);
	}
}

static void search_should_refuse_requests_out_of_range(void **state)
{
	(void)state;
	static struct puyo_search_answer ans;
	struct puyo_search_request ok, req;
	memset(&ok, 0, sizeof ok);
	puyo_field_init(&ok.field, 12);
	ok.add = 3;
	ok.limit = 10;
	ok.colors = PUYO_SEARCH_ALL_COLORS;
	assert_int_equal(puyo_search(&ok, &ans), 0);
	req = ok, req.add = 0;
	assert_int_equal(puyo_search(&req, &ans), -1);
	req = ok, req.add = 5;
	assert_int_equal(puyo_search(&req, &ans), -1);
	req = ok, req.limit = 0;
	assert_int_equal(puyo_search(&req, &ans), -1);
	req = ok, req.limit = 101;
	assert_int_equal(puyo_search(&req, &ans), -1);
	req = ok, req.pairs = 4;
	assert_int_equal(puyo_search(&req, &ans), -1);
	req = ok, req.pairs = 1, req.pair[0][0] = PUYO_GARBAGE, req.pair[0][1] = PUYO_RED;
	assert_int_equal(puyo_search(&req, &ans), -1);
	req = ok, req.colors = 0x20;
	assert_int_equal(puyo_search(&req, &ans), -1);
	req = ok, req.field.cell[3][3] = 7;
	assert_int_equal(puyo_search(&req, &ans), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(reference_should_score_as_the_simulator_on_random_fields),
	    cmocka_unit_test(reference_should_find_the_triggers_of_three_reds),
	    cmocka_unit_test(reference_should_rank_the_two_chain_placements_first),
	    cmocka_unit_test(reference_should_settle_and_fire_the_field_first),
	    cmocka_unit_test(reference_should_refuse_placements_above_the_13th_row),
	    cmocka_unit_test(search_should_equal_the_reference_on_examples),
	    cmocka_unit_test(search_should_equal_the_reference_without_pairs),
	    cmocka_unit_test(search_should_equal_the_reference_with_one_pair),
	    cmocka_unit_test(search_should_equal_the_reference_with_two_pairs),
	    cmocka_unit_test(search_should_equal_the_reference_with_three_pairs),
	    cmocka_unit_test(search_should_refuse_requests_out_of_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
