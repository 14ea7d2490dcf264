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
 * The chain loop works on bit planes: the field is three 128-bit planes,
 * bit k of each cell's value, with a column per 16 bits (bit 16*c + h, h
 * the row counted from the top of a 13-row field, so h = 12 is the floor)
 * and three empty guard bits per column. Shifting a plane by 1 meets the
 * cell above or below, by 16 the cell beside. A colour has a group of four
 * or more exactly where one of its puyos has three neighbours of its
 * colour or two neighbouring puyos have two each (a grid has no
 * triangles); those puyos seed a fill that grows within the colour to the
 * whole popping groups at once. Gravity squeezes the removed cells out of
 * each column: with BMI2 (chosen at run time) pext packs the kept cells and
 * pdep lays them on the floor, four columns per instruction pair; the
 * portable fallback closes the holes of each column one by one. Both are
 * tested against a straightforward reference.
 *
 * Pure: the C library and compiler intrinsics only, no allocation, no
 * global state.
 */
#include "dropjudge/puyo.h"

#include <limits.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define PUYO_HAVE_BMI2 1
#else
#define PUYO_HAVE_BMI2 0
#endif

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

/* ---- bit planes -------------------------------------------------------- */

__extension__ typedef unsigned __int128 plane_t;

#define LANE_BITS  16
#define LANE_CELLS 0x1FFFu /* h = 0..12 */
#define LANE_SEEN  0x1FFEu /* h = 1..12, the visible rows */

/* A 16-bit pattern in each of the PUYO_COLS columns. */
static inline plane_t lanes(uint64_t lane)
{
	plane_t x = 0;
	for (unsigned c = 0; c < PUYO_COLS; c++)
		x |= (plane_t)lane << (LANE_BITS * c);
	return x;
}

/* Column c of a plane. */
static inline unsigned lane_of(plane_t x, unsigned c)
{
	return (unsigned)(x >> (LANE_BITS * c)) & 0xFFFFu;
}

/* A field as planes: bit k of each cell value (enum puyo_cell) in bit[k]. */
struct planes {
	plane_t bit[3];
};

/* The cells of the four neighbours of x (not x itself). */
static inline plane_t neighbours(plane_t x)
{
	return (x << 1) | (x >> 1) | (x << LANE_BITS) | (x >> LANE_BITS);
}

/* Grows `seed` within `within` to all the cells connected to it. */
static inline plane_t grow(plane_t seed, plane_t within)
{
	plane_t g = seed;
	for (unsigned i = 0; i < PUYO_ROWS_MAX * PUYO_COLS; i++) {
		plane_t n = (g | neighbours(g)) & within;
		if (n == g)
			break;
		g = n;
	}
	return g;
}

/*
 * The cells of p (one colour, visible rows) that belong to a group of four
 * or more: seeds are the cells with three neighbours of their colour and
 * neighbouring pairs with two each; the fill grows them to their groups.
 */
static inline plane_t popping(plane_t p)
{
	plane_t up = p & (p << 1), down = p & (p >> 1);
	plane_t left = p & (p << LANE_BITS), right = p & (p >> LANE_BITS);
	plane_t ud = up & down, lr = left & right;
	plane_t v = up | down, h = left | right;
	plane_t two = ud | lr | (v & h);
	plane_t three = (ud & h) | (lr & v);
	plane_t seed = three | (two & neighbours(two));
	return seed ? grow(seed, p) : 0;
}

static inline unsigned count_cells(plane_t x)
{
	return (unsigned)__builtin_popcountll((uint64_t)x) +
	       (unsigned)__builtin_popcountll((uint64_t)(x >> 64));
}

static void planes_from_field(struct planes *p, const struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	unsigned h0 = PUYO_ROWS_MAX - rows;
	uint64_t lane[3][PUYO_COLS] = {{0}};
	for (unsigned r = 0; r < rows; r++) {
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			unsigned v = field->cell[r][c] & 7u;
			for (unsigned k = 0; k < 3; k++)
				lane[k][c] |= (uint64_t)((v >> k) & 1u) << (h0 + r);
		}
	}
	for (unsigned k = 0; k < 3; k++) {
		p->bit[k] = 0;
		for (unsigned c = 0; c < PUYO_COLS; c++)
			p->bit[k] |= (plane_t)lane[k][c] << (LANE_BITS * c);
	}
}

