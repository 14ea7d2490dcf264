/*
 * Unit tests of the Monomino-Domino core (md.h).
 *
 * Answers are checked against the problem statement (the public examples),
 * against boards worked out by hand for each rule, and against a naive
 * reference simulator written below straight from the rules: 2D character
 * boards, the block slid one cell at a time out of red, full lines found
 * and removed one by one, the light area emptied one floor line at a time.
 * It shares nothing with md.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu.h"
#include "core/md_lanes.h"
#include "dropjudge/md.h"

/* ---- the reference simulator ---------------------------------------- */

/*
 * Green side: rows 0..3 are red, rows 4..9 are green rows 0..5, 4 columns.
 * Blue side: columns 0..3 are red, columns 4..9 are blue columns 0..5,
 * 4 rows. Red never holds a tile.
 */
struct ref_game {
	char green[10][4];
	char blue[4][10];
	unsigned long score;
};

static void ref_init(struct ref_game *g)
{
	memset(g->green, '.', sizeof g->green);
	memset(g->blue, '.', sizeof g->blue);
	g->score = 0;
}

/* The block's cells in red, as the problem lists them. */
static int ref_cells(int t, int x, int y, int cx[2], int cy[2])
{
	cx[0] = x;
	cy[0] = y;
	if (t == 1)
		return 1;
	cx[1] = t == 2 ? x : x + 1;
	cy[1] = t == 2 ? y + 1 : y;
	return 2;
}

static bool ref_green_free(const struct ref_game *g, int n, const int row[2], const int col[2])
{
	for (int i = 0; i < n; i++)
		if (row[i] > 9 || g->green[row[i]][col[i]] != '.')
			return false;
	return true;
}

static bool ref_blue_free(const struct ref_game *g, int n, const int row[2], const int col[2])
{
	for (int i = 0; i < n; i++)
		if (col[i] > 9 || g->blue[row[i]][col[i]] != '.')
			return false;
	return true;
}

static bool ref_green_row_full(const struct ref_game *g, int r)
{
	for (int c = 0; c < 4; c++)
		if (g->green[4 + r][c] != '#')
			return false;
	return true;
}

static bool ref_green_row_used(const struct ref_game *g, int r)
{
	for (int c = 0; c < 4; c++)
		if (g->green[4 + r][c] == '#')
			return true;
	return false;
}

/* Removes green row r; the rows above move down one. */
static void ref_green_remove(struct ref_game *g, int r)
{
	for (int i = 4 + r; i > 4; i--)
		memcpy(g->green[i], g->green[i - 1], 4);
	memset(g->green[4], '.', 4);
}

static bool ref_blue_col_full(const struct ref_game *g, int c)
{
	for (int r = 0; r < 4; r++)
		if (g->blue[r][4 + c] != '#')
			return false;
	return true;
}

static bool ref_blue_col_used(const struct ref_game *g, int c)
{
	for (int r = 0; r < 4; r++)
		if (g->blue[r][4 + c] == '#')
			return true;
	return false;
}

/* Removes blue column c; the columns left of it move right one. */
static void ref_blue_remove(struct ref_game *g, int c)
{
	for (int r = 0; r < 4; r++) {
		for (int i = 4 + c; i > 4; i--)
			g->blue[r][i] = g->blue[r][i - 1];
		g->blue[r][4] = '.';
	}
}

