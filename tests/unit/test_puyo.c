/*
 * Unit tests of the Puyo simulator (src/core/puyo.c): the public example of
 * Baekjoon 11559, each rule, the score tables, garbage, the hidden 13th row
 * and all_clear, with every expected value derived by hand from the rules;
 * then a property test against a naive reference simulator written in this
 * file straight from the rules (recursive flood fill over a char grid,
 * gravity by swapping cells one step at a time) on thousands of random
 * fields.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu.h"
#include "core/planes.h"
#include "core/puyo_bmi2.h"
#include "dropjudge/gen.h"
#include "dropjudge/puyo.h"

/* Fills a field of `rows` rows; `lines` (top first) are its bottom n rows. */
static void field_set(struct puyo_field *f, unsigned rows, const char *const *lines, unsigned n)
{
	puyo_field_init(f, rows);
	assert_true(n <= rows);
	for (unsigned i = 0; i < n; i++) {
		unsigned r = rows - n + i;
		assert_int_equal(strlen(lines[i]), PUYO_COLS);
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			int cell = puyo_cell_from_char(lines[i][c]);
			assert_true(cell >= 0);
			f->cell[r][c] = (uint8_t)cell;
		}
	}
}

#define LINES(...)                                                                                 \
	(const char *const[])                                                                      \
	{                                                                                          \
		__VA_ARGS__                                                                        \
	}
#define NLINES(...) (unsigned)(sizeof(LINES(__VA_ARGS__)) / sizeof(const char *))
/* FIELD(f, rows, "bottom rows", ..., top first) */
#define FIELD(f, rows, ...) field_set((f), (rows), LINES(__VA_ARGS__), NLINES(__VA_ARGS__))

/* Stacks `stack` (bottom first) into column c from the floor up. */
static void column_set(struct puyo_field *f, unsigned c, const char *stack)
{
	size_t n = strlen(stack);
	assert_true(n <= f->rows);
	for (size_t i = 0; i < n; i++) {
		int cell = puyo_cell_from_char(stack[i]);
		assert_true(cell >= 0);
		f->cell[f->rows - 1 - i][c] = (uint8_t)cell;
	}
}

/* The field as text, rows top first, each ended by '\n'. */
static void field_text(const struct puyo_field *f, char *out)
{
	size_t n = 0;
	for (unsigned r = 0; r < f->rows; r++) {
		for (unsigned c = 0; c < PUYO_COLS; c++)
			out[n++] = puyo_cell_to_char(f->cell[r][c]);
		out[n++] = '\n';
	}
	out[n] = '\0';
}

/* Asserts the field's bottom rows (top first) are `lines`, the rest empty. */
static void field_expect(const struct puyo_field *f, const char *const *lines, unsigned n)
{
	char want[PUYO_ROWS_MAX * (PUYO_COLS + 1) + 1];
	char got[sizeof want];
	size_t k = 0;
	for (unsigned r = 0; r < f->rows; r++) {
		const char *line = r + n >= f->rows ? lines[r + n - f->rows] : "......";
		memcpy(want + k, line, PUYO_COLS);
		k += PUYO_COLS;
		want[k++] = '\n';
	}
	want[k] = '\0';
	field_text(f, got);
	assert_string_equal(got, want);
}

#define EXPECT_FIELD(f, ...) field_expect((f), LINES(__VA_ARGS__), NLINES(__VA_ARGS__))

static bool field_empty(const struct puyo_field *f)
{
	for (unsigned r = 0; r < f->rows; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++)
			if (f->cell[r][c] != PUYO_EMPTY)
				return false;
	return true;
}

/* ---- the public example ---------------------------------------------- */

static void puyo_should_answer_three_for_the_public_example(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_result res;
	FIELD(&f, 12, ".Y....", ".YG...", "RRYG..", "RRYGG.");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 3);
	/* By hand: three single 4-groups, 40 + 320 + 640. */
	assert_int_equal(res.score, 1000);
	assert_true(res.all_clear);
	assert_true(field_empty(&f));
}

static void puyo_should_step_the_public_example_one_chain_at_a_time(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_step s;
	FIELD(&f, 12, ".Y....", ".YG...", "RRYG..", "RRYGG.");

	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.chain, 1);
	assert_int_equal(s.popped, 4);
	assert_int_equal(s.groups, 1);
	assert_int_equal(s.colors, 1);
	assert_int_equal(s.garbage, 0);
	assert_int_equal(s.score, 40);
	EXPECT_FIELD(&f, "..G...", ".YYG..", ".YYGG.");

	assert_true(puyo_step(&f, 2, &s));
	assert_int_equal(s.score, 320);
	EXPECT_FIELD(&f, "...G..", "..GGG.");

	assert_true(puyo_step(&f, 3, &s));
	assert_int_equal(s.score, 640);
	assert_true(field_empty(&f));
	assert_false(puyo_step(&f, 4, &s));
}

/* ---- the rules ------------------------------------------------------- */

