/*
 * The Puyo Puyo chain simulator (Baekjoon 11559) with the Puyo Puyo Tsu
 * extensions. A step pops the groups of four or more of the 12 visible rows
 * at once, removes garbage next to them, then lets everything fall.
 *
 * The chain loop works on bit planes (planes.h): a colour has a group of
 * four or more exactly where one of its puyos has three neighbours of its
 * colour or two neighbouring puyos have two each (a grid has no triangles);
 * those puyos seed a fill that grows to the whole popping groups at once.
 * Pure: the C library only, no allocation.
 */
#include "dropjudge/puyo.h"

#include <limits.h>
#include <string.h>

#include "puyo_bmi2.h"

#define PUYO_MAX_GROUPS (PUYO_ROWS * PUYO_COLS / PUYO_POP_SIZE)	    /* in one step */
#define PUYO_MAX_CHAINS (PUYO_ROWS_MAX * PUYO_COLS / PUYO_POP_SIZE) /* in one run */
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
	for (int cell = 0; puyo_chars[cell]; cell++) /* seven: no call of strchr() */
		if (puyo_chars[cell] == c)
			return cell;
	return -1;
}

char puyo_cell_to_char(uint8_t cell)
{
	return cell <= PUYO_GARBAGE ? puyo_chars[cell] : '?';
}

/* ---- bit planes (plane_t, struct planes and their helpers: planes.h) ---- */

/* Which colour puyos of the visible rows have a neighbour of their own
 * colour above, below, on the left, on the right: all colours at once. */
struct same {
	plane_t up, down, left, right;
};

static inline void same_colour(const struct planes *p, plane_t colour, struct same *s)
{
	const plane_t *b = p->bit;
	plane_t diff_up = ((b[0] << 1) ^ b[0]) | ((b[1] << 1) ^ b[1]) | ((b[2] << 1) ^ b[2]);
	plane_t diff_left =
	    (to_right(b[0]) ^ b[0]) | (to_right(b[1]) ^ b[1]) | (to_right(b[2]) ^ b[2]);
	s->up = colour & (colour << 1) & ~diff_up;
	s->down = s->up >> 1;
	s->left = colour & to_right(colour) & ~diff_left;
	s->right = to_left(s->left);
}

/* The cells joined to g through same-colour neighbours. */
static inline plane_t same_spread(const struct same *s, plane_t g)
{
	return (s->up & (g << 1)) | (s->down & (g >> 1)) | (s->left & to_right(g)) |
	       (s->right & to_left(g));
}

/* The colour puyos that belong to a group of four or more, all colours at
 * once, grown from the seeds the file's head describes. */
static inline plane_t popping(const struct same *s)
{
	plane_t ud = s->up & s->down, lr = s->left & s->right;
	plane_t v = s->up | s->down, h = s->left | s->right;
	plane_t two = ud | lr | (v & h);
	plane_t three = (ud & h) | (lr & v);
	plane_t g = three | (two & same_spread(s, two));
	if (!plane_any(g))
		return g;
	for (unsigned i = 0; i < PUYO_ROWS_MAX * PUYO_COLS; i++) {
		plane_t n = g | same_spread(s, g);
		if (!plane_any(n ^ g))
			break;
		g = n;
	}
	return g;
}

/* The one-cell plane of the lowest cell of a nonempty plane. */
static inline plane_t lowest_cell(plane_t x)
{
	uint64_t lo = half(x, 0), hi = half(x, 1);
	return lo ? from_halves(lo & (~lo + 1), 0) : from_halves(0, hi & (~hi + 1));
}

void planes_from_field(struct planes *p, const struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	unsigned h0 = PUYO_ROWS_MAX - rows;
	plane_t b0 = {0}, b1 = {0}, b2 = {0};
	/* a row at a time: its six cells are the six lanes' bit h */
	for (unsigned r = 0; r < rows; r++) {
		const uint8_t *row = field->cell[r];
		plane_t v = {row[0], row[1], row[2], row[3], row[4], row[5], 0, 0};
		unsigned h = h0 + r;
		b0 |= (v & 1) << h;
		b1 |= ((v >> 1) & 1) << h;
		b2 |= ((v >> 2) & 1) << h;
	}
	p->bit[0] = b0;
	p->bit[1] = b1;
	p->bit[2] = b2;
}

