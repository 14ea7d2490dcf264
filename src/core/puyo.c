/*
 * The Puyo Puyo chain simulator (Baekjoon 11559) with the Puyo Puyo Tsu
 * extensions: score, garbage puyos and the hidden 13th row.
 *
 * A step looks for groups in the 12 visible rows only, pops every group of
 * four or more at once, removes garbage next to a popped puyo (visible rows
 * only), then lets everything, the hidden row included, fall. Each step
 * removes at least PUYO_POP_SIZE puyos, so a run ends after at most
 * PUYO_MAX_CHAINS steps; the run loop is bounded by that number as well.
 *
 * Pure: the C library only, no allocation, no global state. Groups are found
 * by a flood fill over a fixed-size queue on the stack.
 */
#include "dropjudge/puyo.h"

#include <limits.h>
#include <string.h>

#define PUYO_VISIBLE_CELLS (PUYO_ROWS * PUYO_COLS)
/* Groups that can pop in one step: 72 / 4. */
#define PUYO_MAX_GROUPS (PUYO_VISIBLE_CELLS / PUYO_POP_SIZE)
/* Steps a run can have: every step removes at least 4 of at most 78 puyos. */
#define PUYO_MAX_CHAINS ((PUYO_ROWS_MAX * PUYO_COLS) / PUYO_POP_SIZE)
#define PUYO_BONUS_MAX	999

static const char puyo_chars[] = ".RGBPYO";

/* Chain power by chain number 1..19; later chains use the last entry. */
static const unsigned short puyo_chain_power[] = {
    0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512,
};

/* Colour bonus by distinct colours popped 0..5 (0 never happens in a step). */
static const unsigned char puyo_color_bonus[] = {0, 0, 3, 6, 12, 24};

/* The rows a field really has: 13 only when it says so, else 12. */
static unsigned field_rows(const struct puyo_field *field)
{
	return field->rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
}

static bool cell_is_color(uint8_t cell)
{
	return cell >= PUYO_RED && cell <= PUYO_YELLOW;
}

void puyo_field_init(struct puyo_field *field, unsigned rows)
{
	memset(field, 0, sizeof *field);
	field->rows = rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
}

int puyo_cell_from_char(char c)
{
	switch (c) {
	case '.':
		return PUYO_EMPTY;
	case 'R':
		return PUYO_RED;
	case 'G':
		return PUYO_GREEN;
	case 'B':
		return PUYO_BLUE;
	case 'P':
		return PUYO_PURPLE;
	case 'Y':
		return PUYO_YELLOW;
	case 'O':
		return PUYO_GARBAGE;
	default:
		return -1;
	}
}

char puyo_cell_to_char(uint8_t cell)
{
	return cell <= PUYO_GARBAGE ? puyo_chars[cell] : '?';
}

bool puyo_field_is_floating(const struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		bool gap = false; /* an empty cell seen below the current row */
		for (unsigned r = rows; r-- > 0;) {
			if (field->cell[r][c] == PUYO_EMPTY)
				gap = true;
			else if (gap)
				return true;
		}
	}
	return false;
}

void puyo_settle(struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned dst = rows; /* one below the next free cell, from the floor up */
		for (unsigned r = rows; r-- > 0;) {
			uint8_t v = field->cell[r][c];
			if (v == PUYO_EMPTY)
				continue;
			field->cell[r][c] = PUYO_EMPTY;
			field->cell[--dst][c] = v;
		}
	}
}

/*
 * Floods the group of visible cell (r, c) (visible row numbers, 0 on top),
 * marking it in `seen`; leaves its cells in queue[0..size) and returns size.
 */
static unsigned flood(const struct puyo_field *field, unsigned top, bool seen[PUYO_ROWS][PUYO_COLS],
		      unsigned r, unsigned c, uint8_t queue[PUYO_VISIBLE_CELLS])
{
	uint8_t color = field->cell[top + r][c];
	unsigned head = 0, tail = 0;
	seen[r][c] = true;
	queue[tail++] = (uint8_t)(r * PUYO_COLS + c);
	while (head < tail) {
		unsigned at = queue[head++];
		unsigned ar = at / PUYO_COLS, ac = at % PUYO_COLS;
		/* Unsigned wrap-around makes "-1" fail the bound check. */
		const unsigned nr[4] = {ar - 1, ar + 1, ar, ar};
		const unsigned nc[4] = {ac, ac, ac - 1, ac + 1};
		for (unsigned k = 0; k < 4; k++) {
			if (nr[k] >= PUYO_ROWS || nc[k] >= PUYO_COLS || seen[nr[k]][nc[k]])
				continue;
			if (field->cell[top + nr[k]][nc[k]] != color)
				continue;
			seen[nr[k]][nc[k]] = true;
			queue[tail++] = (uint8_t)(nr[k] * PUYO_COLS + nc[k]);
		}
	}
	return tail;
}

