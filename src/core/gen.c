/* The generators of gen.h: xoshiro256** seeded by splitmix64 (Blackman and Vigna). Any change to
 * the draws below (order, bounds, the Puyo search's limits) bumps GEN_VERSION. */
#include "dropjudge/gen.h"

#include <stdlib.h>
#include <string.h>

/* One step of splitmix64 (Vigna's splitmix64.c). */
static uint64_t gen_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void gen_rng_init(struct gen_rng *rng, uint64_t seed)
{
	/* Four successive outputs of a bijection: never all zero. */
	for (unsigned i = 0; i < 4; i++)
		rng->s[i] = gen_splitmix64(&seed);
}

static uint64_t gen_rotl(uint64_t x, unsigned k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t gen_rng_next(struct gen_rng *rng)
{
	uint64_t *s = rng->s;
	const uint64_t result = gen_rotl(s[1] * 5, 7) * 9;
	const uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = gen_rotl(s[3], 45);
	return result;
}

uint64_t gen_rng_below(struct gen_rng *rng, uint64_t bound)
{
	if (bound == 0)
		return 0;
	const uint64_t threshold = (0 - bound) % bound;
	uint64_t r;
	do
		r = gen_rng_next(rng);
	while (r < threshold);
	return r % bound;
}

struct md_block gen_md_block(struct gen_rng *rng)
{
	unsigned t = 1 + (unsigned)gen_rng_below(rng, 3);
	unsigned rows = t == MD_TYPE_DOMINO_V ? MD_RED_SIZE - 1 : MD_RED_SIZE;
	unsigned cols = t == MD_TYPE_DOMINO_H ? MD_RED_SIZE - 1 : MD_RED_SIZE;
	unsigned p = (unsigned)gen_rng_below(rng, rows * cols);
	return (struct md_block){(uint8_t)t, (uint8_t)(p / cols), (uint8_t)(p % cols)};
}

/*
 * Puyo fields are built backwards, from the last group to pop to the first.
 * The search works on columns seen from the floor: level 0 is the bottom
 * cell. A field of c chains becomes one of c + 1 chains by inserting a new
 * group of four of one colour into the columns (the puyos at and above the
 * insertion level move up) so that it splits the group that popped first
 * before. The new group then pops first, and once it is gone gravity gives
 * back the old field, whose first group joins up again: one more chain.
 *
 * A candidate is a placement (tetromino, leftmost column, lowest level) and a
 * colour, visited in a random order; cheap checks drop most, the simulator
 * decides whether a survivor adds a chain. The search is depth first, at
 * most GEN_PUYO_BRANCH children per field; an attempt that spends its share
 * of work (GEN_PUYO_ATTEMPT, doubled each time) starts over from an empty
 * field, and at GEN_PUYO_BUDGET units in all the search gives up.
 */

#define GEN_GROUP      PUYO_POP_SIZE   /* puyos in an inserted group */
#define GEN_SHAPE_COLS 4	       /* widest group */
#define GEN_LEVELS     (PUYO_ROWS + 1) /* insertion levels of a column, 0..PUYO_ROWS */

/* The limits of the search: changing any of them bumps GEN_VERSION. */
#define GEN_PUYO_BRANCH	  4	   /* successful candidates tried per field */
#define GEN_PUYO_SIM_COST 16	   /* work units of one simulation */
#define GEN_PUYO_ATTEMPT  20000u   /* work of the first attempt, doubled after each */
#define GEN_PUYO_BUDGET	  2000000u /* work units in all before giving up */
#define GEN_PUYO_NOISE	  24	   /* puyos offered on top of a finished chain */

/* A field as columns. */
struct gen_stack {
	uint8_t height[PUYO_COLS];	    /* puyos in the column, 0..PUYO_ROWS */
	uint8_t cell[PUYO_COLS][PUYO_ROWS]; /* colour at [col][level], level 0 on the floor */
};

struct gen_cell {
	uint8_t col;   /* 0..PUYO_COLS-1 */
	uint8_t level; /* 0..PUYO_ROWS-1, 0 on the floor */
};

/* A group of four whose cells are contiguous in each column (a tetromino). */
struct gen_shape {
	uint8_t width;		     /* columns spanned, 1..GEN_SHAPE_COLS */
	uint8_t n[GEN_SHAPE_COLS];   /* cells in each column */
	uint8_t off[GEN_SHAPE_COLS]; /* each column's lowest cell, above the shape's lowest */
};

/* The 19 fixed tetrominoes. */
static const struct gen_shape gen_shapes[] = {
    {1, {4}, {0}},
    {4, {1, 1, 1, 1}, {0, 0, 0, 0}},
    {2, {3, 1}, {0, 0}},
    {2, {3, 1}, {0, 1}},
    {2, {3, 1}, {0, 2}},
    {2, {1, 3}, {0, 0}},
    {2, {1, 3}, {1, 0}},
    {2, {1, 3}, {2, 0}},
    {2, {2, 2}, {0, 0}},
    {2, {2, 2}, {0, 1}},
    {2, {2, 2}, {1, 0}},
    {3, {2, 1, 1}, {0, 0, 0}},
    {3, {2, 1, 1}, {0, 1, 1}},
    {3, {1, 1, 2}, {0, 0, 0}},
    {3, {1, 1, 2}, {1, 1, 0}},
    {3, {1, 2, 1}, {0, 0, 0}},
    {3, {1, 2, 1}, {1, 0, 1}},
    {3, {1, 2, 1}, {0, 0, 1}},
    {3, {1, 2, 1}, {1, 0, 0}},
};

#define GEN_SHAPES ((unsigned)(sizeof gen_shapes / sizeof gen_shapes[0]))
/* Placements: shape, leftmost column, lowest level. */
#define GEN_PLACEMENTS (GEN_SHAPES * PUYO_COLS * GEN_LEVELS)

/* Where a placement puts the new group, column by column. */
struct gen_insertion {
	uint8_t at[PUYO_COLS];		  /* insertion level in the column */
	uint8_t n[PUYO_COLS];		  /* puyos inserted there, 0 for none */
	struct gen_cell group[GEN_GROUP]; /* the new group, after insertion */
};

/* The state of one search. */
struct gen_search {
	struct gen_rng rng;
	unsigned colors;		  /* colours in use, 1..PUYO_COLORS */
	struct gen_stack stack;		  /* the field built so far */
	struct gen_cell first[GEN_GROUP]; /* the group that pops first in it */
	unsigned chains;		  /* chain count of the field */
	uint64_t work;			  /* work units spent */
	uint64_t limit;			  /* work at which this attempt stops */
};

static void gen_stack_to_field(const struct gen_stack *stack, struct puyo_field *field)
{
	puyo_field_init(field, PUYO_ROWS);
	for (unsigned c = 0; c < PUYO_COLS; c++)
		for (unsigned l = 0; l < stack->height[c]; l++)
			field->cell[PUYO_ROWS - 1 - l][c] = stack->cell[c][l];
}

/* Chain count of a field, by the real simulator on a copy. */
static unsigned gen_stack_chains(const struct gen_stack *stack)
{
	struct puyo_field field;
	struct puyo_result result;
	gen_stack_to_field(stack, &field);
	puyo_run(&field, &result);
	return result.chains;
}

/* Whether four distinct cells form one orthogonally connected piece: as a grid has no
 * triangles, exactly when three pairs of them touch. */
static bool gen_group_is_connected(const struct gen_cell *g)
{
	unsigned touching = 0;
	for (unsigned i = 0; i < GEN_GROUP; i++)
		for (unsigned j = i + 1; j < GEN_GROUP; j++)
			touching += abs(g[i].col - g[j].col) + abs(g[i].level - g[j].level) == 1;
	return touching >= GEN_GROUP - 1;
}

/* Decodes placement `p` against the field; false when it does not fit (a column would
 * overflow, the group would float) or would not move the chain's first group apart. */
static bool gen_place(const struct gen_search *s, unsigned p, struct gen_insertion *ins)
{
	const struct gen_shape *shape = &gen_shapes[p / (PUYO_COLS * GEN_LEVELS)];
	unsigned x0 = p / GEN_LEVELS % PUYO_COLS;
	unsigned base = p % GEN_LEVELS;
	unsigned k = 0;
	if (x0 + shape->width > PUYO_COLS)
		return false;
	memset(ins, 0, sizeof *ins);
	for (unsigned i = 0; i < shape->width; i++) {
		unsigned c = x0 + i, at = base + shape->off[i];
		unsigned h = s->stack.height[c];
		if (at > h || h + shape->n[i] > PUYO_ROWS)
			return false;
		ins->at[c] = (uint8_t)at;
		ins->n[c] = shape->n[i];
		for (unsigned j = 0; j < shape->n[i]; j++)
			ins->group[k++] = (struct gen_cell){(uint8_t)c, (uint8_t)(at + j)};
	}
	if (s->chains == 0)
		return true;

	struct gen_cell moved[GEN_GROUP];
	bool any = false;
	for (unsigned j = 0; j < GEN_GROUP; j++) {
		unsigned c = s->first[j].col, l = s->first[j].level;
		moved[j] = s->first[j];
		if (ins->n[c] && l >= ins->at[c]) {
			moved[j].level = (uint8_t)(l + ins->n[c]);
			any = true;
		}
	}
	return any && !gen_group_is_connected(moved);
}

/* The colours next to the new group once inserted, which it must not take: bit k for
 * colour k. */
static unsigned gen_neighbour_colors(const struct gen_stack *stack, const struct gen_insertion *ins)
{
	static const int dc[4] = {-1, 1, 0, 0};
	static const int dl[4] = {0, 0, -1, 1};
	unsigned mask = 0;
	for (unsigned i = 0; i < GEN_GROUP; i++) {
		for (unsigned d = 0; d < 4; d++) {
			int c = ins->group[i].col + dc[d];
			int l = ins->group[i].level + dl[d];
			if (c < 0 || c >= PUYO_COLS || l < 0)
				continue;
			unsigned at = ins->at[c], n = ins->n[c];
			unsigned lv = (unsigned)l;
			if (n && lv >= at && lv < at + n)
				continue; /* the group itself */
			if (n && lv >= at)
				lv -= n;
			if (lv < stack->height[c])
				mask |= 1u << stack->cell[c][lv];
		}
	}
	return mask;
}

/* Writes the field with the new group of colour `color` inserted. */
static void gen_insert(const struct gen_stack *in, const struct gen_insertion *ins, uint8_t color,
		       struct gen_stack *out)
{
	*out = *in;
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned at = ins->at[c], n = ins->n[c], h = in->height[c];
		if (!n)
			continue;
		memcpy(&out->cell[c][at + n], &in->cell[c][at], h - at);
		memset(&out->cell[c][at], color, n);
		out->height[c] = (uint8_t)(h + n);
	}
}

