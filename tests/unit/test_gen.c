/*
 * Unit tests of the generators (src/core/gen.c). The stream is checked
 * against published reference values of splitmix64 and xoshiro256** and
 * against a straightforward implementation written in this file from the
 * published algorithms; the range draws, the Monomino-Domino blocks and the
 * Puyo fields are checked against the rules: every block legal (md_check and
 * the board bounds), every field settled, of the allowed colours only, and
 * with at least the asked chain count as counted by a naive reference
 * simulator written here from the rules of Baekjoon 11559 (not the core).
 * A few outputs are pinned: they are the interface of GEN_VERSION.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dropjudge/gen.h"

/* The reference stream, straight from the published algorithms. */

static uint64_t ref_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static uint64_t ref_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t ref_next(uint64_t s[4])
{
	uint64_t result = ref_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ref_rotl(s[3], 45);
	return result;
}

static void ref_init(uint64_t s[4], uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		s[i] = ref_splitmix64(&x);
}

/* The documented rule: reject r < 2^64 mod bound, answer r mod bound. */
static uint64_t ref_below(uint64_t s[4], uint64_t bound)
{
	uint64_t reject = (UINT64_MAX % bound + 1) % bound; /* 2^64 mod bound */
	for (;;) {
		uint64_t r = ref_next(s);
		if (r >= reject)
			return r % bound;
	}
}

static void gen_should_seed_with_splitmix64_as_published(void **state)
{
	(void)state;
	struct gen_rng rng;

	/* Rosetta Code, "Pseudo-random numbers/Splitmix64", seed 1234567. */
	gen_rng_init(&rng, 1234567);
	assert_true(rng.s[0] == 6457827717110365317u);
	assert_true(rng.s[1] == 3203168211198807973u);
	assert_true(rng.s[2] == 9817491932198370423u);
	assert_true(rng.s[3] == 4593380528125082431u);

	/* Seed 0, Vigna's splitmix64.c (also computed independently). */
	gen_rng_init(&rng, 0);
	assert_true(rng.s[0] == 0xe220a8397b1dcdafu);
	assert_true(rng.s[1] == 0x6e789e6aa1b965f4u);
	assert_true(rng.s[2] == 0x06c45d188009454fu);
	assert_true(rng.s[3] == 0xf88bb8a8724c81ecu);
}

static void gen_should_step_xoshiro256starstar_as_published(void **state)
{
	(void)state;
	/* xoshiro256starstar.c from the state {1, 2, 3, 4}; the same values
	 * are the test vectors of rand_xoshiro and other ports. */
	static const uint64_t want[] = {
	    11520u,
	    0u,
	    1509978240u,
	    1215971899390074240u,
	    1216172134540287360u,
	    607988272756665600u,
	    16172922978634559625u,
	    8476171486693032832u,
	    10595114339597558777u,
	    2904607092377533576u,
	};
	struct gen_rng rng = {{1, 2, 3, 4}};

	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		assert_true(gen_rng_next(&rng) == want[i]);
}

static void gen_should_match_a_straightforward_implementation(void **state)
{
	(void)state;
	static const uint64_t seeds[] = {0, 1, 42, 7, UINT64_MAX, 0x8000000000000000u};
	uint64_t x = 99;

	for (unsigned i = 0; i < 1000; i++) {
		uint64_t seed = i < 6 ? seeds[i] : ref_splitmix64(&x);
		struct gen_rng rng;
		uint64_t ref[4];
		gen_rng_init(&rng, seed);
		ref_init(ref, seed);
		for (unsigned k = 0; k < 100; k++)
			assert_true(gen_rng_next(&rng) == ref_next(ref));
	}
}

static const uint64_t bounds[] = {
    1,
    2,
    3,
    5,
    6,
    7,
    10,
    12,
    16,
    100,
    1000003,
    (1ull << 32),
    (1ull << 32) + 1,
    (1ull << 63),
    (1ull << 63) + 1,
    3ull << 62,
    UINT64_MAX - 1,
    UINT64_MAX,
};