static void puyo_should_count_simultaneous_groups_as_one_chain(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_step s;
	struct puyo_result res;

	FIELD(&f, 12, "R...G.", "RRRGGG");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.groups, 2);
	assert_int_equal(s.colors, 2);
	assert_int_equal(s.popped, 8);
	assert_int_equal(s.score, 240); /* 10 * 8 * (0 + 3 + 0) */

	FIELD(&f, 12, "R...G.", "RRRGGG");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 1);
	assert_true(res.all_clear);

	/* Two groups of one colour: still one chain, bonus 0 clamped to 1. */
	FIELD(&f, 12, "R...RR", "RRRGRR");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.groups, 2);
	assert_int_equal(s.colors, 1);
	assert_int_equal(s.popped, 8);
	assert_int_equal(s.score, 80);
	EXPECT_FIELD(&f, "...G..");
}

static void puyo_should_not_connect_diagonally(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_result res;
	FIELD(&f, 12, ".R....", ".R....", "RG....", "RB....");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 0);
	assert_int_equal(res.score, 0);
	assert_false(res.all_clear);
	EXPECT_FIELD(&f, ".R....", ".R....", "RG....", "RB....");
}

static void puyo_should_not_pop_exactly_three(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_result res;
	FIELD(&f, 12, "RRR...");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 0);

	FIELD(&f, 12, "G.....", "GG.RRB", "BBBRYY");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 0);
	EXPECT_FIELD(&f, "G.....", "GG.RRB", "BBBRYY");
}

static void puyo_should_pop_groups_of_five_or_more(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_step s;
	FIELD(&f, 12, "RR....", "RRR...");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.popped, 5);
	assert_int_equal(s.groups, 1);
	assert_int_equal(s.score, 100); /* 10 * 5 * (0 + 0 + 2) */
	assert_true(field_empty(&f));
}

static void puyo_should_keep_column_order_under_gravity(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_step s;
	FIELD(&f, 12, "Y.....", "B.....", "G.....", "R.....", "R.BGPY", "R.GBYG", "RPRRRR");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.groups, 2);
	assert_int_equal(s.popped, 8);
	EXPECT_FIELD(&f, "Y.....", "B.BGPY", "GPGBYG");
	assert_false(puyo_step(&f, 2, &s));
}

static void puyo_should_settle_floating_input_before_the_first_pop(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_result res;
	FIELD(&f, 12, "R.....", "......", "......", ".RRR..");
	assert_true(puyo_field_is_floating(&f));
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 1);
	assert_true(res.all_clear);

	FIELD(&f, 12, "B.....", "......", "Y.....", "......", "......");
	puyo_settle(&f);
	assert_false(puyo_field_is_floating(&f));
	EXPECT_FIELD(&f, "B.....", "Y.....");
}

static void puyo_should_leave_the_field_unchanged_when_nothing_pops(void **state)
{
	(void)state;
	struct puyo_field f, before;
	struct puyo_step s = {99, 99, 99, 99, 99, 99};
	FIELD(&f, 12, "RRGG..", "GGRRB.");
	before = f;
	assert_false(puyo_step(&f, 1, &s));
	assert_false(puyo_step(&f, 1, NULL));
	assert_memory_equal(&f, &before, sizeof f);

	struct puyo_result res;
	puyo_field_init(&f, 12);
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 0);
	assert_int_equal(res.score, 0);
	assert_false(res.all_clear);
}

/* ---- score ----------------------------------------------------------- */

/*
 * An n-chain of single 4-groups that clears the field: column 0 holds two
 * puyos of colour k at heights 2k-2 and 2k-1, columns 1 and 2 one each at
 * height k-1. Step k pops column 0's lowest pair with the lowest puyos of
 * columns 1 and 2; then column 0 falls by two and columns 1, 2 by one, which
 * lines up colour k+1 the same way. Colours cycle through four, so no two
 * different steps' puyos ever touch with the same colour.
 */
static void build_stairs(struct puyo_field *f, unsigned n)
{
	static const char colors[] = "RGBY";
	char col0[PUYO_ROWS + 1] = "", col12[PUYO_ROWS + 1] = "";
	for (unsigned k = 0; k < n; k++) {
		col0[2 * k] = col0[2 * k + 1] = colors[k % 4];
		col0[2 * k + 2] = '\0';
		col12[k] = colors[k % 4];
		col12[k + 1] = '\0';
	}
	puyo_field_init(f, 12);
	column_set(f, 0, col0);
	column_set(f, 1, col12);
	column_set(f, 2, col12);
}

static void puyo_should_total_40_360_1000_2280_4840_for_single_four_chains(void **state)
{
	(void)state;
	static const unsigned long long totals[] = {40, 360, 1000, 2280, 4840};
	for (unsigned n = 1; n <= 5; n++) {
		struct puyo_field f;
		struct puyo_result res;
		build_stairs(&f, n);
		puyo_run(&f, &res);
		assert_int_equal(res.chains, n);
		assert_int_equal(res.score, totals[n - 1]);
		assert_true(res.all_clear);

		build_stairs(&f, n);
		for (unsigned k = 1; k <= n; k++) {
			struct puyo_step s;
			assert_true(puyo_step(&f, k, &s));
			assert_int_equal(s.popped, 4);
			assert_int_equal(s.groups, 1);
			assert_int_equal(s.colors, 1);
		}
	}
}