/* Grows the search's field to `target` chains, depth first: true with the field in place;
 * false, the field as it was, when this branch or the budget ran out. */
static bool gen_grow(struct gen_search *s, unsigned target)
{
	if (s->chains >= target)
		return true;

	const struct gen_search saved = *s; /* its field, first group and chains */
	uint16_t order[GEN_PLACEMENTS];
	unsigned kids = 0;
	for (unsigned i = 0; i < GEN_PLACEMENTS; i++)
		order[i] = (uint16_t)i;
	/* Visit the placements in a random order: Fisher-Yates, step by step. */
	for (unsigned i = 0; i < GEN_PLACEMENTS && kids < GEN_PUYO_BRANCH; i++) {
		struct gen_insertion ins;
		unsigned pick = i + (unsigned)gen_rng_below(&s->rng, GEN_PLACEMENTS - i);
		unsigned p = order[pick];
		order[pick] = order[i];
		order[i] = (uint16_t)p;
		if (s->work >= s->limit)
			return false;
		s->work++;
		if (!gen_place(s, p, &ins))
			continue;
		unsigned banned = gen_neighbour_colors(&s->stack, &ins);
		unsigned rot = (unsigned)gen_rng_below(&s->rng, s->colors);
		for (unsigned k = 0; k < s->colors && kids < GEN_PUYO_BRANCH; k++) {
			unsigned color = 1 + (rot + k) % s->colors;
			struct gen_stack next;
			if (banned & (1u << color))
				continue;
			if (s->work >= s->limit)
				return false;
			s->work += GEN_PUYO_SIM_COST;
			gen_insert(&s->stack, &ins, (uint8_t)color, &next);
			unsigned chains = gen_stack_chains(&next);
			if (chains <= saved.chains)
				continue;
			kids++;
			s->stack = next;
			memcpy(s->first, ins.group, sizeof s->first);
			s->chains = chains;
			if (gen_grow(s, target))
				return true;
			s->stack = saved.stack;
			memcpy(s->first, saved.first, sizeof s->first);
			s->chains = saved.chains;
			break; /* the next child elsewhere, not in another colour */
		}
	}
	return false;
}

