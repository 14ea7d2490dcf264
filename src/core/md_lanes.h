/*
 * md_play()'s lanes (private to the core): what md.c's portable lanes and
 * the AVX2 lanes of md_avx2.c share, the board layout and the lane, and
 * the AVX2 kernel, which md_play() takes where the processor has AVX2.
 * The two end every game the same; tests/unit/test_md.c holds md_play()
 * to md_place() with the kernel on and off (md_avx2_set()).
 */
#ifndef DROPJUDGE_CORE_MD_LANES_H
#define DROPJUDGE_CORE_MD_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dropjudge/md.h"

#define LINE_BITS  MD_CELLS
#define LINE_MASK  ((1u << LINE_BITS) - 1u) /* the cells of line 0 */
#define BOARD_MASK ((1u << (LINE_BITS * MD_LINES)) - 1u)

/* Every line (bit 4*l) of a board; times a line's mask spreads it to all lines. */
#define LINE_ONES 0x111111u

/* Bit 4*MD_LINES: one line past the floor, where a drop with no tile under it stops. */
#define PAST_FLOOR (1u << (LINE_BITS * MD_LINES))

/* Blocks each lane but the first plays before its stretch. */
#define MD_WARM 32

/* Stretches the AVX2 lanes play side by side. */
#define MD_LANES_AVX2 16

/* One stretch's game: its boards and the points it scored. */
struct md_lane {
	uint32_t green;
	uint32_t blue;
	uint64_t score;
};

/*
 * Whether md_play() takes md_avx2_lanes(): the processor has AVX2, the
 * build is not SIMD=0 (DROPJUDGE_SIMD 0), and md_avx2_set() has not
 * turned it off.
 */
bool md_avx2_on(void);

/*
 * For the tests: false makes md_avx2_on() false from now on (the portable
 * lanes everywhere); true gives it back to the processor's answer. Not for
 * use while other threads play.
 */
void md_avx2_set(bool on);

/*
 * Plays blocks[k * len + i], i < steps, on lane[k], k < MD_LANES_AVX2,
 * adding the points to lane[k].score; keeps each lane's boards and points
 * after MD_WARM steps in warm[k]. Reads one byte past its last block: the
 * caller leaves the last step to the portable code when the lanes end
 * with the array. Only when md_avx2_on() said true.
 */
void md_avx2_lanes(struct md_lane *lane, struct md_lane *warm, const struct md_block *blocks,
		   size_t len, size_t steps);

#endif