/* Places a block; returns the points it scored. */
static unsigned ref_place(struct ref_game *g, int t, int x, int y)
{
	int cx[2], cy[2], row[2], col[2];
	int n = ref_cells(t, x, y, cx, cy);
	unsigned points = 0;

	/* Green: slide down from red while the next step is free. */
	for (int i = 0; i < n; i++) {
		row[i] = cx[i];
		col[i] = cy[i];
	}
	for (;;) {
		int next[2] = {row[0] + 1, n > 1 ? row[1] + 1 : 0};
		if (!ref_green_free(g, n, next, col))
			break;
		row[0] = next[0];
		row[1] = next[1];
	}
	for (int i = 0; i < n; i++)
		g->green[row[i]][col[i]] = '#';

	/* Blue: slide right from red. */
	for (int i = 0; i < n; i++) {
		row[i] = cx[i];
		col[i] = cy[i];
	}
	for (;;) {
		int next[2] = {col[0] + 1, n > 1 ? col[1] + 1 : 0};
		if (!ref_blue_free(g, n, row, next))
			break;
		col[0] = next[0];
		col[1] = next[1];
	}
	for (int i = 0; i < n; i++)
		g->blue[row[i]][col[i]] = '#';

	/* Scoring until no full row or column remains. */
	for (bool again = true; again;) {
		again = false;
		for (int r = 0; r < 6; r++) {
			if (ref_green_row_full(g, r)) {
				ref_green_remove(g, r);
				points++;
				again = true;
			}
		}
		for (int c = 0; c < 6; c++) {
			if (ref_blue_col_full(g, c)) {
				ref_blue_remove(g, c);
				points++;
				again = true;
			}
		}
	}

	/* Then the light areas. */
	int k = ref_green_row_used(g, 0) + ref_green_row_used(g, 1);
	for (int i = 0; i < k; i++)
		ref_green_remove(g, 5);
	k = ref_blue_col_used(g, 0) + ref_blue_col_used(g, 1);
	for (int i = 0; i < k; i++)
		ref_blue_remove(g, 5);

	g->score += points;
	return points;
}

static unsigned ref_tiles(const struct ref_game *g)
{
	unsigned n = 0;
	for (int r = 0; r < 6; r++)
		for (int c = 0; c < 4; c++)
			n += g->green[4 + r][c] == '#';
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 6; c++)
			n += g->blue[r][4 + c] == '#';
	return n;
}

/* ---- helpers -------------------------------------------------------- */

/* Whether green (row 0..5, col 0..3) holds a tile: bit 4 * row + col. */
static bool green_has(const struct md_game *g, unsigned row, unsigned col)
{
	return row < MD_GREEN_ROWS && col < MD_GREEN_COLS && ((g->green >> (4 * row + col)) & 1u);
}

/* Whether blue (row 0..3, col 0..5) holds a tile: bit 4 * col + row. */
static bool blue_has(const struct md_game *g, unsigned row, unsigned col)
{
	return row < MD_BLUE_ROWS && col < MD_BLUE_COLS && ((g->blue >> (4 * col + row)) & 1u);
}

/* A tiny deterministic PRNG (xorshift64*) for the random tests. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static unsigned rng_below(uint64_t *s, unsigned n)
{
	return (unsigned)(rng_next(s) % n);
}

/* A random legal block. */
static struct md_block random_block(uint64_t *s)
{
	struct md_block b;
	b.t = (uint8_t)(1 + rng_below(s, 3));
	b.x = (uint8_t)rng_below(s, b.t == MD_TYPE_DOMINO_V ? 3 : 4);
	b.y = (uint8_t)rng_below(s, b.t == MD_TYPE_DOMINO_H ? 3 : 4);
	return b;
}

static struct md_block blk(int t, int x, int y)
{
	struct md_block b = {(uint8_t)t, (uint8_t)x, (uint8_t)y};
	return b;
}

static void play(struct md_game *g, const int (*moves)[3], size_t n)
{
	md_init(g);
	for (size_t i = 0; i < n; i++)
		md_place(g, blk(moves[i][0], moves[i][1], moves[i][2]));
}

/* Checks both boards cell by cell against hand-written rows. */
static void assert_boards(const struct md_game *g, const char *const green[6],
			  const char *const blue[4])
{
	char row[8];
	for (unsigned r = 0; r < 6; r++) {
		for (unsigned c = 0; c < 4; c++)
			row[c] = green_has(g, r, c) ? '#' : '.';
		row[4] = '\0';
		assert_string_equal(row, green[r]);
	}
	for (unsigned r = 0; r < 4; r++) {
		for (unsigned c = 0; c < 6; c++)
			row[c] = blue_has(g, r, c) ? '#' : '.';
		row[6] = '\0';
		assert_string_equal(row, blue[r]);
	}
}

static void assert_same_as_ref(const struct md_game *g, const struct ref_game *ref)
{
	for (unsigned r = 0; r < 6; r++)
		for (unsigned c = 0; c < 4; c++)
			assert_int_equal(green_has(g, r, c), ref->green[4 + r][c] == '#');
	for (unsigned r = 0; r < 4; r++)
		for (unsigned c = 0; c < 6; c++)
			assert_int_equal(blue_has(g, r, c), ref->blue[r][4 + c] == '#');
	assert_int_equal(g->score, ref->score);
	assert_int_equal(md_tiles(g), ref_tiles(ref));
}