static void puyo_should_use_the_chain_power_table(void **state)
{
	(void)state;
	/* A single 4-group of one colour: 10 * 4 * max(CP, 1). */
	static const unsigned cp[] = {0,   8,	16,  32,  64,  96,  128, 160, 192, 224,
				      256, 288, 320, 352, 384, 416, 448, 480, 512};
	const unsigned four[] = {4};
	for (unsigned k = 1; k <= 19; k++) {
		unsigned bonus = cp[k - 1] ? cp[k - 1] : 1;
		assert_int_equal(puyo_step_score(k, 4, 1, four, 1), 40 * bonus);
	}
	for (unsigned k = 20; k <= 40; k++)
		assert_int_equal(puyo_step_score(k, 4, 1, four, 1), 40 * 512);
}

static void puyo_should_add_the_colour_bonus(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_step s;

	/* Three 2x2 squares: 10 * 12 * (0 + 6 + 0). */
	FIELD(&f, 12, "RRGGBB", "RRGGBB");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.colors, 3);
	assert_int_equal(s.score, 720);

	/* Four and five vertical 4-groups: CB 12 and 24. */
	FIELD(&f, 12, "RGBP..", "RGBP..", "RGBP..", "RGBP..");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.colors, 4);
	assert_int_equal(s.score, 1920); /* 10 * 16 * 12 */

	FIELD(&f, 12, "RGBPY.", "RGBPY.", "RGBPY.", "RGBPY.");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.colors, 5);
	assert_int_equal(s.popped, 20);
	assert_int_equal(s.score, 4800); /* 10 * 20 * 24 */

	/* In the second chain: 10 * 8 * (8 + 3 + 0). */
	FIELD(&f, 12, "R...G.", "RRRGGG");
	assert_true(puyo_step(&f, 2, &s));
	assert_int_equal(s.score, 880);
}

static void puyo_should_add_the_group_bonus(void **state)
{
	(void)state;
	/* size: bonus, from the table 4:0 5:2 6:3 7:4 8:5 9:6 10:7 11+:10 */
	static const unsigned table[][2] = {{4, 0},  {5, 2},   {6, 3},	 {7, 4},   {8, 5},  {9, 6},
					    {10, 7}, {11, 10}, {12, 10}, {30, 10}, {72, 10}};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		unsigned size = table[i][0];
		unsigned bonus = table[i][1] ? table[i][1] : 1;
		assert_int_equal(puyo_step_score(1, size, 1, &size, 1), 10 * size * bonus);
	}

	/* A 6-group and a 7-group: 10 * 13 * (0 + 3 + 3 + 4). */
	struct puyo_field f;
	struct puyo_step s;
	FIELD(&f, 12, "RRGG..", "RRGG..", "RRGGG.");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.groups, 2);
	assert_int_equal(s.popped, 13);
	assert_int_equal(s.score, 1300);

	/* All twelve cells of two full rows in one colour: 10 * 12 * 10. */
	FIELD(&f, 12, "YYYYYY", "YYYYYY");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.groups, 1);
	assert_int_equal(s.score, 1200);
}

static void puyo_should_clamp_the_bonus_to_1_and_999(void **state)
{
	(void)state;
	unsigned sizes[50];
	for (unsigned i = 0; i < 50; i++)
		sizes[i] = 11;
	const unsigned four[] = {4};
	assert_int_equal(puyo_step_score(1, 4, 1, four, 1), 40);
	/* 512 + 24 + 50 * 10 = 1036, clamped to 999. */
	assert_int_equal(puyo_step_score(19, 550, 5, sizes, 50), 10u * 550 * 999);
	/* 512 + 24 + 10 * 10 = 636: under the cap. */
	assert_int_equal(puyo_step_score(19, 110, 5, sizes, 10), 10u * 110 * 636);
}

/* ---- garbage --------------------------------------------------------- */

static void puyo_should_remove_garbage_next_to_a_popped_puyo(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_step s;
	struct puyo_result res;

	FIELD(&f, 12, "O.....", "RRRRO.");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.popped, 4);
	assert_int_equal(s.garbage, 2);
	assert_int_equal(s.score, 40); /* garbage is not in PC */
	assert_true(field_empty(&f));

	FIELD(&f, 12, "O.....", "RRRRO.");
	puyo_run(&f, &res);
	assert_true(res.all_clear);
}

static void puyo_should_keep_garbage_that_only_touches_diagonally(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_step s;
	struct puyo_result res;

	FIELD(&f, 12, "....O.", "RRRRG.");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.garbage, 0);
	EXPECT_FIELD(&f, "....O.", "....G.");

	FIELD(&f, 12, "....O.", "RRRRG.");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 1);
	assert_false(res.all_clear);
}