/* Whether visible cell (r, c) has an orthogonal neighbour marked in pop. */
static bool next_to_pop(const bool pop[PUYO_ROWS][PUYO_COLS], unsigned r, unsigned c)
{
	return (r > 0 && pop[r - 1][c]) || (r + 1 < PUYO_ROWS && pop[r + 1][c]) ||
	       (c > 0 && pop[r][c - 1]) || (c + 1 < PUYO_COLS && pop[r][c + 1]);
}

bool puyo_step(struct puyo_field *field, unsigned chain, struct puyo_step *step)
{
	unsigned top = field_rows(field) - PUYO_ROWS; /* first visible row */
	bool seen[PUYO_ROWS][PUYO_COLS] = {{false}};
	bool pop[PUYO_ROWS][PUYO_COLS] = {{false}};
	uint8_t queue[PUYO_VISIBLE_CELLS];
	unsigned sizes[PUYO_MAX_GROUPS];
	unsigned groups = 0, popped = 0, garbage = 0, color_mask = 0;

	for (unsigned r = 0; r < PUYO_ROWS; r++) {
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			uint8_t v = field->cell[top + r][c];
			if (seen[r][c] || !cell_is_color(v))
				continue;
			unsigned size = flood(field, top, seen, r, c, queue);
			if (size < PUYO_POP_SIZE)
				continue;
			for (unsigned i = 0; i < size; i++)
				pop[queue[i] / PUYO_COLS][queue[i] % PUYO_COLS] = true;
			sizes[groups++] = size;
			popped += size;
			color_mask |= 1u << v;
		}
	}
	if (groups == 0)
		return false;

	/* Garbage is judged against the pops before anything is removed. */
	bool gone[PUYO_ROWS][PUYO_COLS];
	memcpy(gone, pop, sizeof gone);
	for (unsigned r = 0; r < PUYO_ROWS; r++) {
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			if (field->cell[top + r][c] == PUYO_GARBAGE && next_to_pop(pop, r, c)) {
				gone[r][c] = true;
				garbage++;
			}
		}
	}
	for (unsigned r = 0; r < PUYO_ROWS; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++)
			if (gone[r][c])
				field->cell[top + r][c] = PUYO_EMPTY;
	puyo_settle(field);

	if (step) {
		unsigned colors = 0;
		for (unsigned m = color_mask; m; m &= m - 1)
			colors++;
		step->chain = chain;
		step->popped = popped;
		step->garbage = garbage;
		step->groups = groups;
		step->colors = colors;
		step->score = puyo_step_score(chain, popped, colors, sizes, groups);
	}
	return true;
}

static bool field_is_empty(const struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	for (unsigned r = 0; r < rows; r++)
		for (unsigned c = 0; c < PUYO_COLS; c++)
			if (field->cell[r][c] != PUYO_EMPTY)
				return false;
	return true;
}

void puyo_run(struct puyo_field *field, struct puyo_result *result)
{
	puyo_run_steps(field, result, NULL, NULL);
}

void puyo_run_steps(struct puyo_field *field, struct puyo_result *result, puyo_step_fn *fn,
		    void *ctx)
{
	struct puyo_result res = {0, 0, false};
	struct puyo_step step;

	puyo_settle(field);
	for (unsigned chain = 1; chain <= PUYO_MAX_CHAINS; chain++) {
		if (!puyo_step(field, chain, &step))
			break;
		res.chains = chain;
		res.score += step.score;
		if (fn && !fn(ctx, &step, field))
			fn = NULL; /* the run goes on; only the telling stops */
	}
	res.all_clear = res.chains > 0 && field_is_empty(field);
	if (result)
		*result = res;
}

/* Group bonus of one popped group. */
static unsigned group_bonus(unsigned size)
{
	if (size <= PUYO_POP_SIZE)
		return 0;
	if (size >= 11)
		return 10;
	return size - 3; /* 5:2, 6:3, ..., 10:7 */
}

unsigned puyo_step_score(unsigned chain, unsigned popped, unsigned colors, const unsigned *sizes,
			 unsigned groups)
{
	const unsigned nchain = sizeof puyo_chain_power / sizeof puyo_chain_power[0];
	const unsigned ncolor = sizeof puyo_color_bonus / sizeof puyo_color_bonus[0];
	unsigned long long bonus;

	if (chain < 1)
		chain = 1;
	bonus = puyo_chain_power[chain > nchain ? nchain - 1 : chain - 1];
	bonus += puyo_color_bonus[colors >= ncolor ? ncolor - 1 : colors];
	for (unsigned i = 0; sizes && i < groups && bonus < PUYO_BONUS_MAX; i++)
		bonus += group_bonus(sizes[i]);
	if (bonus < 1)
		bonus = 1;
	if (bonus > PUYO_BONUS_MAX)
		bonus = PUYO_BONUS_MAX;

	unsigned long long points = 10ull * popped * bonus;
	return points > UINT_MAX ? UINT_MAX : (unsigned)points;
}