/* ---- the public examples ---------------------------------------------- */

static const int public_moves[8][3] = {
    {1, 1, 1}, {2, 3, 0}, {3, 2, 2}, {3, 2, 3}, {3, 1, 3}, {2, 0, 0}, {3, 2, 0}, {3, 1, 2},
};

static void md_should_answer_all_seven_public_examples(void **state)
{
	(void)state;
	static const struct {
		size_t n;
		unsigned long score;
		unsigned tiles;
	} examples[] = {
	    {1, 0, 2}, {2, 0, 6}, {4, 1, 10}, {5, 1, 12}, {6, 1, 16}, {7, 1, 18}, {8, 2, 15},
	};
	for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
		struct md_game g;
		play(&g, public_moves, examples[i].n);
		assert_int_equal(g.score, examples[i].score);
		assert_int_equal(md_tiles(&g), examples[i].tiles);
		assert_int_equal(g.moves, examples[i].n);
	}
}

static void md_should_leave_the_boards_of_example_7_as_worked_out_by_hand(void **state)
{
	(void)state;
	static const char *const green[6] = {"....", "....", "....", "#...", "#.##", ".###"};
	static const char *const blue[4] = {"......", "..#.#.", "..####", "...#.#"};
	struct md_game g;
	play(&g, public_moves, 8);
	assert_boards(&g, green, blue);
}

static void md_should_score_4_and_leave_12_tiles_on_the_longer_case(void **state)
{
	(void)state;
	static const int moves[8][3] = {
	    {3, 0, 0}, {3, 0, 1}, {3, 0, 2}, {3, 0, 3}, {2, 0, 0}, {2, 1, 0}, {2, 2, 0}, {2, 3, 0},
	};
	static const char *const green[6] = {"....", "....", "##..", "##..", "##..", "##.."};
	static const char *const blue[4] = {"....##", "....##", "......", "......"};
	struct md_game g;
	play(&g, moves, 8);
	assert_int_equal(g.score, 4);
	assert_int_equal(md_tiles(&g), 12);
	assert_boards(&g, green, blue);
}

/* ---- each rule, boards by hand --------------------------------------- */

static void md_should_drop_a_monomino_to_the_floor_of_both_boards(void **state)
{
	(void)state;
	static const char *const green[6] = {"....", "....", "....", "....", "....", ".#.."};
	static const char *const blue[4] = {"......", ".....#", "......", "......"};
	struct md_game g;
	md_init(&g);
	assert_int_equal(md_place(&g, blk(1, 1, 1)), 0);
	assert_boards(&g, green, blue);
	assert_int_equal(md_tiles(&g), 2);
}

static void md_should_clear_a_full_row(void **state)
{
	(void)state;
	static const int moves[1][3] = {{2, 0, 0}};
	static const char *const green[6] = {"....", "....", "....", "....", "....", "...."};
	static const char *const blue[4] = {"..####", "......", "......", "......"};
	struct md_game g;
	play(&g, moves, 1);
	assert_int_equal(md_place(&g, blk(2, 0, 2)), 1);
	assert_int_equal(g.score, 1);
	assert_int_equal(md_tiles(&g), 4);
	assert_boards(&g, green, blue);
}

static void md_should_clear_a_full_column(void **state)
{
	(void)state;
	static const int moves[1][3] = {{3, 0, 0}};
	static const char *const green[6] = {"....", "....", "#...", "#...", "#...", "#..."};
	static const char *const blue[4] = {"......", "......", "......", "......"};
	struct md_game g;
	play(&g, moves, 1);
	assert_int_equal(md_place(&g, blk(3, 2, 0)), 1);
	assert_int_equal(g.score, 1);
	assert_int_equal(md_tiles(&g), 4);
	assert_boards(&g, green, blue);
}