static void puyo_should_never_pop_garbage(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_result res;

	FIELD(&f, 12, "OO....", "OOOO..");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 0);

	/* Garbage does not join two pairs into a group either. */
	FIELD(&f, 12, "RROORR");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 0);
}

static void puyo_should_count_garbage_once_when_it_touches_several_pops(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_step s;
	FIELD(&f, 12, "RO....", "RRR...");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.garbage, 1);
	assert_true(field_empty(&f));
}

/* ---- the hidden 13th row --------------------------------------------- */

static void puyo_should_not_count_the_hidden_row_in_groups(void **state)
{
	(void)state;
	struct puyo_field f, before;
	struct puyo_result res;
	puyo_field_init(&f, 13);
	/* Visible R R R on top of column 0, a fourth R in the hidden row. */
	column_set(&f, 0, "GBGBGBGBGRRRR");
	before = f;
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 0);
	assert_memory_equal(&f, &before, sizeof f);
}

static void puyo_should_never_pop_a_group_in_the_hidden_row(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_result res;
	puyo_field_init(&f, 13);
	/* Four full columns in a checkerboard, R R R R across the hidden row. */
	column_set(&f, 0, "GBGBGBGBGBGBR");
	column_set(&f, 1, "BGBGBGBGBGBGR");
	column_set(&f, 2, "GBGBGBGBGBGBR");
	column_set(&f, 3, "BGBGBGBGBGBGR");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 0);
}

static void puyo_should_drop_hidden_row_puyos_after_a_clear(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_result res;
	puyo_field_init(&f, 13);
	/* Chain 1 pops G (column 0's floor and column 1); column 0 falls by
	 * one, the hidden R becomes the fourth visible R: chain 2. */
	column_set(&f, 0, "GBYBYBYBYRRRR");
	column_set(&f, 1, "GGG");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 2);
	assert_int_equal(res.score, 360);
	assert_false(res.all_clear);
	assert_int_equal(f.rows, 13);
	EXPECT_FIELD(&f, "Y.....", "B.....", "Y.....", "B.....", "Y.....", "B.....", "Y.....",
		     "B.....");
}

static void puyo_should_not_pop_a_hidden_puyo_next_to_a_popping_group(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_step s;
	struct puyo_result res;
	puyo_field_init(&f, 13);
	column_set(&f, 0, "GBGBGBGBRRRRR");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.popped, 4);
	EXPECT_FIELD(&f, "R.....", "B.....", "G.....", "B.....", "G.....", "B.....", "G.....",
		     "B.....", "G.....");

	puyo_field_init(&f, 13);
	column_set(&f, 0, "GBGBGBGBRRRRR");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 1);
	assert_int_equal(res.score, 40);
	assert_false(res.all_clear);
}

static void puyo_should_keep_hidden_row_garbage(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_step s;
	puyo_field_init(&f, 13);
	column_set(&f, 0, "GBGBGBGBRRRRO");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.garbage, 0);
	EXPECT_FIELD(&f, "O.....", "B.....", "G.....", "B.....", "G.....", "B.....", "G.....",
		     "B.....", "G.....");

	/* The same garbage one row lower, in the visible rows, goes. */
	puyo_field_init(&f, 12);
	column_set(&f, 0, "GBGBGBGRRRRO");
	assert_true(puyo_step(&f, 1, &s));
	assert_int_equal(s.garbage, 1);
}

static void puyo_should_settle_a_floating_hidden_row(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_result res;
	puyo_field_init(&f, 13);
	f.cell[0][0] = PUYO_RED; /* hidden row, nothing below */
	column_set(&f, 1, "RRR");
	assert_true(puyo_field_is_floating(&f));
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 1);
	assert_true(res.all_clear);
}

/* ---- all clear, cells ------------------------------------------------ */

static void puyo_should_report_all_clear_only_after_a_chain(void **state)
{
	(void)state;
	struct puyo_field f;
	struct puyo_result res;

	puyo_field_init(&f, 12);
	puyo_run(&f, &res);
	assert_false(res.all_clear);

	FIELD(&f, 12, "RRRR..");
	puyo_run(&f, &res);
	assert_true(res.all_clear);

	FIELD(&f, 12, "RRRRG.");
	puyo_run(&f, &res);
	assert_int_equal(res.chains, 1);
	assert_false(res.all_clear);

	puyo_field_init(&f, 12);
	puyo_run(&f, NULL); /* a NULL result is allowed */
}

static void puyo_should_map_cells_to_characters_and_back(void **state)
{
	(void)state;
	const char *chars = ".RGBPYO";
	for (int i = 0; chars[i]; i++) {
		assert_int_equal(puyo_cell_from_char(chars[i]), i);
		assert_int_equal(puyo_cell_to_char((uint8_t)i), chars[i]);
	}
	for (int b = 0; b < 256; b++) { /* every other byte is no cell */
		const char *at = b ? strchr(chars, b) : NULL;
		assert_int_equal(puyo_cell_from_char((char)b), at ? (int)(at - chars) : -1);
	}
	assert_int_equal(puyo_cell_to_char(7), '?');
	assert_int_equal(puyo_cell_to_char(255), '?');
}