static void gen_rng_below_should_follow_the_documented_rejection_rule(void **state)
{
	(void)state;
	for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
		struct gen_rng rng;
		uint64_t ref[4];
		gen_rng_init(&rng, 1000 + b);
		ref_init(ref, 1000 + b);
		for (unsigned i = 0; i < 10000; i++) {
			uint64_t v = gen_rng_below(&rng, bounds[b]);
			assert_true(v == ref_below(ref, bounds[b]));
			assert_true(v < bounds[b]);
		}
		/* Both consumed the same number of outputs. */
		assert_true(gen_rng_next(&rng) == ref_next(ref));
	}
}

/* Chi-square of `n` draws below `bound` (<= 64); true when below a generous
 * bound (3 df + 30: far beyond p = 1e-6 for these sizes). */
static bool looks_uniform(uint64_t seed, uint64_t bound, unsigned n)
{
	unsigned count[64] = {0};
	struct gen_rng rng;
	gen_rng_init(&rng, seed);
	for (unsigned i = 0; i < n; i++)
		count[gen_rng_below(&rng, bound)]++;
	double expect = (double)n / (double)bound, chi = 0;
	for (uint64_t v = 0; v < bound; v++)
		chi += (count[v] - expect) * (count[v] - expect) / expect;
	return chi < 3.0 * (double)(bound - 1) + 30.0;
}

static void gen_rng_below_should_be_roughly_uniform(void **state)
{
	(void)state;
	static const uint64_t small[] = {2, 3, 6, 7, 10, 12, 16, 40, 64};
	for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
		assert_true(looks_uniform(2024 + i, small[i], 64000));
}

static void gen_rng_below_should_have_no_modulo_bias(void **state)
{
	(void)state;
	/* With bound = 3 * 2^62, r mod bound would give [0, 2^62) half the
	 * time; the rejection gives it a third of the time. */
	const uint64_t bound = 3ull << 62;
	struct gen_rng rng;
	unsigned low = 0, n = 60000;
	gen_rng_init(&rng, 5);
	for (unsigned i = 0; i < n; i++)
		if (gen_rng_below(&rng, bound) < (1ull << 62))
			low++;
	assert_true(low > n * 0.31 && low < n * 0.36);
	/* Bound 1 always gives 0. */
	for (unsigned i = 0; i < 100; i++)
		assert_true(gen_rng_below(&rng, 1) == 0);
}

/* Monomino-Domino. */

static bool block_is_inside_red(struct md_block b)
{
	unsigned max_x = b.t == 3 ? 2 : 3, max_y = b.t == 2 ? 2 : 3;
	return b.t >= 1 && b.t <= 3 && b.x <= max_x && b.y <= max_y;
}

static void gen_md_block_should_always_be_legal_and_cover_every_position(void **state)
{
	(void)state;
	unsigned count[4][4][4] = {{{0}}}, per_type[4] = {0};
	const unsigned n = 120000;
	struct gen_rng rng;
	gen_rng_init(&rng, 31337);
	for (unsigned i = 0; i < n; i++) {
		struct md_block b = gen_md_block(&rng);
		assert_true(block_is_inside_red(b));
		assert_int_equal(md_check(b.t, b.x, b.y), MD_FAULT_NONE);
		count[b.t][b.x][b.y]++;
		per_type[b.t]++;
	}
	/* t uniform over 1..3: chi-square, 2 degrees of freedom. */
	double chi = 0, e = n / 3.0;
	for (unsigned t = 1; t <= 3; t++)
		chi += (per_type[t] - e) * (per_type[t] - e) / e;
	assert_true(chi < 30);
	/* Within each t, every legal position, uniformly (16, 12, 12 cells). */
	for (unsigned t = 1; t <= 3; t++) {
		unsigned cells = t == 1 ? 16 : 12, seen = 0;
		double ec = (double)per_type[t] / cells;
		chi = 0;
		for (unsigned x = 0; x < 4; x++) {
			for (unsigned y = 0; y < 4; y++) {
				struct md_block b = {(uint8_t)t, (uint8_t)x, (uint8_t)y};
				if (!block_is_inside_red(b)) {
					assert_int_equal(count[t][x][y], 0);
					continue;
				}
				assert_true(count[t][x][y] > 0);
				seen++;
				chi += (count[t][x][y] - ec) * (count[t][x][y] - ec) / ec;
			}
		}
		assert_int_equal(seen, cells);
		assert_true(chi < 3.0 * (cells - 1) + 30);
	}
}