static void md_should_clear_two_rows_at_once(void **state)
{
	(void)state;
	static const int moves[3][3] = {{3, 0, 0}, {3, 0, 1}, {3, 0, 2}};
	static const char *const green[6] = {"....", "....", "....", "....", "....", "...."};
	static const char *const blue[4] = {"..####", "..####", "......", "......"};
	struct md_game g;
	play(&g, moves, 3);
	assert_int_equal(g.score, 0);
	assert_int_equal(md_place(&g, blk(3, 0, 3)), 2);
	assert_int_equal(g.score, 2);
	assert_int_equal(md_tiles(&g), 8);
	assert_boards(&g, green, blue);
}

static void md_should_clear_two_columns_at_once(void **state)
{
	(void)state;
	static const int moves[3][3] = {{2, 0, 0}, {2, 1, 0}, {2, 2, 0}};
	static const char *const green[6] = {"....", "....", "##..", "##..", "##..", "##.."};
	static const char *const blue[4] = {"......", "......", "......", "......"};
	struct md_game g;
	play(&g, moves, 3);
	assert_int_equal(md_place(&g, blk(2, 3, 0)), 2);
	assert_int_equal(g.score, 2);
	assert_int_equal(md_tiles(&g), 8);
	assert_boards(&g, green, blue);
}

static void md_should_drop_one_floor_row_when_one_light_row_is_used(void **state)
{
	(void)state;
	static const int moves[2][3] = {{3, 0, 0}, {3, 0, 0}};
	/* before the monomino: column 0 rows 2..5; it lands in row 1 */
	static const char *const green[6] = {"....", "....", "#...", "#...", "#...", "#..."};
	static const char *const blue[4] = {"...###", "....##", "......", "......"};
	struct md_game g;
	play(&g, moves, 2);
	assert_int_equal(md_place(&g, blk(1, 0, 0)), 0);
	assert_int_equal(g.score, 0);
	assert_int_equal(md_tiles(&g), 9);
	assert_boards(&g, green, blue);
}

static void md_should_drop_two_floor_rows_when_both_light_rows_are_used(void **state)
{
	(void)state;
	static const int moves[3][3] = {{3, 0, 0}, {3, 0, 0}, {3, 0, 0}};
	/* column 0 is full to row 0 before the light area: rows 4 and 5 go */
	static const char *const green[6] = {"....", "....", "#...", "#...", "#...", "#..."};
	static const char *const blue[4] = {"...###", "...###", "......", "......"};
	struct md_game g;
	play(&g, moves, 3);
	assert_int_equal(g.score, 0);
	assert_int_equal(md_tiles(&g), 10);
	assert_boards(&g, green, blue);
}

static void md_should_drop_blue_floor_columns_for_its_light_columns(void **state)
{
	(void)state;
	/* one light column: the third monomino in row 0 lands in column 1 */
	static const int one[3][3] = {{2, 0, 0}, {2, 0, 0}, {1, 0, 0}};
	static const char *const green1[6] = {"....", "....", "....", "#...", "##..", "##.."};
	static const char *const blue1[4] = {"..####", "......", "......", "......"};
	/* two light columns: the third domino fills columns 0 and 1 */
	static const int two[3][3] = {{2, 0, 0}, {2, 0, 0}, {2, 0, 0}};
	static const char *const green2[6] = {"....", "....", "....", "##..", "##..", "##.."};
	static const char *const blue2[4] = {"..####", "......", "......", "......"};
	struct md_game g;
	play(&g, one, 3);
	assert_int_equal(g.score, 0);
	assert_boards(&g, green1, blue1);
	assert_int_equal(md_tiles(&g), 9);
	play(&g, two, 3);
	assert_int_equal(g.score, 0);
	assert_boards(&g, green2, blue2);
	assert_int_equal(md_tiles(&g), 10);
}

/*
 * The last vertical domino lands in rows 1-2 of column 1 and fills row 2.
 * Scoring comes first: row 2 goes, the domino's top tile moves down to row
 * 2 and the light rows are empty again, so the floor row stays. (Were the
 * light area handled first, row 1 would cost the floor row "#...".)
 */