static void planes_to_field(const struct planes *p, struct puyo_field *field)
{
	unsigned rows = field_rows(field);
	unsigned h0 = PUYO_ROWS_MAX - rows;
	for (unsigned r = 0; r < rows; r++) {
		unsigned h = h0 + r;
		plane_t v = ((p->bit[0] >> h) & 1) | ((p->bit[1] >> h) & 1) << 1 |
			    ((p->bit[2] >> h) & 1) << 2;
		for (unsigned c = 0; c < PUYO_COLS; c++)
			field->cell[r][c] = (uint8_t)v[c];
	}
}

/*
 * Gravity, portable: keeps the cells `keep` and lets them fall, every lane
 * at once (Hacker's Delight's compress, toward the high end): in round i
 * the kept cells with an odd count of holes above them, in units of 2^i,
 * move 2^i down. Four rounds pack each lane against bit 15; a shift by the
 * three guard bits then lays them on the floor (h = 12).
 */
static void gravity_portable(struct planes *p, plane_t keep)
{
	plane_t m = keep;
	plane_t x0 = p->bit[0] & m, x1 = p->bit[1] & m, x2 = p->bit[2] & m;
	plane_t holes_above = ~m >> 1;
#pragma GCC unroll 4
	for (unsigned i = 0; i < 4; i++) {
		plane_t odd = holes_above ^ (holes_above >> 1);
		odd ^= odd >> 2;
		odd ^= odd >> 4;
		odd ^= odd >> 8;
		plane_t move = odd & m;
		unsigned by = 1u << i;
		m = (m ^ move) | (move << by);
		plane_t t0 = x0 & move, t1 = x1 & move, t2 = x2 & move;
		x0 = (x0 ^ t0) | (t0 << by);
		x1 = (x1 ^ t1) | (t1 << by);
		x2 = (x2 ^ t2) | (t2 << by);
		holes_above &= ~odd;
	}
	const unsigned guard = 16 - PUYO_ROWS_MAX;
	p->bit[0] = x0 >> guard;
	p->bit[1] = x1 >> guard;
	p->bit[2] = x2 >> guard;
}

/* Gravity of `keep`: with BMI2 (puyo_bmi2.c) or portable. */
static inline void gravity(struct planes *p, plane_t keep, bool bmi2)
{
	if (bmi2)
		puyo_bmi2_gravity(p, keep);
	else
		gravity_portable(p, keep);
}

/* puyo_step() on settled planes; a NULL step only counts (no colours, groups or score). */
static inline __attribute__((always_inline)) bool planes_step(struct planes *p, unsigned chain,
							      struct puyo_step *step, bool bmi2)
{
	const plane_t *b = p->bit;
	plane_t occupied = planes_occupied(p);
	/* values 6 (garbage) and 7 (none) have bits 1 and 2 set */
	plane_t colour = occupied & ~(b[1] & b[2]) & PLANE_SEEN;
	struct same same;

	same_colour(p, colour, &same);
	plane_t pop = popping(&same);
	if (!plane_any(pop))
		return false;

	plane_t garbage = planes_value(p, PUYO_GARBAGE) & PLANE_SEEN & neighbours(pop);
	if (step) {
		unsigned sizes[PUYO_MAX_GROUPS];
		unsigned groups = 0, colors = 0;
		for (unsigned v = PUYO_RED; v <= PUYO_YELLOW; v++) {
			plane_t g = pop & planes_value(p, v);
			if (!plane_any(g))
				continue;
			unsigned n = count_cells(g);
			colors++;
			if (n < 2 * PUYO_POP_SIZE) { /* one group: two would have 8 or more */
				sizes[groups++] = n;
				continue;
			}
			while (plane_any(g) && groups < PUYO_MAX_GROUPS) {
				plane_t one = grow(lowest_cell(g), g);
				sizes[groups++] = count_cells(one);
				g &= ~one;
			}
		}
		unsigned popped = count_cells(pop);
		*step = (struct puyo_step){
		    chain,  popped, count_cells(garbage),
		    groups, colors, puyo_step_score(chain, popped, colors, sizes, groups)};
	}

