/* md_play()'s lanes (private to the core): the board layout, pieces and lane shared by md.c's
 * portable lanes and md_avx2.c's AVX2 kernel, which md_play() takes given AVX2. */
#ifndef DROPJUDGE_CORE_MD_LANES_H
#define DROPJUDGE_CORE_MD_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu.h"
#include "dropjudge/md.h"

#define LINE_BITS     MD_CELLS
#define LINE_MASK     ((1u << LINE_BITS) - 1u) /* the cells of line 0 */
#define BOARD_MASK    ((1u << (LINE_BITS * MD_LINES)) - 1u)
#define LINE_ONES     0x111111u			     /* bit 4*l of every line l */
#define PAST_FLOOR    (1u << (LINE_BITS * MD_LINES)) /* one line past the floor */
#define MD_WARM	      32 /* blocks each lane but the first plays before its stretch */
#define MD_LANES_AVX2 16 /* stretches the AVX2 lanes play side by side */

/* The pieces at cell 0, by t for green and 4 + t for blue (a domino lies along one board and
 * across the other): spread (its cells in every line), piece (on lines 0 and 1) and lift
 * (LINE_BITS * its lines). */
static const uint32_t md_lane_shapes[3][8] __attribute__((aligned(32))) = {
    {0, 0x1 * LINE_ONES, 0x3 * LINE_ONES, 0x1 * LINE_ONES, 0, 0x1 * LINE_ONES, 0x1 * LINE_ONES,
     0x3 * LINE_ONES},
    {0, 0x01, 0x03, 0x11, 0, 0x01, 0x11, 0x03},
    {LINE_BITS, LINE_BITS, LINE_BITS, 2 * LINE_BITS, LINE_BITS, LINE_BITS, 2 * LINE_BITS,
     LINE_BITS},
};

/* One stretch's game: its boards and the points it scored. */
struct md_lane {
	uint32_t green;
	uint32_t blue;
	uint64_t score;
};

/* Whether md_play() takes md_avx2_lanes() (cpu_switch_on()): the processor
 * has AVX2, the build is not SIMD=0, and the tests have not turned it off
 * (cpu_switch_set(), not while other threads play). */
extern struct cpu_switch md_avx2;

/* Plays blocks[k * len + i], i < steps, on lane[k], k < MD_LANES_AVX2, adding the points to
 * lane[k].score; each lane after MD_WARM steps is kept in warm[k]. Reads one byte past each
 * block. Only when md_avx2 is on. */
void md_avx2_lanes(struct md_lane *lane, struct md_lane *warm, const struct md_block *blocks,
		   size_t len, size_t steps);

#endif