static void puyo_should_init_to_twelve_or_thirteen_empty_rows(void **state)
{
	(void)state;
	struct puyo_field f;
	memset(&f, 0x5a, sizeof f);
	puyo_field_init(&f, 13);
	assert_int_equal(f.rows, 13);
	assert_true(field_empty(&f));
	puyo_field_init(&f, 12);
	assert_int_equal(f.rows, 12);
	puyo_field_init(&f, 99); /* anything else is 12 */
	assert_int_equal(f.rows, 12);
}

static void puyo_should_tell_floating_fields(void **state)
{
	(void)state;
	struct puyo_field f;
	puyo_field_init(&f, 12);
	assert_false(puyo_field_is_floating(&f));
	FIELD(&f, 12, "R.....", "G.....", "OY....");
	assert_false(puyo_field_is_floating(&f));
	FIELD(&f, 12, ".....R", "......");
	assert_true(puyo_field_is_floating(&f));
	FIELD(&f, 12, "O.....", "......", "Y.....");
	assert_true(puyo_field_is_floating(&f));
}

/* ---- the reference simulator ----------------------------------------- */

/*
 * Written from the rules only: a grid of characters, groups found by a
 * recursive flood fill in the visible rows, garbage next to a popped cell
 * removed, gravity by swapping a puyo with the empty cell under it until
 * nothing moves. Score from the tables of the issue.
 */
struct ref {
	int rows;	   /* 12 or 13 */
	char g[13][6 + 1]; /* '.', RGBPY, 'O' */
};

static const int ref_chain_power[] = {0,   8,	16,  32,  64,  96,  128, 160, 192, 224,
				      256, 288, 320, 352, 384, 416, 448, 480, 512};
static const int ref_color_bonus[] = {0, 3, 6, 12, 24}; /* 1..5 colours */

static int ref_group_bonus(int size)
{
	switch (size) {
	case 4:
		return 0;
	case 5:
		return 2;
	case 6:
		return 3;
	case 7:
		return 4;
	case 8:
		return 5;
	case 9:
		return 6;
	case 10:
		return 7;
	default:
		return 10; /* 11 or more */
	}
}

static bool ref_is_color(char ch)
{
	return ch && strchr("RGBPY", ch) != NULL;
}

static void ref_fall(struct ref *f)
{
	bool moved = true;
	while (moved) {
		moved = false;
		for (int r = 0; r + 1 < f->rows; r++) {
			for (int c = 0; c < 6; c++) {
				if (f->g[r][c] != '.' && f->g[r + 1][c] == '.') {
					f->g[r + 1][c] = f->g[r][c];
					f->g[r][c] = '.';
					moved = true;
				}
			}
		}
	}
}

/* Visits the group of (r, c); appends its cells to list; returns its size. */
static int ref_visit(const struct ref *f, int r, int c, char color, bool seen[13][6], int list[][2],
		     int n)
{
	int top = f->rows - 12;
	if (r < top || r >= f->rows || c < 0 || c >= 6)
		return n;
	if (seen[r][c] || f->g[r][c] != color)
		return n;
	seen[r][c] = true;
	list[n][0] = r;
	list[n][1] = c;
	n++;
	n = ref_visit(f, r - 1, c, color, seen, list, n);
	n = ref_visit(f, r + 1, c, color, seen, list, n);
	n = ref_visit(f, r, c - 1, color, seen, list, n);
	n = ref_visit(f, r, c + 1, color, seen, list, n);
	return n;
}

struct ref_step {
	int popped, garbage, groups, colors;
	long score;
};

/* One chain step numbered k; returns false when nothing pops. */
static bool ref_step(struct ref *f, int k, struct ref_step *out)
{
	int top = f->rows - 12;
	bool seen[13][6] = {{false}};
	bool popping[13][6] = {{false}};
	bool used[128] = {false};
	int list[78][2];
	int group_bonus = 0;
	memset(out, 0, sizeof *out);

	for (int r = top; r < f->rows; r++) {
		for (int c = 0; c < 6; c++) {
			if (seen[r][c] || !ref_is_color(f->g[r][c]))
				continue;
			int n = ref_visit(f, r, c, f->g[r][c], seen, list, 0);
			if (n < 4)
				continue;
			for (int i = 0; i < n; i++)
				popping[list[i][0]][list[i][1]] = true;
			out->groups++;
			out->popped += n;
			group_bonus += ref_group_bonus(n);
			if (!used[(int)f->g[r][c]]) {
				used[(int)f->g[r][c]] = true;
				out->colors++;
			}
		}
	}
	if (out->groups == 0)
		return false;

	for (int r = top; r < f->rows; r++) {
		for (int c = 0; c < 6; c++) {
			if (f->g[r][c] != 'O')
				continue;
			bool near = (r - 1 >= top && popping[r - 1][c]) ||
				    (r + 1 < f->rows && popping[r + 1][c]) ||
				    (c > 0 && popping[r][c - 1]) || (c < 5 && popping[r][c + 1]);
			if (near) {
				f->g[r][c] = '.';
				out->garbage++;
			}
		}
	}
	for (int r = top; r < f->rows; r++)
		for (int c = 0; c < 6; c++)
			if (popping[r][c])
				f->g[r][c] = '.';
	ref_fall(f);

	int bonus =
	    ref_chain_power[k <= 19 ? k - 1 : 18] + ref_color_bonus[out->colors - 1] + group_bonus;
	if (bonus < 1)
		bonus = 1;
	if (bonus > 999)
		bonus = 999;
	out->score = 10L * out->popped * bonus;
	return true;
}