	gravity(p, occupied & ~(pop | garbage), bmi2);
	return true;
}

unsigned planes_chains(struct planes *p)
{
	unsigned chains = 0;
	bool bmi2 = cpu_switch_on(&puyo_bmi2);
	gravity(p, planes_occupied(p), bmi2);
	while (chains < PUYO_MAX_CHAINS && planes_step(p, chains + 1, NULL, bmi2))
		chains++;
	return chains;
}

void planes_run(struct planes *p, struct puyo_result *res, struct puyo_field *field,
		puyo_step_fn *fn, void *ctx)
{
	struct puyo_step step;
	res->chains = 0;
	res->score = 0;
	bool bmi2 = cpu_switch_on(&puyo_bmi2);
	gravity(p, planes_occupied(p), bmi2);
	for (unsigned chain = 1; chain <= PUYO_MAX_CHAINS; chain++) {
		if (!planes_step(p, chain, &step, bmi2))
			break;
		res->chains = chain;
		res->score += step.score;
		if (fn) {
			planes_to_field(p, field);
			if (!fn(ctx, &step, field))
				fn = NULL; /* the run goes on; only the telling stops */
		}
	}
	res->all_clear = res->chains > 0 && !plane_any(planes_occupied(p));
}

bool puyo_field_is_floating(const struct puyo_field *field)
{
	struct planes p, settled;
	planes_from_field(&p, field);
	settled = p;
	gravity(&settled, planes_occupied(&p), cpu_switch_on(&puyo_bmi2));
	return memcmp(&p, &settled, sizeof p) != 0;
}

void puyo_settle(struct puyo_field *field)
{
	struct planes p;
	planes_from_field(&p, field);
	gravity(&p, planes_occupied(&p), cpu_switch_on(&puyo_bmi2));
	planes_to_field(&p, field);
}

bool puyo_step(struct puyo_field *field, unsigned chain, struct puyo_step *step)
{
	struct planes p;
	planes_from_field(&p, field);
	bool popped = planes_step(&p, chain, step, cpu_switch_on(&puyo_bmi2));
	if (popped)
		planes_to_field(&p, field);
	return popped;
}

void puyo_run(struct puyo_field *field, struct puyo_result *result)
{
	puyo_run_steps(field, result, NULL, NULL);
}

void puyo_run_steps(struct puyo_field *field, struct puyo_result *result, puyo_step_fn *fn,
		    void *ctx)
{
	struct planes p;
	struct puyo_result res;
	planes_from_field(&p, field);
	planes_run(&p, &res, field, fn, ctx);
	planes_to_field(&p, field);
	if (result)
		*result = res;
}

unsigned puyo_planes_chains(const struct puyo_planes *planes)
{
	struct planes p;
	memcpy(p.bit, planes->word, sizeof p.bit);
	return planes_chains(&p);
}

void puyo_planes_from_field(struct puyo_planes *planes, const struct puyo_field *field)
{
	struct planes p;
	planes_from_field(&p, field);
	memcpy(planes->word, p.bit, sizeof planes->word);
}

void puyo_planes_to_field(const struct puyo_planes *planes, unsigned rows, struct puyo_field *field)
{
	struct planes p;
	memcpy(p.bit, planes->word, sizeof p.bit);
	puyo_field_init(field, rows);
	planes_to_field(&p, field);
}

void puyo_planes_run(const struct puyo_planes *planes, unsigned rows, struct puyo_field *field,
		     struct puyo_result *result)
{
	struct planes p;
	memcpy(p.bit, planes->word, sizeof p.bit);
	puyo_field_init(field, rows);
	planes_run(&p, result, field, NULL, NULL);
	planes_to_field(&p, field);
}

/* Group bonus of one popped group: 4:0, 5:2, 6:3, ..., 10:7, 11 and more: 10. */
static unsigned group_bonus(unsigned size)
{
	return size <= PUYO_POP_SIZE ? 0 : size >= 11 ? 10 : size - 3;
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
	bonus = bonus < 1 ? 1 : bonus > PUYO_BONUS_MAX ? PUYO_BONUS_MAX : bonus;

	unsigned long long points = 10ull * popped * bonus;
	return points > UINT_MAX ? UINT_MAX : (unsigned)points;
}