static void gen_md_block_should_follow_the_documented_draws(void **state)
{
	(void)state;
	/* t = 1 + below(3); p = below(rows * cols); x = p / cols, y = p % cols. */
	for (uint64_t seed = 0; seed < 50; seed++) {
		struct gen_rng rng;
		uint64_t ref[4];
		gen_rng_init(&rng, seed);
		ref_init(ref, seed);
		for (unsigned i = 0; i < 1000; i++) {
			struct md_block b = gen_md_block(&rng);
			uint64_t t = 1 + ref_below(ref, 3);
			uint64_t rows = t == 3 ? 3 : 4, cols = t == 2 ? 3 : 4;
			uint64_t p = ref_below(ref, rows * cols);
			assert_int_equal(b.t, t);
			assert_int_equal(b.x, p / cols);
			assert_int_equal(b.y, p % cols);
		}
	}
}

static void gen_md_block_should_give_the_pinned_first_blocks_of_seed_42(void **state)
{
	(void)state;
	/*
	 * Pinned: the first three blocks of seed 42, computed with an
	 * independent implementation and checked by hand to lie in red
	 * (1x1 at (3,2); vertical domino at (1,1)-(2,1); horizontal domino at
	 * (0,0)-(0,1)). Changing them changes every case a seed names:
	 * that requires bumping GEN_VERSION.
	 */
	static const struct md_block want[] = {{1, 3, 2}, {3, 1, 1}, {2, 0, 0}};
	struct gen_rng rng;
	gen_rng_init(&rng, 42);
	for (unsigned i = 0; i < 3; i++) {
		struct md_block b = gen_md_block(&rng);
		assert_int_equal(b.t, want[i].t);
		assert_int_equal(b.x, want[i].x);
		assert_int_equal(b.y, want[i].y);
	}
	assert_int_equal(GEN_VERSION, 1);
}

/*
 * Puyo: a naive reference simulator from the rules of Baekjoon 11559, on a
 * grid of characters, row 0 on top: recursive flood fill, pop every group of
 * four or more at once, let puyos fall one cell at a time until none can,
 * count the steps.
 */
#define ROWS 12
#define COLS 6

static unsigned ref_fill(char g[ROWS][COLS], bool seen[ROWS][COLS], int r, int c, char color,
			 int cells[][2], unsigned n)
{
	if (r < 0 || r >= ROWS || c < 0 || c >= COLS || seen[r][c] || g[r][c] != color)
		return n;
	seen[r][c] = true;
	cells[n][0] = r;
	cells[n][1] = c;
	n++;
	n = ref_fill(g, seen, r + 1, c, color, cells, n);
	n = ref_fill(g, seen, r - 1, c, color, cells, n);
	n = ref_fill(g, seen, r, c + 1, color, cells, n);
	n = ref_fill(g, seen, r, c - 1, color, cells, n);
	return n;
}

static unsigned ref_chains(const char rows[ROWS][COLS])
{
	char g[ROWS][COLS];
	unsigned chains = 0;
	memcpy(g, rows, sizeof g);
	for (;;) {
		bool seen[ROWS][COLS] = {{false}}, pop[ROWS][COLS] = {{false}}, any = false;
		for (int r = 0; r < ROWS; r++) {
			for (int c = 0; c < COLS; c++) {
				if (g[r][c] == '.' || seen[r][c])
					continue;
				int cells[ROWS * COLS][2];
				unsigned n = ref_fill(g, seen, r, c, g[r][c], cells, 0);
				if (n < 4)
					continue;
				any = true;
				for (unsigned i = 0; i < n; i++)
					pop[cells[i][0]][cells[i][1]] = true;
			}
		}
		if (!any)
			return chains;
		chains++;
		for (int r = 0; r < ROWS; r++)
			for (int c = 0; c < COLS; c++)
				if (pop[r][c])
					g[r][c] = '.';
		for (bool moved = true; moved;) {
			moved = false;
			for (int r = ROWS - 2; r >= 0; r--) {
				for (int c = 0; c < COLS; c++) {
					if (g[r][c] != '.' && g[r + 1][c] == '.') {
						g[r + 1][c] = g[r][c];
						g[r][c] = '.';
						moved = true;
					}
				}
			}
		}
	}
}

/* The field as Baekjoon characters; fails on anything but 12 rows of the
 * first `colors` colours (R, G, B, P, Y in that order) and empty cells. */