static void ref_from_field(struct ref *r, const struct puyo_field *f)
{
	r->rows = f->rows;
	for (int i = 0; i < f->rows; i++) {
		for (int c = 0; c < 6; c++)
			r->g[i][c] = puyo_cell_to_char(f->cell[i][c]);
		r->g[i][6] = '\0';
	}
}

static void ref_text(const struct ref *r, char *out)
{
	size_t n = 0;
	for (int i = 0; i < r->rows; i++) {
		memcpy(out + n, r->g[i], 6);
		n += 6;
		out[n++] = '\n';
	}
	out[n] = '\0';
}

/* ---- random fields --------------------------------------------------- */

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

/* The core's bit count of a plane against the compiler's, on sparse, dense and random planes. */
static void count_cells_should_count_every_bit_of_a_plane(void **state)
{
	(void)state;
	assert_int_equal(count_cells(from_halves(0, 0)), 0);
	assert_int_equal(count_cells(from_halves(~0ull, ~0ull)), 128);
	uint64_t s = 6;
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t lo = rng_next(&s), hi = rng_next(&s);
		if (i % 3 == 1) { /* sparse */
			lo &= rng_next(&s) & rng_next(&s);
			hi &= rng_next(&s) & rng_next(&s);
		} else if (i % 3 == 2) { /* dense */
			lo |= rng_next(&s) | rng_next(&s);
			hi |= rng_next(&s) | rng_next(&s);
		}
		unsigned want = (unsigned)(__builtin_popcountll(lo) + __builtin_popcountll(hi));
		assert_int_equal(count_cells(from_halves(lo, hi)), want);
	}
}

/* Baekjoon's fields: 12 rows, settled, `colors` colours, no garbage. */
static void random_settled(struct puyo_field *f, uint64_t *s, unsigned colors)
{
	puyo_field_init(f, 12);
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned h = rng_below(s, 13);
		if (rng_below(s, 3) == 0)
			h = 8 + rng_below(s, 5); /* more tall columns, more chains */
		for (unsigned i = 0; i < h; i++)
			f->cell[11 - i][c] = (uint8_t)(1 + rng_below(s, colors));
	}
}

/* Anything the core takes: 12 or 13 rows, garbage, holes, floating. */
static void random_any(struct puyo_field *f, uint64_t *s)
{
	unsigned colors = 1 + rng_below(s, 5);
	unsigned empty = rng_below(s, 60);   /* percent */
	unsigned garbage = rng_below(s, 25); /* percent */
	puyo_field_init(f, 12 + rng_below(s, 2));
	for (unsigned r = 0; r < f->rows; r++) {
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			unsigned roll = rng_below(s, 100);
			if (roll < empty)
				f->cell[r][c] = PUYO_EMPTY;
			else if (roll < empty + garbage)
				f->cell[r][c] = PUYO_GARBAGE;
			else
				f->cell[r][c] = (uint8_t)(1 + rng_below(s, colors));
		}
	}
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