static void md_should_score_before_emptying_the_light_area(void **state)
{
	(void)state;
	static const int moves[5][3] = {{1, 0, 0}, {2, 0, 0}, {2, 0, 1}, {2, 0, 2}, {3, 0, 0}};
	static const char *const before[6] = {"....", "....", "#.##", "###.", "##..", "#..."};
	static const char *const blue_before[4] = {"..####", "..#...", "......", "......"};
	static const char *const green[6] = {"....", "....", ".#..", "###.", "##..", "#..."};
	static const char *const blue[4] = {"..####", "..##..", "......", "......"};
	struct md_game g;
	play(&g, moves, 5);
	assert_boards(&g, before, blue_before);
	assert_int_equal(md_place(&g, blk(3, 0, 1)), 1);
	assert_int_equal(g.score, 1);
	assert_int_equal(md_tiles(&g), 13);
	assert_boards(&g, green, blue);
}

static void md_should_stop_a_domino_on_its_first_blocked_cell(void **state)
{
	(void)state;
	/* a horizontal domino rests on the higher of its two columns */
	static const int moves[2][3] = {{3, 0, 1}, {2, 0, 0}};
	static const char *const green[6] = {"....", "....", "....", "##..", ".#..", ".#.."};
	static const char *const blue[4] = {"...###", ".....#", "......", "......"};
	struct md_game g;
	play(&g, moves, 2);
	assert_boards(&g, green, blue);
	assert_int_equal(md_tiles(&g), 8);
}

/* ---- blue mirrors green ----------------------------------------------- */

/* The same block seen across the red board's diagonal. */
static struct md_block transpose(struct md_block b)
{
	struct md_block m = {b.t, b.y, b.x};
	if (b.t == MD_TYPE_DOMINO_H)
		m.t = MD_TYPE_DOMINO_V;
	else if (b.t == MD_TYPE_DOMINO_V)
		m.t = MD_TYPE_DOMINO_H;
	return m;
}

static void md_should_play_blue_as_the_mirror_of_green(void **state)
{
	(void)state;
	uint64_t seed = 0x9E3779B97F4A7C15ULL;
	for (int game = 0; game < 500; game++) {
		struct md_game a, b;
		md_init(&a);
		md_init(&b);
		int n = 1 + (int)rng_below(&seed, 80);
		for (int i = 0; i < n; i++) {
			struct md_block blkv = random_block(&seed);
			assert_int_equal(md_place(&a, blkv), md_place(&b, transpose(blkv)));
			for (unsigned r = 0; r < 6; r++) {
				for (unsigned c = 0; c < 4; c++) {
					assert_int_equal(green_has(&a, r, c), blue_has(&b, c, r));
					assert_int_equal(blue_has(&a, c, r), green_has(&b, r, c));
				}
			}
		}
		assert_int_equal(a.score, b.score);
		assert_int_equal(md_tiles(&a), md_tiles(&b));
	}
}

/* ---- against the reference, and properties ---------------------------- */

/*
 * How many random cases a differential test runs: `sample` in `make test`,
 * `full` under `make test-long` (DROPJUDGE_TEST_LONG=1 in the environment).
 */
static long test_cases(long sample, long full)
{
	const char *v = getenv("DROPJUDGE_TEST_LONG");
	return v && strcmp(v, "1") == 0 ? full : sample;
}

static void md_should_agree_with_the_reference_on_random_games(void **state)
{
	(void)state;
	uint64_t seed = 20061;
	long games = test_cases(5000, 1000000);
	for (long game = 0; game < games; game++) {
		struct md_game g;
		struct ref_game ref;
		md_init(&g);
		ref_init(&ref);
		int n = 1 + (int)rng_below(&seed, 100);
		uint64_t last_score = 0;
		for (int i = 0; i < n; i++) {
			struct md_block b = random_block(&seed);
			unsigned got = md_place(&g, b);
			unsigned want = ref_place(&ref, b.t, b.x, b.y);
			assert_int_equal(got, want);
			assert_same_as_ref(&g, &ref);
			/* properties */
			assert_true(md_tiles(&g) <= 48);
			assert_true(g.score >= last_score);
			assert_int_equal(g.score, last_score + got);
			last_score = g.score;
			for (unsigned k = 0; k < MD_LIGHT_LINES; k++) {
				for (unsigned c = 0; c < 4; c++)
					assert_false(green_has(&g, k, c));
				for (unsigned r = 0; r < 4; r++)
					assert_false(blue_has(&g, r, k));
			}
			assert_int_equal(g.moves, (uint64_t)i + 1);
		}
	}
}