static void planes_to_field(const struct planes *p, struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	unsigned h0 = PUYO_ROWS_MAX - rows;
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned lane[3] = {lane_of(p->bit[0], c), lane_of(p->bit[1], c),
				    lane_of(p->bit[2], c)};
		for (unsigned r = 0; r < rows; r++) {
			unsigned h = h0 + r;
			field->cell[r][c] = (uint8_t)(((lane[0] >> h) & 1u) | ((lane[1] >> h) & 1u) << 1 |
						      ((lane[2] >> h) & 1u) << 2);
		}
	}
}

static inline plane_t planes_occupied(const struct planes *p)
{
	return p->bit[0] | p->bit[1] | p->bit[2];
}

/*
 * Gravity, portable: keeps the cells `keep` and lets them fall, column by
 * column, closing each hole under the topmost kept cell from the top down
 * (closing a hole moves only the cells above it, so the holes below stay
 * where they are).
 */
static void gravity_portable(struct planes *p, plane_t keep)
{
	struct planes out = {{0, 0, 0}};
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned k = lane_of(keep, c);
		if (!k)
			continue;
		unsigned lane[3] = {lane_of(p->bit[0], c) & k, lane_of(p->bit[1], c) & k,
				    lane_of(p->bit[2], c) & k};
		unsigned top = (unsigned)__builtin_ctz(k);
		unsigned holes = ~k & LANE_CELLS & ~((1u << top) - 1u);
		for (; holes; holes &= holes - 1u) {
			unsigned h = (unsigned)__builtin_ctz(holes);
			unsigned above = (1u << h) - 1u;
			for (unsigned b = 0; b < 3; b++)
				lane[b] = (lane[b] & ~(above | 1u << h)) | (lane[b] & above) << 1;
		}
		for (unsigned b = 0; b < 3; b++)
			out.bit[b] |= (plane_t)lane[b] << (LANE_BITS * c);
	}
	*p = out;
}

#if PUYO_HAVE_BMI2
/*
 * Gravity with BMI2: per half (columns 0-3, columns 4-5), pext packs the
 * kept cells of every plane and pdep lays them, in order, on the floor of
 * each column (the lowest popcount(column) cells of its 13).
 */
__attribute__((target("bmi2,popcnt"))) static void gravity_bmi2(struct planes *p, plane_t keep)
{
	uint64_t keep_half[2] = {(uint64_t)keep, (uint64_t)(keep >> 64)};
	uint64_t floor_half[2] = {0, 0};
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned n = (unsigned)__builtin_popcount(lane_of(keep, c));
		uint64_t lane = ((1ull << n) - 1u) << (PUYO_ROWS_MAX - n);
		floor_half[c / 4] |= lane << (LANE_BITS * (c % 4));
	}
	for (unsigned b = 0; b < 3; b++) {
		uint64_t lo = _pdep_u64(_pext_u64((uint64_t)p->bit[b], keep_half[0]), floor_half[0]);
		uint64_t hi =
		    _pdep_u64(_pext_u64((uint64_t)(p->bit[b] >> 64), keep_half[1]), floor_half[1]);
		p->bit[b] = (plane_t)hi << 64 | lo;
	}
}
#endif

/* Cell values as a plane, from the three bit planes. */
#define PLANE_OF(p, v)                                                                            \
	((((v) & 1) ? (p)->bit[0] : ~(p)->bit[0]) & (((v) & 2) ? (p)->bit[1] : ~(p)->bit[1]) &    \
	 (((v) & 4) ? (p)->bit[2] : ~(p)->bit[2]))

/*
 * One chain step on settled planes, as puyo_step() says. Always inlined
 * into the portable and the BMI2 chain loops below, so that each is
 * compiled for its instruction set.
 */
static inline __attribute__((always_inline)) bool planes_step(struct planes *p, unsigned chain,
							      struct puyo_step *step, bool bmi2)
{
	const plane_t seen = lanes(LANE_SEEN);
	unsigned sizes[PUYO_MAX_GROUPS];
	unsigned groups = 0, popped = 0, colors = 0;
	plane_t pop = 0;

	for (unsigned v = PUYO_RED; v <= PUYO_YELLOW; v++) {
		plane_t g = popping(PLANE_OF(p, v) & seen);
		if (!g)
			continue;
		unsigned n = count_cells(g);
		pop |= g;
		popped += n;
		colors++;
		if (!step)
			continue;
		if (n < 2 * PUYO_POP_SIZE) { /* one group: two would have 8 or more */
			sizes[groups++] = n;
			continue;
		}
		while (g && groups < PUYO_MAX_GROUPS) {
			plane_t one = grow(g & (~g + 1), g);
			sizes[groups++] = count_cells(one);
			g &= ~one;
		}
	}
	if (!pop)
		return false;