/* Runs the core and the reference side by side, step by step; returns the chains. */
static unsigned compare_once_with_reference(const struct puyo_field *start, uint64_t seed)
{
	struct puyo_field f = *start;
	struct ref r;
	char got[PUYO_ROWS_MAX * (PUYO_COLS + 1) + 1], want[sizeof got];
	long total = 0;
	int k = 1;

	ref_from_field(&r, &f);
	puyo_settle(&f);
	ref_fall(&r);
	for (;; k++) {
		struct puyo_step s;
		struct ref_step rs;
		bool popped = puyo_step(&f, (unsigned)k, &s);
		bool ref_popped = ref_step(&r, k, &rs);
		field_text(&f, got);
		ref_text(&r, want);
		if (popped != ref_popped || strcmp(got, want) != 0)
			print_error("seed %llu, chain %d: core %d, reference %d\n%s---\n%s",
				    (unsigned long long)seed, k, popped, ref_popped, got, want);
		assert_int_equal(popped, ref_popped);
		assert_string_equal(got, want);
		if (!popped)
			break;
		assert_int_equal(s.chain, k);
		assert_int_equal(s.popped, rs.popped);
		assert_int_equal(s.garbage, rs.garbage);
		assert_int_equal(s.groups, rs.groups);
		assert_int_equal(s.colors, rs.colors);
		assert_int_equal(s.score, rs.score);
		total += rs.score;
		assert_true(k <= 19);
	}

	struct puyo_planes planes;
	puyo_planes_from_field(&planes, start);
	assert_int_equal(puyo_planes_chains(&planes), k - 1);

	struct puyo_field g = *start;
	struct puyo_result res;
	puyo_run(&g, &res);
	assert_int_equal(res.chains, k - 1);
	assert_int_equal(res.score, total);
	bool empty = true;
	for (int i = 0; i < r.rows; i++)
		empty = empty && strcmp(r.g[i], "......") == 0;
	assert_int_equal(res.all_clear, k > 1 && empty);
	assert_memory_equal(&g, &f, sizeof f);

	/* run on the planes of the field (the fast JSON reader's way): the same result and field */
	struct puyo_field h;
	struct puyo_result from_planes;
	memset(&h, 0xA5, sizeof h);
	puyo_planes_run(&planes, start->rows, &h, &from_planes);
	assert_int_equal(from_planes.chains, res.chains);
	assert_int_equal(from_planes.score, res.score);
	assert_int_equal(from_planes.all_clear, res.all_clear);
	assert_int_equal(h.rows, f.rows);
	assert_memory_equal(h.cell, f.cell, f.rows * sizeof f.cell[0]);
	return (unsigned)(k - 1);
}

/*
 * The core against the reference with its BMI2 gravity (where this
 * processor runs it) and with the portable one: the same answers.
 */
static unsigned compare_with_reference(const struct puyo_field *start, uint64_t seed)
{
	unsigned chains = compare_once_with_reference(start, seed);
	if (cpu_switch_on(&puyo_bmi2)) {
		cpu_switch_set(&puyo_bmi2, false);
		assert_int_equal(compare_once_with_reference(start, seed), chains);
		cpu_switch_set(&puyo_bmi2, true);
	}
	return chains;
}

static void puyo_bmi2_should_be_off_when_turned_off(void **state)
{
	(void)state;
	bool on = cpu_switch_on(&puyo_bmi2);
	print_message("BMI2 gravity %s here\n", on ? "on" : "off");
#if !DROPJUDGE_SIMD
	assert_false(on); /* a SIMD=0 build never takes it */
#endif
	cpu_switch_set(&puyo_bmi2, false);
	assert_false(cpu_switch_on(&puyo_bmi2));
	cpu_switch_set(&puyo_bmi2, true);
	assert_int_equal(cpu_switch_on(&puyo_bmi2), on);
}

static void puyo_should_match_the_reference_on_long_generated_chains(void **state)
{
	(void)state;
	unsigned found = 0, longest = 0;
	unsigned seeds = test_cases(12, 400);
	for (unsigned colors = 3; colors <= 5; colors++) {
		for (uint64_t seed = 0; seed < seeds; seed++) {
			struct puyo_field f;
			unsigned want = 8 + (unsigned)(seed % 5); /* 8..12 chains */
			if (!gen_puyo_field(seed, colors, want, &f))
				continue;
			found++;
			unsigned chains = compare_with_reference(&f, seed);
			assert_true(chains >= want);
			if (chains > longest)
				longest = chains;
			/* the same field with the hidden row on top and garbage in it */
			struct puyo_field g;
			puyo_field_init(&g, 13);
			for (unsigned r = 0; r < 12; r++)
				memcpy(g.cell[r + 1], f.cell[r], PUYO_COLS);
			for (unsigned c = 0; c < PUYO_COLS; c++)
				g.cell[0][c] =
				    (uint8_t)(c % 2 ? PUYO_GARBAGE : 1 + (seed + c) % colors);
			compare_with_reference(&g, seed);
		}
	}
	assert_true(found > 0);
	assert_true(longest >= 12);
}

static void puyo_should_match_the_reference_on_random_settled_fields(void **state)
{
	(void)state;
	unsigned histogram[20] = {0};
	uint64_t s = 11559;
	unsigned fields = test_cases(20000, 1000000);
	for (unsigned i = 0; i < fields; i++) {
		struct puyo_field f;
		uint64_t seed = s;
		random_settled(&f, &s, 2 + i % 4);
		assert_false(puyo_field_is_floating(&f));
		histogram[compare_with_reference(&f, seed)]++;
	}
	for (unsigned k = 0; k < 20; k++)
		if (histogram[k])
			print_message("%u chains: %u fields\n", k, histogram[k]);
	/* The sample must exercise chains, not only quiet fields. */
	assert_true(histogram[0] > 0);
	assert_true(histogram[1] > 1000);
	assert_true(histogram[2] > 100);
	assert_true(histogram[3] + histogram[4] + histogram[5] > 10);
}