static void field_rows(const struct puyo_field *f, unsigned colors, char rows[ROWS][COLS])
{
	static const char chars[] = ".RGBPY";
	assert_int_equal(f->rows, PUYO_ROWS);
	for (int r = 0; r < ROWS; r++) {
		for (int c = 0; c < COLS; c++) {
			unsigned cell = f->cell[r][c];
			assert_true(cell <= colors);
			rows[r][c] = chars[cell];
		}
	}
	for (int c = 0; c < COLS; c++)
		assert_int_equal(f->cell[ROWS][c], 0);
}

static bool rows_are_settled(const char rows[ROWS][COLS])
{
	for (int r = 0; r + 1 < ROWS; r++)
		for (int c = 0; c < COLS; c++)
			if (rows[r][c] != '.' && rows[r + 1][c] == '.')
				return false;
	return true;
}

/* Checks a generated field against the rules; returns its chain count. */
static unsigned check_field(const struct puyo_field *f, unsigned colors, unsigned min_chains)
{
	char rows[ROWS][COLS];
	field_rows(f, colors, rows);
	assert_true(rows_are_settled(rows));
	unsigned chains = ref_chains(rows);
	if (chains < min_chains) {
		print_error("%u chains, at least %u asked\n", chains, min_chains);
		fail();
	}
	return chains;
}

static void gen_puyo_should_refuse_impossible_parameters(void **state)
{
	(void)state;
	struct puyo_field f;
	assert_false(gen_puyo_field(1, 0, 0, &f));
	assert_false(gen_puyo_field(1, 6, 0, &f));
	assert_false(gen_puyo_field(1, 4, GEN_PUYO_MAX_CHAINS + 1, &f));
	assert_false(gen_puyo_field(1, 4, 1000, &f));
	/* One colour: a settled field's groups are runs of whole columns and
	 * all pop in the first step, so two chains or more cannot exist. */
	for (unsigned m = 2; m <= GEN_PUYO_MAX_CHAINS; m++)
		assert_false(gen_puyo_field(1, 1, m, &f));
}

static void gen_puyo_should_build_one_colour_fields(void **state)
{
	(void)state;
	for (uint64_t seed = 0; seed < 20; seed++) {
		struct puyo_field f;
		assert_true(gen_puyo_field(seed, 1, 0, &f));
		check_field(&f, 1, 0);
		assert_true(gen_puyo_field(seed, 1, 1, &f));
		assert_int_equal(check_field(&f, 1, 1), 1);
	}
}

static void gen_puyo_should_reach_every_chain_count_with_three_to_five_colours(void **state)
{
	(void)state;
	for (unsigned colors = 3; colors <= 5; colors++) {
		for (unsigned m = 0; m <= GEN_PUYO_MAX_CHAINS; m++) {
			for (uint64_t seed = 0; seed < 12; seed++) {
				struct puyo_field f;
				if (!gen_puyo_field(seed * 1000 + m, colors, m, &f)) {
					print_error("colors %u, min_chains %u, seed %llu failed\n",
						    colors, m,
						    (unsigned long long)(seed * 1000 + m));
					fail();
				}
				check_field(&f, colors, m);
			}
		}
	}
}

static void gen_puyo_should_reach_up_to_twelve_chains_with_two_colours(void **state)
{
	(void)state;
	/* Up to 9 chains every seed succeeds; 10 to 12 are found for most
	 * seeds but not all (see gen.c): every success must be right and
	 * some must exist. */
	for (unsigned m = 0; m <= GEN_PUYO_MAX_CHAINS; m++) {
		unsigned ok = 0, tries = m <= 9 ? 12 : 6;
		for (uint64_t seed = 0; seed < tries; seed++) {
			struct puyo_field f;
			if (!gen_puyo_field(seed, 2, m, &f)) {
				assert_true(m >= 10);
				continue;
			}
			check_field(&f, 2, m);
			ok++;
		}
		assert_true(ok >= (m <= 9 ? tries : 2));
	}
}