/* Offers GEN_PUYO_NOISE random puyos on random columns of a finished field, each kept when
 * the chain count does not drop, so that fields do not always clear completely. */
static void gen_add_noise(struct gen_search *s)
{
	for (unsigned i = 0; i < GEN_PUYO_NOISE; i++) {
		unsigned c = (unsigned)gen_rng_below(&s->rng, PUYO_COLS);
		unsigned color = 1 + (unsigned)gen_rng_below(&s->rng, s->colors);
		unsigned h = s->stack.height[c];
		if (h >= PUYO_ROWS)
			continue;
		struct gen_stack next = s->stack;
		next.cell[c][h] = (uint8_t)color;
		next.height[c] = (uint8_t)(h + 1);
		unsigned chains = gen_stack_chains(&next);
		if (chains >= s->chains) {
			s->stack = next;
			s->chains = chains;
		}
	}
}

/* A settled field of random column heights and random colours. */
static void gen_random_stack(struct gen_search *s)
{
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		unsigned h = (unsigned)gen_rng_below(&s->rng, PUYO_ROWS + 1);
		s->stack.height[c] = (uint8_t)h;
		for (unsigned l = 0; l < h; l++)
			s->stack.cell[c][l] = (uint8_t)(1 + gen_rng_below(&s->rng, s->colors));
	}
}

bool gen_puyo_field(uint64_t seed, unsigned colors, unsigned min_chains, struct puyo_field *field)
{
	if (colors < 1 || colors > PUYO_COLORS || min_chains > GEN_PUYO_MAX_CHAINS ||
	    (colors == 1 && min_chains > 1))
		return false;
	struct gen_search s = {.colors = colors, .limit = GEN_PUYO_ATTEMPT};
	gen_rng_init(&s.rng, seed);
	if (min_chains == 0) {
		gen_random_stack(&s);
	} else {
		uint64_t attempt = GEN_PUYO_ATTEMPT;
		while (!gen_grow(&s, min_chains)) {
			if (s.work >= GEN_PUYO_BUDGET)
				return false;
			memset(&s.stack, 0, sizeof s.stack);
			s.chains = 0;
			attempt *= 2;
			s.limit =
			    s.work + attempt < GEN_PUYO_BUDGET ? s.work + attempt : GEN_PUYO_BUDGET;
		}
		gen_add_noise(&s);
	}
	gen_stack_to_field(&s.stack, field);
	return true;
}