static void puyo_should_match_the_reference_with_garbage_13_rows_and_floating(void **state)
{
	(void)state;
	unsigned chains = 0, thirteen = 0;
	uint64_t s = 20061;
	unsigned fields = test_cases(20000, 1000000);
	for (unsigned i = 0; i < fields; i++) {
		struct puyo_field f;
		uint64_t seed = s;
		random_any(&f, &s);
		thirteen += f.rows == 13;
		chains += compare_with_reference(&f, seed);
	}
	assert_true(chains > 5000);
	assert_true(thirteen > 5000);
}

/* puyo_step_fn of the test: counts the steps and their points. */
struct told {
	unsigned steps;
	uint64_t score;
	unsigned stop_after; /* 0: never stop hearing */
};

static bool tell_step(void *ctx, const struct puyo_step *step, const struct puyo_field *field)
{
	struct told *t = ctx;
	(void)field;
	t->steps++;
	t->score += step->score;
	assert_int_equal(step->chain, t->steps);
	return t->stop_after == 0 || t->steps < t->stop_after;
}

static void puyo_run_steps_should_tell_every_step_that_puyo_run_counts(void **state)
{
	(void)state;
	struct puyo_field a, b;
	FIELD(&a, PUYO_ROWS, ".Y....", ".YG...", "RRYG..", "RRYGG.");
	b = a;
	struct puyo_result plain, traced;
	puyo_run(&a, &plain);
	struct told t = {0, 0, 0};
	puyo_run_steps(&b, &traced, tell_step, &t);
	assert_int_equal(plain.chains, 3);
	assert_int_equal(traced.chains, plain.chains);
	assert_true(traced.score == plain.score && traced.all_clear == plain.all_clear);
	assert_int_equal(t.steps, 3);
	assert_true(t.score == plain.score);
	assert_memory_equal(&a, &b, sizeof a);
	/* a listener that stops hearing does not stop the run */
	FIELD(&b, PUYO_ROWS, ".Y....", ".YG...", "RRYG..", "RRYGG.");
	struct told once = {0, 0, 1};
	puyo_run_steps(&b, &traced, tell_step, &once);
	assert_int_equal(once.steps, 1);
	assert_int_equal(traced.chains, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(puyo_bmi2_should_be_off_when_turned_off),
	    cmocka_unit_test(puyo_should_answer_three_for_the_public_example),
	    cmocka_unit_test(puyo_run_steps_should_tell_every_step_that_puyo_run_counts),
	    cmocka_unit_test(puyo_should_step_the_public_example_one_chain_at_a_time),
	    cmocka_unit_test(puyo_should_count_simultaneous_groups_as_one_chain),
	    cmocka_unit_test(puyo_should_not_connect_diagonally),
	    cmocka_unit_test(puyo_should_not_pop_exactly_three),
	    cmocka_unit_test(puyo_should_pop_groups_of_five_or_more),
	    cmocka_unit_test(puyo_should_keep_column_order_under_gravity),
	    cmocka_unit_test(puyo_should_settle_floating_input_before_the_first_pop),
	    cmocka_unit_test(puyo_should_leave_the_field_unchanged_when_nothing_pops),
	    cmocka_unit_test(puyo_should_total_40_360_1000_2280_4840_for_single_four_chains),
	    cmocka_unit_test(puyo_should_use_the_chain_power_table),
	    cmocka_unit_test(puyo_should_add_the_colour_bonus),
	    cmocka_unit_test(puyo_should_add_the_group_bonus),
	    cmocka_unit_test(puyo_should_clamp_the_bonus_to_1_and_999),
	    cmocka_unit_test(puyo_should_remove_garbage_next_to_a_popped_puyo),
	    cmocka_unit_test(puyo_should_keep_garbage_that_only_touches_diagonally),
	    cmocka_unit_test(puyo_should_never_pop_garbage),
	    cmocka_unit_test(puyo_should_count_garbage_once_when_it_touches_several_pops),
	    cmocka_unit_test(puyo_should_not_count_the_hidden_row_in_groups),
	    cmocka_unit_test(puyo_should_never_pop_a_group_in_the_hidden_row),
	    cmocka_unit_test(puyo_should_drop_hidden_row_puyos_after_a_clear),
	    cmocka_unit_test(puyo_should_not_pop_a_hidden_puyo_next_to_a_popping_group),
	    cmocka_unit_test(puyo_should_keep_hidden_row_garbage),
	    cmocka_unit_test(puyo_should_settle_a_floating_hidden_row),
	    cmocka_unit_test(puyo_should_report_all_clear_only_after_a_chain),
	    cmocka_unit_test(puyo_should_map_cells_to_characters_and_back),
	    cmocka_unit_test(puyo_should_init_to_twelve_or_thirteen_empty_rows),
	    cmocka_unit_test(puyo_should_tell_floating_fields),
	    cmocka_unit_test(count_cells_should_count_every_bit_of_a_plane),
	    cmocka_unit_test(puyo_should_match_the_reference_on_random_settled_fields),
	    cmocka_unit_test(puyo_should_match_the_reference_on_long_generated_chains),
	    cmocka_unit_test(puyo_should_match_the_reference_with_garbage_13_rows_and_floating),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