static void md_should_agree_with_the_reference_on_long_games(void **state)
{
	(void)state;
	uint64_t seed = 42;
	for (int game = 0; game < 20; game++) {
		struct md_game g;
		struct ref_game ref;
		md_init(&g);
		ref_init(&ref);
		for (int i = 0; i < 10000; i++) {
			struct md_block b = random_block(&seed);
			md_place(&g, b);
			ref_place(&ref, b.t, b.x, b.y);
		}
		assert_same_as_ref(&g, &ref);
		assert_int_equal(g.moves, 10000);
	}
}

/*
 * Plays blocks[0..n) with md_play() from g, with the AVX2 lanes and with
 * the portable ones, and one md_place() at a time from a copy; all must
 * end the same, and return the points. The blocks
 * are copied to an allocation of exactly n blocks, so that a read past the
 * last one is caught under AddressSanitizer.
 */
static void assert_play_like_place(const struct md_game *g, const struct md_block *blocks, size_t n)
{
	struct md_block *exact = malloc(n ? n * sizeof *exact : 1);
	assert_non_null(exact);
	if (n)
		memcpy(exact, blocks, n * sizeof *exact);
	struct md_game a = *g;
	uint64_t points = 0;
	for (size_t i = 0; i < n; i++)
		points += md_place(&a, blocks[i]);
	/* with the AVX2 lanes (where this processor has them), then without */
	bool avx2 = cpu_switch_on(&md_avx2);
	for (int pass = 0; pass < (avx2 ? 2 : 1); pass++) {
		cpu_switch_set(&md_avx2, pass == 0);
		struct md_game b = *g;
		assert_int_equal(md_play(&b, exact, n), points);
		assert_memory_equal(&a, &b, sizeof a);
	}
	cpu_switch_set(&md_avx2, true);
	free(exact);
}

static void md_play_should_end_as_md_place_one_block_after_another(void **state)
{
	(void)state;
	static struct md_block blocks[20000];
	uint64_t seed = 9;
	long runs = test_cases(300, 20000);
	for (long run = 0; run < runs; run++) {
		/* lengths around the lane cut-offs (64 blocks a lane after 32 of
		 * warm-up: 288 blocks for 4 lanes, 1056 for 16), and long ones */
		size_t n = run % 4 == 1 ? 1900 + (size_t)rng_below(&seed, 300)
					: (size_t)rng_below(&seed, run % 4 == 0 ? 20000 : 1200);
		for (size_t i = 0; i < n; i++)
			blocks[i] = random_block(&seed);
		/* from an empty game and from the middle of one */
		struct md_game g;
		md_init(&g);
		assert_play_like_place(&g, blocks, n);
		for (int i = 0; i < 37; i++)
			md_place(&g, random_block(&seed));
		assert_play_like_place(&g, blocks, n);
	}
}

static void md_avx2_should_be_off_when_turned_off(void **state)
{
	(void)state;
	bool on = cpu_switch_on(&md_avx2);
	print_message("AVX2 lanes %s here\n", on ? "on" : "off");
#if !DROPJUDGE_SIMD
	assert_false(on); /* a SIMD=0 build never takes them */
#endif
	cpu_switch_set(&md_avx2, false);
	assert_false(cpu_switch_on(&md_avx2));
	cpu_switch_set(&md_avx2, true);
	assert_int_equal(cpu_switch_on(&md_avx2), on);
}

static void md_play_should_agree_when_stretches_never_meet_their_guess(void **state)
{
	(void)state;
	/*
	 * Repeating patterns keep boards apart for long: the same block again
	 * and again, and two alternating. Whatever the lanes guess, the
	 * answer must be that of md_place().
	 */
	static struct md_block blocks[4096];
	for (unsigned t = 1; t <= 3; t++) {
		for (unsigned x = 0; x < 4; x++) {
			for (unsigned y = 0; y < 4; y++) {
				if (md_check(t, x, y) != MD_FAULT_NONE)
					continue;
				struct md_block one = {(uint8_t)t, (uint8_t)x, (uint8_t)y};
				struct md_block two = {MD_TYPE_MONO, (uint8_t)(3 - x),
						       (uint8_t)(3 - y)};
				for (size_t i = 0; i < 4096; i++)
					blocks[i] = i % 2 ? two : one;
				struct md_game g;
				md_init(&g);
				assert_play_like_place(&g, blocks, 4096);
				for (size_t i = 0; i < 4096; i++)
					blocks[i] = one;
				assert_play_like_place(&g, blocks, 4096);
			}
		}
	}
}