	plane_t garbage = PLANE_OF(p, PUYO_GARBAGE) & seen & neighbours(pop);
	plane_t keep = planes_occupied(p) & ~(pop | garbage);
#if PUYO_HAVE_BMI2
	if (bmi2)
		gravity_bmi2(p, keep);
	else
		gravity_portable(p, keep);
#else
	(void)bmi2;
	gravity_portable(p, keep);
#endif
	if (step) {
		step->chain = chain;
		step->popped = popped;
		step->garbage = count_cells(garbage);
		step->groups = groups;
		step->colors = colors;
		step->score = puyo_step_score(chain, popped, colors, sizes, groups);
	}
	return true;
}

/* Settles the planes, then steps until nothing pops; fills *res. */
static inline __attribute__((always_inline)) void planes_run(struct planes *p,
							     struct puyo_result *res, bool bmi2)
{
	struct puyo_step step;
	res->chains = 0;
	res->score = 0;
#if PUYO_HAVE_BMI2
	if (bmi2)
		gravity_bmi2(p, planes_occupied(p));
	else
		gravity_portable(p, planes_occupied(p));
#else
	gravity_portable(p, planes_occupied(p));
#endif
	for (unsigned chain = 1; chain <= PUYO_MAX_CHAINS; chain++) {
		if (!planes_step(p, chain, &step, bmi2))
			break;
		res->chains = chain;
		res->score += step.score;
	}
	res->all_clear = res->chains > 0 && planes_occupied(p) == 0;
}

static bool step_portable(struct planes *p, unsigned chain, struct puyo_step *step)
{
	return planes_step(p, chain, step, false);
}

static void run_portable(struct planes *p, struct puyo_result *res)
{
	planes_run(p, res, false);
}

#if PUYO_HAVE_BMI2
__attribute__((target("bmi2,popcnt"))) static bool step_bmi2(struct planes *p, unsigned chain,
							      struct puyo_step *step)
{
	return planes_step(p, chain, step, true);
}

__attribute__((target("bmi2,popcnt"))) static void run_bmi2(struct planes *p,
							     struct puyo_result *res)
{
	planes_run(p, res, true);
}
#endif

/* Whether to take the BMI2 path for `impl`. */
static bool use_bmi2(enum puyo_impl impl)
{
	return impl == PUYO_IMPL_BMI2 || (impl == PUYO_IMPL_AUTO && puyo_impl_supported(PUYO_IMPL_BMI2));
}

bool puyo_impl_supported(enum puyo_impl impl)
{
	if (impl != PUYO_IMPL_BMI2)
		return impl == PUYO_IMPL_AUTO || impl == PUYO_IMPL_PORTABLE;
#if PUYO_HAVE_BMI2
	return __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#else
	return false;
#endif
}

bool puyo_step_impl(struct puyo_field *field, unsigned chain, struct puyo_step *step,
		    enum puyo_impl impl)
{
	struct planes p;
	bool popped;
	planes_from_field(&p, field);
#if PUYO_HAVE_BMI2
	if (use_bmi2(impl))
		popped = step_bmi2(&p, chain, step);
	else
		popped = step_portable(&p, chain, step);
#else
	(void)impl;
	popped = step_portable(&p, chain, step);
#endif
	if (popped)
		planes_to_field(&p, field);
	return popped;
}

void puyo_run_impl(struct puyo_field *field, struct puyo_result *result, enum puyo_impl impl)
{
	struct planes p;
	struct puyo_result res;
	planes_from_field(&p, field);
#if PUYO_HAVE_BMI2
	if (use_bmi2(impl))
		run_bmi2(&p, &res);
	else
		run_portable(&p, &res);
#else
	(void)impl;
	run_portable(&p, &res);
#endif
	planes_to_field(&p, field);
	if (result)
		*result = res;
}

bool puyo_step(struct puyo_field *field, unsigned chain, struct puyo_step *step)
{
	return puyo_step_impl(field, chain, step, PUYO_IMPL_AUTO);
}

void puyo_run(struct puyo_field *field, struct puyo_result *result)
{
	puyo_run_impl(field, result, PUYO_IMPL_AUTO);
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
