/* Monomino-Domino (Baekjoon 20061): the pure simulator behind md.h. Green and blue are one "falling
 * board" seen from two sides: one routine drops, scores and empties both. */
#include "dropjudge/md.h"

#include "md_lanes.h"

/*
 * Drops the piece `kind` (md_lane_shapes) at cell `cell` until one more step
 * would hit a tile or the floor, then scores full lines and empties the
 * light area. Returns the lines scored. Mask arithmetic on the whole board:
 * the piece lands just above the lightest line with a tile under one of its
 * cells; only the lines it fell into can fill, and two that fill are
 * neighbours, so removing them moves every lighter line down as one.
 */
static inline __attribute__((always_inline)) unsigned board_drop(uint32_t *board, unsigned kind,
								 unsigned cell)
{
	uint32_t b = *board;
	uint32_t spread = md_lane_shapes[0][kind] << cell, piece = md_lane_shapes[1][kind] << cell;
	unsigned hit = (unsigned)__builtin_ctz((b & spread) | PAST_FLOOR) & ~(LINE_BITS - 1u);
	b |= piece << (hit - md_lane_shapes[2][kind]);

	uint32_t pairs = b & (b >> 2);
	uint32_t full = pairs & (pairs >> 1) & LINE_ONES;
	unsigned points = 0;
	if (__builtin_expect(full != 0, 0)) {
		/* the sum of the bits of `full`, gathered in the top line */
		points = (full * LINE_ONES) >> (LINE_BITS * (MD_LINES - 1)) & LINE_MASK;
		unsigned top = (unsigned)__builtin_ctz(full); /* 4 * lightest full line */
		uint32_t lighter = (1u << top) - 1u;	      /* the lines lighter than it */
		unsigned shift = LINE_BITS * points;
		b = (b & ~(lighter | lighter << shift)) | (b & lighter) << shift;
	}

	/* the light area: one line down for each of lines 0 and 1 that holds a tile */
	unsigned light = (unsigned)((b & LINE_MASK) != 0) + ((b & LINE_MASK << LINE_BITS) != 0);
	*board = (b << LINE_BITS * light) & BOARD_MASK;
	return points;
}

void md_init(struct md_game *game)
{
	*game = (struct md_game){0, 0, 0, 0};
}

enum md_fault md_check(long long t, long long x, long long y)
{
	if (t < MD_TYPE_MONO || t > MD_TYPE_DOMINO_V)
		return MD_FAULT_TYPE;
	long long last_x = MD_RED_SIZE - 1 - (t == MD_TYPE_DOMINO_V);
	long long last_y = MD_RED_SIZE - 1 - (t == MD_TYPE_DOMINO_H);
	if (x < 0 || x > last_x)
		return MD_FAULT_X;
	if (y < 0 || y > last_y)
		return MD_FAULT_Y;
	return MD_FAULT_NONE;
}

/* One placement on a pair of boards; returns the points. */
static inline __attribute__((always_inline)) unsigned boards_place(uint32_t *green, uint32_t *blue,
								   struct md_block block)
{
	unsigned t = block.t & 3u;
	return board_drop(green, t, block.y & 3u) + board_drop(blue, 4 + t, block.x & 3u);
}

unsigned md_place(struct md_game *game, struct md_block block)
{
	unsigned points = boards_place(&game->green, &game->blue, block);
	game->score += points;
	game->moves++;
	return points;
}

/*
 * md_play() in lanes. Boards forget: two games fed the same blocks from
 * different boards soon hold the same boards. md_play() therefore cuts the
 * blocks into `lanes` stretches and plays them side by side, the first from
 * the game's boards, the others from empty boards starting MD_WARM blocks
 * early (points not counted, boards at the stretch's start kept in warm[]).
 * Then each stretch's kept boards are compared with those the stretch
 * before really left; where they differ, the stretch is replayed from the
 * real boards until both meet, and the difference in points added. The
 * answer is always that of md_place() one block after another. The
 * portable lanes are 4 stretches in scalar registers; md_avx2.c plays 16.
 */
#define MD_LANES_PORTABLE 4
#define MD_LANE_MIN	  64 /* shorter stretches are played one block after another */

/* Plays blocks[k * len + i], i < steps, on lane[k], k < 4; keeps each
 * lane's boards and points after MD_WARM steps in warm[k]. */
static void lanes_portable(struct md_lane *lane, struct md_lane *warm,
			   const struct md_block *blocks, size_t len, size_t steps)
{
	/* The lanes in locals, written out: kept in registers, not in lane[]. */
	uint32_t g0 = lane[0].green, u0 = lane[0].blue, g1 = lane[1].green, u1 = lane[1].blue;
	uint32_t g2 = lane[2].green, u2 = lane[2].blue, g3 = lane[3].green, u3 = lane[3].blue;
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	const struct md_block *p0 = blocks, *p1 = blocks + len, *p2 = blocks + 2 * len,
			      *p3 = blocks + 3 * len;
	for (size_t i = 0; i < steps; i++) {
		if (i == MD_WARM) {
			warm[0] = (struct md_lane){g0, u0, s0};
			warm[1] = (struct md_lane){g1, u1, s1};
			warm[2] = (struct md_lane){g2, u2, s2};
			warm[3] = (struct md_lane){g3, u3, s3};
		}
		s0 += boards_place(&g0, &u0, p0[i]);
		s1 += boards_place(&g1, &u1, p1[i]);
		s2 += boards_place(&g2, &u2, p2[i]);
		s3 += boards_place(&g3, &u3, p3[i]);
	}
	lane[0] = (struct md_lane){g0, u0, lane[0].score + s0};
	lane[1] = (struct md_lane){g1, u1, lane[1].score + s1};
	lane[2] = (struct md_lane){g2, u2, lane[2].score + s2};
	lane[3] = (struct md_lane){g3, u3, lane[3].score + s3};
}