/* Whether the games a and b are still apart after `steps` rounds of
 * pattern[0..len). */
static bool stays_apart(struct md_game a, struct md_game b, const struct md_block *pattern,
			size_t len, size_t steps)
{
	for (size_t i = 0; i < steps; i++) {
		md_place(&a, pattern[i % len]);
		md_place(&b, pattern[i % len]);
	}
	return a.green != b.green || a.blue != b.blue;
}

static void md_play_should_agree_when_guessed_boards_never_meet_the_real_ones(void **state)
{
	(void)state;
	/*
	 * Short repeating patterns found by search for which a game from empty
	 * boards and one from other boards are still apart after 400 blocks:
	 * each lane's guess then never meets the real boards, and the lane
	 * must be replayed, and the lanes after it from its real boards. The
	 * search must find some, or this test would test nothing.
	 */
	static struct md_block blocks[8192];
	uint64_t seed = 77;
	unsigned found = 0;
	for (unsigned tries = 0; tries < 20000 && found < 12; tries++) {
		struct md_block pattern[6];
		size_t len = 2 + (size_t)rng_below(&seed, 5);
		for (size_t i = 0; i < len; i++)
			pattern[i] = random_block(&seed);
		struct md_game from_empty, other;
		md_init(&from_empty);
		md_init(&other);
		for (int i = 0; i < 9; i++)
			md_place(&other, random_block(&seed));
		if (!stays_apart(from_empty, other, pattern, len, 400))
			continue;
		found++;
		size_t n = 4096 + (size_t)rng_below(&seed, 4096);
		for (size_t i = 0; i < n; i++)
			blocks[i] = pattern[i % len];
		/* the lanes cut the pattern at every phase: from both games */
		assert_play_like_place(&from_empty, blocks, n);
		assert_play_like_place(&other, blocks, n);
	}
	assert_true(found >= 12);
}

/* ---- md_check, accessors ------------------------------------------- */

static void md_should_check_placements_in_the_order_t_x_y(void **state)
{
	(void)state;
	static const struct {
		long long t, x, y;
		enum md_fault want;
	} cases[] = {
	    {1, 0, 0, MD_FAULT_NONE},
	    {1, 3, 3, MD_FAULT_NONE},
	    {2, 3, 2, MD_FAULT_NONE},
	    {3, 2, 3, MD_FAULT_NONE},
	    {0, 0, 0, MD_FAULT_TYPE},
	    {4, 0, 0, MD_FAULT_TYPE},
	    {-1, 9, 9, MD_FAULT_TYPE},
	    {LLONG_MAX, 0, 0, MD_FAULT_TYPE},
	    {LLONG_MIN, 0, 0, MD_FAULT_TYPE},
	    {1, 4, 0, MD_FAULT_X},
	    {1, -1, 0, MD_FAULT_X},
	    {1, 4, 4, MD_FAULT_X},
	    {3, 3, 0, MD_FAULT_X},
	    {2, 3, 0, MD_FAULT_NONE},
	    {1, 0, 4, MD_FAULT_Y},
	    {1, 0, -1, MD_FAULT_Y},
	    {2, 0, 3, MD_FAULT_Y},
	    {3, 0, 3, MD_FAULT_NONE},
	    {1, LLONG_MAX, 0, MD_FAULT_X},
	    {1, 0, LLONG_MIN, MD_FAULT_Y},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum md_fault got = md_check(cases[i].t, cases[i].x, cases[i].y);
		if (got != cases[i].want)
			fail_msg("md_check(%lld, %lld, %lld) = %d, want %d", cases[i].t, cases[i].x,
				 cases[i].y, (int)got, (int)cases[i].want);
	}
	/* every cell of every legal block is inside red, and only those pass */
	for (long long t = 0; t <= 4; t++) {
		for (long long x = -2; x <= 5; x++) {
			for (long long y = -2; y <= 5; y++) {
				bool inside = t >= 1 && t <= 3 && x >= 0 && y >= 0 &&
					      x + (t == 3) <= 3 && y + (t == 2) <= 3;
				assert_int_equal(md_check(t, x, y) == MD_FAULT_NONE, inside);
			}
		}
	}
}

