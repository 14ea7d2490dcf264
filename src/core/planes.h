/*
 * A Puyo field as bit planes (private to the core), the plane helpers that
 * the chain simulator (puyo.c), its BMI2 gravity (puyo_bmi2.c) and the
 * search (puyo_search.c) share, so that each operation is written once, and
 * the simulator's runs on them, which the search calls.
 */
#ifndef DROPJUDGE_CORE_PLANES_H
#define DROPJUDGE_CORE_PLANES_H

#include <stdbool.h>
#include <stdint.h>

#include "dropjudge/puyo.h"

/* A plane (GCC and Clang vector extensions): a column per 16-bit lane (lanes 6 and 7 stay
 * empty), bit h the cell at row h from the top of a 13-row field, three guard bits above. Its
 * bytes are those of a plane of struct puyo_planes, copied with memcpy(). */
typedef uint16_t plane_t __attribute__((vector_size(16)));

/* A field as planes: bit k of each cell value (enum puyo_cell) in bit[k]. */
struct planes {
	plane_t bit[3];
};
_Static_assert(sizeof(struct planes) == sizeof(struct puyo_planes), "the same bytes");

#define LANE_CELLS 0x1FFFu /* h = 0..12, the cells of a lane */
#define LANE_SEEN  0x1FFEu /* h = 1..12, the visible rows (where groups pop) */

/* The visible cells of every column. */
#define PLANE_SEEN                                                                                 \
	((plane_t){LANE_SEEN, LANE_SEEN, LANE_SEEN, LANE_SEEN, LANE_SEEN, LANE_SEEN, 0, 0})

/* A plane as its two 64-bit halves: columns 0-3 and columns 4-5. */
typedef uint64_t halves_t __attribute__((vector_size(16)));

/* Half i of a plane (0: columns 0-3, 1: columns 4-5). */
static inline uint64_t half(plane_t x, unsigned i)
{
	return ((halves_t)x)[i];
}

/* The plane of two halves (columns 0-3, columns 4-5). */
static inline plane_t from_halves(uint64_t lo, uint64_t hi)
{
	return (plane_t)(halves_t){lo, hi};
}

/* Whether the plane has a cell. */
static inline bool plane_any(plane_t x)
{
	return (half(x, 0) | half(x, 1)) != 0;
}

/* The number of cells of the plane, counted in both halves at once (on a baseline x86-64,
 * __builtin_popcountll() is a library call a half). */
static inline unsigned count_cells(plane_t x)
{
	halves_t v = (halves_t)x;
	v -= (v >> 1) & 0x5555555555555555u;
	v = (v & 0x3333333333333333u) + ((v >> 2) & 0x3333333333333333u);
	v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Fu; /* a count a byte */
	uint64_t bytes = v[0] + v[1];		  /* at most 16 a byte: no carry */
	return (unsigned)((bytes * 0x0101010101010101u) >> 56);
}

/* Each column moved to the next (column c to c + 1) or the previous one. */
static inline plane_t to_right(plane_t x)
{
	const plane_t zero = {0};
	return __builtin_shufflevector(x, zero, 8, 0, 1, 2, 3, 4, 5, 6);
}

static inline plane_t to_left(plane_t x)
{
	const plane_t zero = {0};
	return __builtin_shufflevector(x, zero, 1, 2, 3, 4, 5, 6, 7, 8);
}

/* The cells of the four neighbours of x (not x itself). */
static inline plane_t neighbours(plane_t x)
{
	return (x << 1) | (x >> 1) | to_right(x) | to_left(x);
}

/* Grows `seed` within `within` to all the cells connected to it. */
static inline plane_t grow(plane_t seed, plane_t within)
{
	plane_t g = seed;
	for (unsigned i = 0; i < PUYO_ROWS_MAX * PUYO_COLS; i++) {
		plane_t n = (g | neighbours(g)) & within;
		if (!plane_any(n ^ g))
			break;
		g = n;
	}
	return g;
}

/* The cells that hold a puyo. */
static inline plane_t planes_occupied(const struct planes *p)
{
	return p->bit[0] | p->bit[1] | p->bit[2];
}

/* The cells of value v (enum puyo_cell); for v 0 also guard bits, lanes 6 and 7: callers mask. */
static inline plane_t planes_value(const struct planes *p, unsigned v)
{
	const plane_t *b = p->bit;
	return ((v & 1) ? b[0] : ~b[0]) & ((v & 2) ? b[1] : ~b[1]) & ((v & 4) ? b[2] : ~b[2]);
}

/* The planes of a field (puyo_planes_from_field()). */
void planes_from_field(struct planes *p, const struct puyo_field *field);

/* Settles the planes, then counts the steps that pop (puyo_planes_chains()). */
unsigned planes_chains(struct planes *p);

/* Settles the planes, then steps until nothing pops, into *res (the planes
 * left as the final field); with fn, writes the planes into *field after
 * each step and tells fn, until fn returns false (puyo_run_steps()). */
void planes_run(struct planes *p, struct puyo_result *res, struct puyo_field *field,
		puyo_step_fn *fn, void *ctx);

#endif