static void gen_puyo_should_make_random_settled_fields_for_zero_chains(void **state)
{
	(void)state;
	unsigned heights[ROWS + 1] = {0}, colors_seen[6] = {0};
	for (uint64_t seed = 0; seed < 400; seed++) {
		unsigned colors = 1 + (unsigned)(seed % 5);
		struct puyo_field f;
		assert_true(gen_puyo_field(seed, colors, 0, &f));
		check_field(&f, colors, 0);
		for (int c = 0; c < COLS; c++) {
			unsigned h = 0;
			for (int r = 0; r < ROWS; r++)
				h += f.cell[r][c] != 0;
			heights[h]++;
		}
		for (int r = 0; r < ROWS; r++)
			for (int c = 0; c < COLS; c++)
				colors_seen[f.cell[r][c]]++;
	}
	/* Every column height 0..12 and every colour turn up. */
	for (int h = 0; h <= ROWS; h++)
		assert_true(heights[h] > 0);
	for (int k = 1; k <= 5; k++)
		assert_true(colors_seen[k] > 0);
}

static void gen_puyo_should_be_deterministic(void **state)
{
	(void)state;
	static const unsigned params[][2] = {{4, 0}, {4, 3}, {5, 12}, {3, 7}, {2, 6}, {1, 1}};
	for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
		for (uint64_t seed = 100; seed < 105; seed++) {
			struct puyo_field a, b;
			memset(&a, 0xaa, sizeof a);
			memset(&b, 0x55, sizeof b);
			assert_true(gen_puyo_field(seed, params[i][0], params[i][1], &a));
			assert_true(gen_puyo_field(seed, params[i][0], params[i][1], &b));
			assert_int_equal(a.rows, b.rows);
			assert_memory_equal(a.cell, b.cell, sizeof a.cell);
		}
	}
	/* Different seeds give different fields. */
	struct puyo_field a, b;
	assert_true(gen_puyo_field(1, 4, 5, &a));
	assert_true(gen_puyo_field(2, 4, 5, &b));
	assert_memory_not_equal(a.cell, b.cell, sizeof a.cell);
}

static void gen_puyo_should_give_the_pinned_field_of_seed_7(void **state)
{
	(void)state;
	/*
	 * Pinned: seed 7, 4 colours, min_chains 3. Checked by hand against the
	 * rules: settled, R G B P only, and exactly 3 chains (the B group at
	 * columns 1-2 pops, then the five P's it held apart, then the R's
	 * along the floor). Changing it changes every field a seed names:
	 * that requires bumping GEN_VERSION.
	 */
	static const char *const want[ROWS] = {
	    "......", "......", "..G...", ".PR...", ".GB...", ".PP...",
	    ".RR...", ".PR.R.", "RBPPR.", "GBPGB.", "RBBPG.", "RRPRRB",
	};
	struct puyo_field f;
	char rows[ROWS][COLS];
	assert_true(gen_puyo_field(7, 4, 3, &f));
	field_rows(&f, 4, rows);
	for (int r = 0; r < ROWS; r++) {
		char line[COLS + 1];
		memcpy(line, rows[r], COLS);
		line[COLS] = '\0';
		assert_string_equal(line, want[r]);
	}
	assert_int_equal(ref_chains(rows), 3);
	assert_int_equal(GEN_VERSION, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(gen_should_seed_with_splitmix64_as_published),
	    cmocka_unit_test(gen_should_step_xoshiro256starstar_as_published),
	    cmocka_unit_test(gen_should_match_a_straightforward_implementation),
	    cmocka_unit_test(gen_rng_below_should_follow_the_documented_rejection_rule),
	    cmocka_unit_test(gen_rng_below_should_be_roughly_uniform),
	    cmocka_unit_test(gen_rng_below_should_have_no_modulo_bias),
	    cmocka_unit_test(gen_md_block_should_always_be_legal_and_cover_every_position),
	    cmocka_unit_test(gen_md_block_should_follow_the_documented_draws),
	    cmocka_unit_test(gen_md_block_should_give_the_pinned_first_blocks_of_seed_42),
	    cmocka_unit_test(gen_puyo_should_refuse_impossible_parameters),
	    cmocka_unit_test(gen_puyo_should_build_one_colour_fields),
	    cmocka_unit_test(gen_puyo_should_reach_every_chain_count_with_three_to_five_colours),
	    cmocka_unit_test(gen_puyo_should_reach_up_to_twelve_chains_with_two_colours),
	    cmocka_unit_test(gen_puyo_should_make_random_settled_fields_for_zero_chains),
	    cmocka_unit_test(gen_puyo_should_be_deterministic),
	    cmocka_unit_test(gen_puyo_should_give_the_pinned_field_of_seed_7),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