/* Replays blocks[0..n) from the boards of `real` beside those of `guess`
 * (from which the lane played them to *lane); fixes *lane up to what
 * `real` gives. */
static void lane_fix(struct md_lane *lane, struct md_lane real, struct md_lane guess,
		     const struct md_block *blocks, size_t n)
{
	real.score = 0;
	guess.score = 0;
	for (size_t i = 0; i < n; i++) {
		if (real.green == guess.green && real.blue == guess.blue)
			break;
		real.score += boards_place(&real.green, &real.blue, blocks[i]);
		guess.score += boards_place(&guess.green, &guess.blue, blocks[i]);
	}
	if (real.green != guess.green || real.blue != guess.blue) {
		lane->green = real.green; /* never met: the lane is the replay */
		lane->blue = real.blue;
	}
	/* two's complement: the real boards may score less */
	lane->score += real.score - guess.score;
}

uint64_t md_play(struct md_game *game, const struct md_block *blocks, size_t n)
{
	bool avx2 = cpu_switch_on(&md_avx2);
	unsigned lanes = avx2 ? MD_LANES_AVX2 : MD_LANES_PORTABLE;
	/* lane k plays blocks[k * len + i], i < len + MD_WARM, and counts them
	 * from i = MD_WARM on (lane 0 from i = 0); the last lane then plays
	 * what is left */
	size_t len = n > MD_WARM ? (n - MD_WARM) / lanes : 0;
	size_t steps = len + MD_WARM;
	if (len < MD_LANE_MIN) {
		uint32_t green = game->green, blue = game->blue;
		uint64_t score = 0;
		for (size_t i = 0; i < n; i++)
			score += boards_place(&green, &blue, blocks[i]);
		*game = (struct md_game){green, blue, game->score + score, game->moves + n};
		return score;
	}
	struct md_lane lane[MD_LANES_AVX2] = {{game->green, game->blue, 0}};
	struct md_lane warm[MD_LANES_AVX2];
	if (avx2) {
		/* The last step reads a byte past its blocks: inside the array
		 * unless the lanes end with it; then that step is played here. */
		size_t vector_steps = lanes * len + MD_WARM < n ? steps : steps - 1;
		md_avx2_lanes(lane, warm, blocks, len, vector_steps);
		for (size_t i = vector_steps; i < steps; i++)
			for (unsigned k = 0; k < lanes; k++)
				lane[k].score += boards_place(&lane[k].green, &lane[k].blue,
							      blocks[k * len + i]);
	} else {
		lanes_portable(lane, warm, blocks, len, steps);
	}
	struct md_lane *last = &lane[lanes - 1];
	for (size_t i = lanes * len + MD_WARM; i < n; i++)
		last->score += boards_place(&last->green, &last->blue, blocks[i]);
	/* Each stretch from the boards the one before it really left. */
	uint64_t score = lane[0].score;
	for (unsigned k = 1; k < lanes; k++) {
		lane[k].score -= warm[k].score; /* not its stretch's */
		if (lane[k - 1].green != warm[k].green || lane[k - 1].blue != warm[k].blue) {
			size_t from = k * len + MD_WARM;
			size_t stretch = k == lanes - 1 ? n - from : len;
			lane_fix(&lane[k], lane[k - 1], warm[k], blocks + from, stretch);
		}
		score += lane[k].score;
	}
	*game = (struct md_game){last->green, last->blue, game->score + score, game->moves + n};
	return score;
}

unsigned md_tiles(const struct md_game *game)
{
	return (unsigned)__builtin_popcount(game->green) + (unsigned)__builtin_popcount(game->blue);
}

unsigned md_green_row(const struct md_game *game, unsigned row)
{
	return row < MD_GREEN_ROWS ? (game->green >> (LINE_BITS * row)) & LINE_MASK : 0;
}

unsigned md_blue_row(const struct md_game *game, unsigned row)
{
	_Static_assert(LINE_BITS == 4 && MD_BLUE_COLS == 6, "a blue row is bit `row` of 6 nibbles");
	if (row >= MD_BLUE_ROWS)
		return 0;
	/* Bit `row` of each line (a blue column, a nibble), gathered: the bits
	 * at 0, 4, .., 20 moved together in pairs, fours, then all six. */
	uint32_t x = (game->blue >> row) & 0x111111u;
	x = (x | x >> 3) & 0x030303u;
	x = (x | x >> 6) & 0x03000fu;
	return (x | x >> 12) & 0x3fu;
}