static void md_should_start_empty_and_answer_false_outside_the_boards(void **state)
{
	(void)state;
	struct md_game g;
	memset(&g, 0xff, sizeof g);
	md_init(&g);
	assert_int_equal(g.score, 0);
	assert_int_equal(g.moves, 0);
	assert_int_equal(md_tiles(&g), 0);
	g.green = 0xFFFFFF;
	g.blue = 0xFFFFFF;
	assert_true(green_has(&g, 5, 3));
	assert_true(blue_has(&g, 3, 5));
	assert_false(green_has(&g, 6, 0));
	assert_false(green_has(&g, 0, 4));
	assert_false(blue_has(&g, 4, 0));
	assert_false(blue_has(&g, 0, 6));
	assert_int_equal(md_tiles(&g), 48);
}

/* The rows of both boards as bits: green_has() and blue_has() of each
 * cell, on random boards, every one-tile board and every pattern of half
 * a board. */
static void md_rows_should_be_the_cells_of_each_row(void **state)
{
	(void)state;
	uint64_t seed = 77;
	for (long k = 0; k < 200000 + 24 + 2 * 4096; k++) {
		struct md_game g;
		md_init(&g);
		uint32_t bits = k < 200000		 ? (uint32_t)rng_below(&seed, 1u << 24)
				: k < 200000 + 24	 ? 1u << (k - 200000)
				: k < 200000 + 24 + 4096 ? (uint32_t)(k - 200000 - 24)
							 : (uint32_t)(k - 200000 - 24 - 4096) << 12;
		g.green = bits;
		g.blue = bits;
		for (unsigned r = 0; r < 6; r++) {
			unsigned green = 0, blue = 0;
			for (unsigned c = 0; c < 6; c++) {
				green |= (unsigned)green_has(&g, r, c) << c;
				blue |= (unsigned)blue_has(&g, r, c) << c;
			}
			assert_int_equal(md_green_row(&g, r), green);
			assert_int_equal(md_blue_row(&g, r), blue);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(md_avx2_should_be_off_when_turned_off),
	    cmocka_unit_test(md_should_answer_all_seven_public_examples),
	    cmocka_unit_test(md_rows_should_be_the_cells_of_each_row),
	    cmocka_unit_test(md_should_leave_the_boards_of_example_7_as_worked_out_by_hand),
	    cmocka_unit_test(md_should_score_4_and_leave_12_tiles_on_the_longer_case),
	    cmocka_unit_test(md_should_drop_a_monomino_to_the_floor_of_both_boards),
	    cmocka_unit_test(md_should_clear_a_full_row),
	    cmocka_unit_test(md_should_clear_a_full_column),
	    cmocka_unit_test(md_should_clear_two_rows_at_once),
	    cmocka_unit_test(md_should_clear_two_columns_at_once),
	    cmocka_unit_test(md_should_drop_one_floor_row_when_one_light_row_is_used),
	    cmocka_unit_test(md_should_drop_two_floor_rows_when_both_light_rows_are_used),
	    cmocka_unit_test(md_should_drop_blue_floor_columns_for_its_light_columns),
	    cmocka_unit_test(md_should_score_before_emptying_the_light_area),
	    cmocka_unit_test(md_should_stop_a_domino_on_its_first_blocked_cell),
	    cmocka_unit_test(md_should_play_blue_as_the_mirror_of_green),
	    cmocka_unit_test(md_should_agree_with_the_reference_on_random_games),
	    cmocka_unit_test(md_should_agree_with_the_reference_on_long_games),
	    cmocka_unit_test(md_play_should_end_as_md_place_one_block_after_another),
	    cmocka_unit_test(md_play_should_agree_when_stretches_never_meet_their_guess),
	    cmocka_unit_test(md_play_should_agree_when_guessed_boards_never_meet_the_real_ones),
	    cmocka_unit_test(md_should_check_placements_in_the_order_t_x_y),
	    cmocka_unit_test(md_should_start_empty_and_answer_false_outside_the_boards),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
