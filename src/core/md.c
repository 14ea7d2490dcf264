/*
 * Monomino-Domino (Baekjoon 20061): the pure simulator behind md.h.
 *
 * Green and blue are the same "falling board" seen from two sides, so one
 * routine drops a piece, scores full lines and empties the light area for
 * both. A piece on a falling board is either one line holding a mask of
 * cells (height 1) or two lines holding the same single cell (height 2):
 * a horizontal domino is the first kind in green and the second in blue, a
 * vertical domino the reverse, a monomino both.
 */
#include "dropjudge/md.h"

#include <string.h>

#include "cpu.h"

#define LINE_BITS  MD_CELLS
#define LINE_MASK  ((1u << LINE_BITS) - 1u) /* the cells of line 0 */
#define BOARD_MASK ((1u << (LINE_BITS * MD_LINES)) - 1u)

/* Every line (bit 4*l) of a board; times a line's mask spreads it to all lines. */
#define LINE_ONES 0x111111u

/* Bit 4*MD_LINES: one line past the floor, where a drop with no tile under it stops. */
#define PAST_FLOOR (1u << (LINE_BITS * MD_LINES))

/* Light area: the bits a board moves towards the floor, by its lines 0 and
 * 1 (its low byte): one line for each of them that holds a tile. */
#define LIGHT_DROP(i)	(uint8_t)(LINE_BITS * (((i)&LINE_MASK) != 0) + LINE_BITS * (((i) >> 4) != 0))
#define LIGHT_DROP4(i)	LIGHT_DROP(i), LIGHT_DROP(i + 1), LIGHT_DROP(i + 2), LIGHT_DROP(i + 3)
#define LIGHT_DROP16(i) LIGHT_DROP4(i), LIGHT_DROP4(i + 4), LIGHT_DROP4(i + 8), LIGHT_DROP4(i + 12)
#define LIGHT_DROP64(i)                                                                            \
	LIGHT_DROP16(i), LIGHT_DROP16(i + 16), LIGHT_DROP16(i + 32), LIGHT_DROP16(i + 48)
static const uint8_t light_drop[256] = {LIGHT_DROP64(0), LIGHT_DROP64(64), LIGHT_DROP64(128),
					LIGHT_DROP64(192)};

/*
 * A piece on a falling board, at its cell: its cells repeated in every line
 * of the board, the piece itself at lines 0.. (one or two lines), and its
 * height in bits.
 */
struct md_shape {
	uint32_t spread; /* cell mask of each covered line, in all MD_LINES lines */
	uint8_t piece;	 /* the piece on lines 0 and 1 */
	uint8_t lift;	 /* LINE_BITS * its lines (1 or 2) */
};

/*
 * Drops `shape` until one more step would hit a tile or the floor, then
 * scores full lines and empties the light area. Returns the lines scored.
 * The board holds nothing in the light area (lines 0 and 1) between
 * placements, as the rules leave it.
 *
 * Mask arithmetic on the whole board, no loop over cells or lines: the
 * piece lands with its lowest line just above the lightest line that has a
 * tile under one of its cells (the line past the floor when none), which is
 * never above line 2, so always at least the piece's height down; a line
 * is full when the AND of its four cells, shifted onto its first bit, is
 * set. Only the one or two lines the piece fell into can fill, and two
 * that fill are neighbours: removing them moves every lighter line down by
 * as many lines. The light area is a look-up of lines 0 and 1.
 */
static inline __attribute__((always_inline)) unsigned board_drop(uint32_t *board,
								 const struct md_shape *shape)
{
	uint32_t b = *board;
	unsigned hit =
	    (unsigned)__builtin_ctz((b & shape->spread) | PAST_FLOOR) & ~(LINE_BITS - 1u);
	b |= (uint32_t)shape->piece << (hit - shape->lift);

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

	*board = (b << light_drop[b & 0xFFu]) & BOARD_MASK;
	return points;
}

/*
 * Every block as the piece it is on each board, indexed by t << 2 | cell
 * (green: the column y; blue: the row x). Green cells are columns, blue
 * cells rows: a domino lies along the cells of one board and across the
 * lines of the other. Index 0..3 (t = 0) is never used.
 */
#define SHAPE_MONO(c)                                                                              \
	{                                                                                          \
		0x1 * LINE_ONES << (c), 0x01 << (c), LINE_BITS                                     \
	}
#define SHAPE_ALONG(c)                                                                             \
	{                                                                                          \
		0x3 * LINE_ONES << (c), 0x03 << (c), LINE_BITS                                     \
	}
#define SHAPE_ACROSS(c)                                                                            \
	{                                                                                          \
		0x1 * LINE_ONES << (c), 0x11 << (c), 2 * LINE_BITS                                 \
	}
#define SHAPE_NONE                                                                                 \
	{                                                                                          \
		0, 0, LINE_BITS                                                                    \
	}

static const struct md_shape md_green_shape[16] = {
    SHAPE_NONE,	     SHAPE_NONE,      SHAPE_NONE,      SHAPE_NONE,
    SHAPE_MONO(0),   SHAPE_MONO(1),   SHAPE_MONO(2),   SHAPE_MONO(3),
    SHAPE_ALONG(0),  SHAPE_ALONG(1),  SHAPE_ALONG(2),  SHAPE_NONE,
    SHAPE_ACROSS(0), SHAPE_ACROSS(1), SHAPE_ACROSS(2), SHAPE_ACROSS(3),
};
static const struct md_shape md_blue_shape[16] = {
    SHAPE_NONE,	     SHAPE_NONE,      SHAPE_NONE,      SHAPE_NONE,
    SHAPE_MONO(0),   SHAPE_MONO(1),   SHAPE_MONO(2),   SHAPE_MONO(3),
    SHAPE_ACROSS(0), SHAPE_ACROSS(1), SHAPE_ACROSS(2), SHAPE_ACROSS(3),
    SHAPE_ALONG(0),  SHAPE_ALONG(1),  SHAPE_ALONG(2),  SHAPE_NONE,
};

void md_init(struct md_game *game)
{
	game->green = 0;
	game->blue = 0;
	game->score = 0;
	game->moves = 0;
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

const char *md_fault_text(enum md_fault fault)
{
	switch (fault) {
	case MD_FAULT_NONE:
		return "no fault";
	case MD_FAULT_TYPE:
		return "t must be 1, 2 or 3";
	case MD_FAULT_X:
		return "x must be 0..3 (0..2 for a vertical domino, t = 3)";
	case MD_FAULT_Y:
		return "y must be 0..3 (0..2 for a horizontal domino, t = 2)";
	}
	return "unknown fault";
}

/* One placement on a pair of boards; returns the points. */
static inline __attribute__((always_inline)) unsigned boards_place(uint32_t *green, uint32_t *blue,
								   struct md_block block)
{
	unsigned t = (block.t & 3u) << 2;
	unsigned points = board_drop(green, &md_green_shape[t | (block.y & 3u)]);
	points += board_drop(blue, &md_blue_shape[t | (block.x & 3u)]);
	return points;
}

unsigned md_place(struct md_game *game, struct md_block block)
{
	unsigned points = boards_place(&game->green, &game->blue, block);
	game->score += points;
	game->moves++;
	return points;
}

/*
 * md_play() in lanes. One game is a chain: each placement needs the boards
 * the previous one left, so a single game runs at the latency of a
 * placement, not at the machine's width. But boards forget: the light area
 * and full lines drop what lies under them, so two games fed the same
 * blocks from different boards soon hold the same boards, and from then on
 * score alike. md_play() therefore cuts the blocks into `lanes` stretches
 * and plays them side by side, the first from the game's boards, the others
 * from empty boards, each of these starting MD_WARM blocks before its
 * stretch (on the end of the stretch before it) to forget its empty start:
 * their points are not counted, and their boards at the start of the
 * stretch are kept. Then, stretch by stretch, those kept boards are
 * compared with the boards the stretch before really left. Nearly always
 * they are the same (97% of random stretches within 32 blocks), and the
 * stretch was played as the game plays it. When not, the start of the
 * stretch is replayed from the real boards beside the kept ones, until
 * both hold the same boards, and the difference in points added; a
 * stretch that never meets them is simply replayed whole. The answer is
 * always that of md_place() one block after another.
 *
 * The portable path plays 4 stretches in scalar registers; the AVX2 path
 * plays 16, in two groups of 8 whose green boards are in one vector and
 * blue boards in another, with the same mask arithmetic lane by lane; the
 * AVX-512 path 32, in two groups of 16.
 */
#define MD_LANES_PORTABLE 4
#define MD_LANES_AVX2	  16
#define MD_LANES_AVX512	  32
#define MD_LANES_MAX	  32
#define MD_LANE_MIN	  64 /* shorter stretches are played one block after another */
/* Blocks each lane but the first plays before its stretch: a multiple of
 * the AVX-512 path's 16-step chunks. */
#define MD_WARM 32

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define MD_HAVE_AVX2 1
#else
#define MD_HAVE_AVX2 0
#endif

struct md_lane {
	uint32_t green;
	uint32_t blue;
	uint64_t score;
};

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

#if MD_HAVE_AVX2
/*
 * board_drop() on 8 boards at once, each with its own shape: `spread`,
 * `piece` (at its cell, lines 0..) and `lift` (LINE_BITS * its lines).
 * Adds the points to *score. AVX2 has no count of trailing zeros, so the
 * lowest set bit is isolated (x & -x) and its index read from the exponent
 * of its conversion to float, exact for every power of two. Full lines are
 * removed without a branch: with none, the lightest "full line" is the one
 * past the floor and nothing moves.
 */
__attribute__((target("avx2"), always_inline)) static inline __m256i
boards_drop_avx2(__m256i b, __m256i spread, __m256i piece, __m256i lift, __m256i *score)
{
	const __m256i past = _mm256_set1_epi32((int)PAST_FLOOR);
	const __m256i ones = _mm256_set1_epi32((int)LINE_ONES);
	const __m256i one = _mm256_set1_epi32(1);
	const __m256i bias = _mm256_set1_epi32(127);
	const __m256i zero = _mm256_setzero_si256();

	/* the lowest tile under the piece, as 4 * its line */
	__m256i x = _mm256_or_si256(_mm256_and_si256(b, spread), past);
	x = _mm256_and_si256(x, _mm256_sub_epi32(zero, x));
	__m256i hit = _mm256_sub_epi32(
	    _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(x)), 23), bias);
	hit = _mm256_andnot_si256(_mm256_set1_epi32(LINE_BITS - 1), hit);
	b = _mm256_or_si256(b, _mm256_sllv_epi32(piece, _mm256_sub_epi32(hit, lift)));

	/* full lines, and their removal */
	__m256i pairs = _mm256_and_si256(b, _mm256_srli_epi32(b, 2));
	__m256i full = _mm256_and_si256(_mm256_and_si256(pairs, _mm256_srli_epi32(pairs, 1)), ones);
	__m256i points = _mm256_and_si256(
	    _mm256_srli_epi32(_mm256_mullo_epi32(full, ones), LINE_BITS * (MD_LINES - 1)),
	    _mm256_set1_epi32(LINE_MASK));
	/* the lines lighter than the lightest full one (than the floor when none) */
	__m256i f = _mm256_or_si256(full, past);
	__m256i lighter = _mm256_sub_epi32(_mm256_and_si256(f, _mm256_sub_epi32(zero, f)), one);
	__m256i shift = _mm256_slli_epi32(points, 2);
	__m256i removed = _mm256_or_si256(lighter, _mm256_sllv_epi32(lighter, shift));
	b = _mm256_or_si256(_mm256_andnot_si256(removed, b),
			    _mm256_sllv_epi32(_mm256_and_si256(b, lighter), shift));
	*score = _mm256_add_epi32(*score, points);

	/* the light area: 4 bits down for each of lines 0 and 1 that holds a tile */
	__m256i e0 = _mm256_cmpeq_epi32(_mm256_and_si256(b, _mm256_set1_epi32(LINE_MASK)), zero);
	__m256i e1 = _mm256_cmpeq_epi32(
	    _mm256_and_si256(b, _mm256_set1_epi32(LINE_MASK << LINE_BITS)), zero);
	__m256i drop = _mm256_add_epi32(_mm256_slli_epi32(_mm256_add_epi32(e0, e1), 2),
					_mm256_set1_epi32(2 * LINE_BITS));
	return _mm256_and_si256(_mm256_sllv_epi32(b, drop), _mm256_set1_epi32((int)BOARD_MASK));
}

/* Steps of the AVX2 loop between two flushes of its 32-bit scores: each
 * step adds at most 2 points per board. */
#define MD_AVX2_FLUSH ((size_t)1 << 24)

/* Where the vector loops' run of steps from `from` ends: at MD_WARM, where
 * the boards are kept, then every MD_AVX2_FLUSH steps. */
static inline size_t md_lanes_stop(size_t from, size_t steps)
{
	size_t to = from < MD_WARM ? MD_WARM : from + MD_AVX2_FLUSH;
	return to < steps ? to : steps;
}

/* Loads the 3 bytes of *block (and one more, which the caller keeps inside
 * the array) as t | x << 8 | y << 16 | junk << 24. */
static inline uint32_t block_word(const struct md_block *block)
{
	uint32_t w;
	memcpy(&w, block, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap32(w);
#endif
	return w;
}

/* The blocks of one step of 8 lanes, b, b + len, ..., b + 7 * len, as
 * words t | x << 8 | y << 16 | junk << 24 (reads a byte past each). */
__attribute__((target("avx2"), always_inline)) static inline __m256i
step_words_avx2(const struct md_block *b, size_t len)
{
	return _mm256_setr_epi32((int)block_word(b), (int)block_word(b + len),
				 (int)block_word(b + 2 * len), (int)block_word(b + 3 * len),
				 (int)block_word(b + 4 * len), (int)block_word(b + 5 * len),
				 (int)block_word(b + 6 * len), (int)block_word(b + 7 * len));
}

/*
 * The pieces as the AVX2 path looks them up: spread, piece and lift at
 * cell 0, by t for the green board (0..3) and by 4 + t for the blue one
 * (4..7); a domino lies along one board and across the other. The same
 * pieces as md_green_shape[] and md_blue_shape[] at cell 0.
 */
static const uint32_t md_lane_shapes[3][8] __attribute__((aligned(32))) = {
    {0, 0x1 * LINE_ONES, 0x3 * LINE_ONES, 0x1 * LINE_ONES, 0, 0x1 * LINE_ONES, 0x1 * LINE_ONES,
     0x3 * LINE_ONES},
    {0, 0x01, 0x03, 0x11, 0, 0x01, 0x11, 0x03},
    {LINE_BITS, LINE_BITS, LINE_BITS, 2 * LINE_BITS, LINE_BITS, LINE_BITS, 2 * LINE_BITS,
     LINE_BITS},
};

/* The pieces of one step on the green and the blue boards: spread, piece
 * and lift, as boards_drop_avx2() takes them. */
struct shapes_avx2 {
	__m256i green[3], blue[3];
};

/* The pieces of the blocks of words w: looked up in md_lane_shapes by t
 * (green) and by 4 + t (blue), then moved to cell y (green) or x (blue). */
__attribute__((target("avx2"), always_inline)) static inline struct shapes_avx2
shapes_avx2(__m256i w)
{
	const __m256i spread_of =
	    _mm256_load_si256((const __m256i *)(const void *)md_lane_shapes[0]);
	const __m256i piece_of =
	    _mm256_load_si256((const __m256i *)(const void *)md_lane_shapes[1]);
	const __m256i lift_of = _mm256_load_si256((const __m256i *)(const void *)md_lane_shapes[2]);
	const __m256i three = _mm256_set1_epi32(3);
	__m256i t = _mm256_and_si256(w, three);
	__m256i x = _mm256_and_si256(_mm256_srli_epi32(w, 8), three);
	__m256i y = _mm256_and_si256(_mm256_srli_epi32(w, 16), three);
	__m256i tb = _mm256_add_epi32(t, _mm256_set1_epi32(4));
	return (struct shapes_avx2){
	    .green = {_mm256_sllv_epi32(_mm256_permutevar8x32_epi32(spread_of, t), y),
		      _mm256_sllv_epi32(_mm256_permutevar8x32_epi32(piece_of, t), y),
		      _mm256_permutevar8x32_epi32(lift_of, t)},
	    .blue = {_mm256_sllv_epi32(_mm256_permutevar8x32_epi32(spread_of, tb), x),
		     _mm256_sllv_epi32(_mm256_permutevar8x32_epi32(piece_of, tb), x),
		     _mm256_permutevar8x32_epi32(lift_of, tb)},
	};
}

/* Drops the pieces s on the green boards *g and the blue boards *u; adds
 * their points to *sg and *su. */
__attribute__((target("avx2"), always_inline)) static inline void
drop_avx2(const struct shapes_avx2 *s, __m256i *g, __m256i *u, __m256i *sg, __m256i *su)
{
	*g = boards_drop_avx2(*g, s->green[0], s->green[1], s->green[2], sg);
	*u = boards_drop_avx2(*u, s->blue[0], s->blue[1], s->blue[2], su);
}

/*
 * Plays blocks[k * len + i], i < steps, on lane[k], k < 16, and keeps each
 * lane's boards and points after MD_WARM steps in warm[k]: two groups of 8
 * lanes, each group's green and blue boards in one vector apiece. Each
 * step of a board waits on the one before (tens of cycles of latency), so
 * the four independent vectors keep the vector units busy where two would
 * leave them waiting. Reads one byte past each block it plays: the caller
 * keeps blocks[15 * len + steps - 1] off the end of the array.
 */
__attribute__((target("avx2"))) static void lanes_avx2(struct md_lane *lane, struct md_lane *warm,
						       const struct md_block *blocks, size_t len,
						       size_t steps)
{
	enum { GROUP = MD_LANES_AVX2 / 2 };
	__m256i g[2], u[2];
	for (unsigned h = 0; h < 2; h++) {
		const struct md_lane *l = lane + GROUP * h;
		g[h] = _mm256_setr_epi32((int)l[0].green, (int)l[1].green, (int)l[2].green,
					 (int)l[3].green, (int)l[4].green, (int)l[5].green,
					 (int)l[6].green, (int)l[7].green);
		u[h] = _mm256_setr_epi32((int)l[0].blue, (int)l[1].blue, (int)l[2].blue,
					 (int)l[3].blue, (int)l[4].blue, (int)l[5].blue,
					 (int)l[6].blue, (int)l[7].blue);
	}
	uint64_t total[MD_LANES_AVX2] = {0};

	for (size_t from = 0, to; from < steps; from = to) {
		to = md_lanes_stop(from, steps);
		__m256i sg[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
		__m256i su[2] = {_mm256_setzero_si256(), _mm256_setzero_si256()};
		for (size_t i = from; i < to; i++) {
#pragma GCC unroll 2
			for (unsigned h = 0; h < 2; h++) {
				struct shapes_avx2 p =
				    shapes_avx2(step_words_avx2(blocks + GROUP * h * len + i, len));
				drop_avx2(&p, &g[h], &u[h], &sg[h], &su[h]);
			}
		}
		for (unsigned h = 0; h < 2; h++) {
			uint32_t a[GROUP], c[GROUP];
			_mm256_storeu_si256((__m256i *)a, sg[h]);
			_mm256_storeu_si256((__m256i *)c, su[h]);
			for (unsigned k = 0; k < GROUP; k++)
				total[GROUP * h + k] += (uint64_t)a[k] + c[k];
			if (to != MD_WARM)
				continue;
			_mm256_storeu_si256((__m256i *)a, g[h]);
			_mm256_storeu_si256((__m256i *)c, u[h]);
			for (unsigned k = 0; k < GROUP; k++)
				warm[GROUP * h + k] =
				    (struct md_lane){a[k], c[k], total[GROUP * h + k]};
		}
	}
	for (unsigned h = 0; h < 2; h++) {
		uint32_t gs[GROUP], us[GROUP];
		_mm256_storeu_si256((__m256i *)gs, g[h]);
		_mm256_storeu_si256((__m256i *)us, u[h]);
		for (unsigned k = 0; k < GROUP; k++) {
			struct md_lane *l = &lane[GROUP * h + k];
			*l = (struct md_lane){gs[k], us[k], l->score + total[GROUP * h + k]};
		}
	}
}

/*
 * The AVX-512 lanes keep each board upside down: line l at bits
 * 4 * (MD_LINES - l) + cell, the floor line (5) at bits 4..7 and the light
 * area on top (lines 0 and 1 at bits 24..27 and 20..23), bits 0..3 empty.
 * With the board this way up, the tile a piece comes to rest on is the
 * highest set bit of board & spread, one count of leading zeros (with bit
 * 0 set for the floor under it); the lightest full line is the highest bit
 * of the full lines; and the light area holds tiles in exactly as many
 * lines as the count of leading zeros of the whole board says. A board in
 * this layout is called turned here.
 */
#define TURNED_LINES (LINE_ONES << 4) /* the first bit of every line */
#define TURNED_FLOOR 1u		      /* under the floor line, where a piece stops */

/* A board of board_drop() turned, and back (the light area is empty). */
static inline uint32_t board_turn(uint32_t b)
{
	uint32_t t = 0;
	for (unsigned l = 0; l < MD_LINES; l++)
		t |= ((b >> (LINE_BITS * l)) & LINE_MASK) << (LINE_BITS * (MD_LINES - l));
	return t;
}

static inline uint32_t board_unturn(uint32_t t)
{
	uint32_t b = 0;
	for (unsigned l = 0; l < MD_LINES; l++)
		b |= ((t >> (LINE_BITS * (MD_LINES - l))) & LINE_MASK) << (LINE_BITS * l);
	return b;
}

/*
 * The pieces as the AVX-512 lanes look them up, for turned boards: the
 * cells a piece falls through (in every line) and the piece itself with
 * its lowest line at bits 0..3. A block is one key, x + 4 * t + 16 * y:
 * its low four bits index the blue tables (the row x, then t), the four
 * above the lowest two the green ones (t, then the column y). A domino lies along one board and
 * across the other, as in md_green_shape[] and md_blue_shape[]; keys no block has (t = 0, a domino
 * past the edge) give no piece and never meet a tile.
 */
#define TURNED_ALONG(c)	 (c)		  /* a line of one or two cells */
#define TURNED_ACROSS(c) ((c) | (c) << 4) /* one cell in two lines */

/* A row of four per y (green) or per t (blue). */
/* clang-format off */
static const uint32_t md_turned_green_spread[16] __attribute__((aligned(64))) = {
    0, TURNED_LINES * 1u, TURNED_LINES * 3u,  TURNED_LINES * 1u,
    0, TURNED_LINES * 2u, TURNED_LINES * 6u,  TURNED_LINES * 2u,
    0, TURNED_LINES * 4u, TURNED_LINES * 12u, TURNED_LINES * 4u,
    0, TURNED_LINES * 8u, 0,                  TURNED_LINES * 8u,
};
static const uint32_t md_turned_green_piece[16] __attribute__((aligned(64))) = {
    0, TURNED_ALONG(1u), TURNED_ALONG(3u),  TURNED_ACROSS(1u),
    0, TURNED_ALONG(2u), TURNED_ALONG(6u),  TURNED_ACROSS(2u),
    0, TURNED_ALONG(4u), TURNED_ALONG(12u), TURNED_ACROSS(4u),
    0, TURNED_ALONG(8u), 0,                 TURNED_ACROSS(8u),
};
static const uint32_t md_turned_blue_spread[16] __attribute__((aligned(64))) = {
    0,                 0,                 0,                  0,
    TURNED_LINES * 1u, TURNED_LINES * 2u, TURNED_LINES * 4u,  TURNED_LINES * 8u,
    TURNED_LINES * 1u, TURNED_LINES * 2u, TURNED_LINES * 4u,  TURNED_LINES * 8u,
    TURNED_LINES * 3u, TURNED_LINES * 6u, TURNED_LINES * 12u, 0,
};
static const uint32_t md_turned_blue_piece[16] __attribute__((aligned(64))) = {
    0,                 0,                 0,                 0,
    TURNED_ALONG(1u),  TURNED_ALONG(2u),  TURNED_ALONG(4u),  TURNED_ALONG(8u),
    TURNED_ACROSS(1u), TURNED_ACROSS(2u), TURNED_ACROSS(4u), TURNED_ACROSS(8u),
    TURNED_ALONG(3u),  TURNED_ALONG(6u),  TURNED_ALONG(12u), 0,
};
/* clang-format on */

/* The light area's push, in bits, by the leading zeros of a turned board
 * (modulo 32: an empty board has 32): 8 with a tile in line 0 (bits
 * 24..27), 4 with one in line 1 only. */
static const uint32_t md_turned_push[32] __attribute__((aligned(64))) = {
    0, 8, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/*
 * board_drop() on 16 turned boards with AVX-512, each with its own piece:
 * `spread` and `piece` as the tables above give them. Adds the points to
 * *score. The piece is rotated up onto the line above the highest tile
 * under it (rotating by the leading zeros of that tile's line puts bits
 * 0..7 there, and never past the top); full lines are found as
 * board_drop() does; every line from the heaviest full one up takes the
 * line as many lines lighter as there are full ones (two that fill are
 * neighbours), the lines under it staying; the light area pushes the board
 * down by the look-up of its leading zeros, and what falls past the floor
 * is gone. Always inlined: as a call, every vector of the lanes would go
 * through the stack around it, and the score with it.
 */
__attribute__((target("avx512f,avx512cd,avx512vpopcntdq"), always_inline)) static inline __m512i
boards_drop_avx512(__m512i b, __m512i spread, __m512i piece, __m512i *score)
{
	const __m512i low = _mm512_set1_epi32(LINE_BITS - 1);
	const __m512i ones = _mm512_set1_epi32((int)TURNED_LINES);
	const __m512i floor = _mm512_set1_epi32((int)TURNED_FLOOR);

	/* (b & spread) | floor */
	__m512i under = _mm512_ternarylogic_epi32(b, spread, floor, 0xEA);
	__m512i rest = _mm512_andnot_si512(low, _mm512_lzcnt_epi32(under));
	b = _mm512_or_si512(b, _mm512_rorv_epi32(piece, rest));

	__m512i pairs = _mm512_and_si512(b, _mm512_srli_epi32(b, 2));
	__m512i full = _mm512_ternarylogic_epi32(pairs, _mm512_srli_epi32(pairs, 1), ones, 0x80);
	__m512i points = _mm512_popcnt_epi32(full);
	*score = _mm512_add_epi32(*score, points);
	/* the bits under the heaviest full line, (full - 1) & ~full; every bit
	 * when no line is full */
	__m512i heavier = _mm512_andnot_si512(full, _mm512_add_epi32(full, _mm512_set1_epi32(-1)));
	__m512i shift = _mm512_slli_epi32(points, 2);
	/* heavier ? b : (b >> shift), bit by bit */
	b = _mm512_ternarylogic_epi32(heavier, b, _mm512_srlv_epi32(b, shift), 0xCA);

	const __m512i push_lo = _mm512_load_si512((const void *)md_turned_push);
	const __m512i push_hi = _mm512_load_si512((const void *)(md_turned_push + 16));
	__m512i push = _mm512_permutex2var_epi32(push_lo, _mm512_lzcnt_epi32(b), push_hi);
	return _mm512_srlv_epi32(b, push);
}

/* The pieces of one step of 16 lanes on both boards. */
struct shapes_avx512 {
	__m512i green[2], blue[2]; /* spread, piece */
};

/* The pieces of keys k (a lane each, x + 4 * t + 16 * y). */
__attribute__((target("avx512f"), always_inline)) static inline struct shapes_avx512
shapes_avx512(__m512i k)
{
	__m512i kg = _mm512_srli_epi32(k, 2);
	return (struct shapes_avx512){
	    .green = {_mm512_permutexvar_epi32(
			  kg, _mm512_load_si512((const void *)md_turned_green_spread)),
		      _mm512_permutexvar_epi32(
			  kg, _mm512_load_si512((const void *)md_turned_green_piece))},
	    .blue = {_mm512_permutexvar_epi32(
			 k, _mm512_load_si512((const void *)md_turned_blue_spread)),
		     _mm512_permutexvar_epi32(
			 k, _mm512_load_si512((const void *)md_turned_blue_piece))},
	};
}

/* The weights of t, x, y and the junk byte of a block word in its key. */
#define MD_KEY_WEIGHTS_TXY (4 | 1 << 8 | 16 << 16)

/* The keys of words t | x << 8 | y << 16 | junk << 24: one sum of bytes
 * times their weights (AVX-512 VNNI). */
__attribute__((target("avx512f,avx512vnni"), always_inline)) static inline __m512i
keys_of_words_avx512(__m512i w)
{
	return _mm512_dpbusd_epi32(_mm512_setzero_si512(), w,
				   _mm512_set1_epi32(MD_KEY_WEIGHTS_TXY));
}

/* The blocks of one step of 16 lanes, b, b + len, ..., b + 15 * len, as
 * words (reads a byte past each): one gather. */
__attribute__((target("avx512f"), always_inline)) static inline __m512i
step_words_avx512(const struct md_block *b, size_t len)
{
	const int sl = (int)(len * sizeof *b);
	const __m512i stride =
	    _mm512_setr_epi32(0, sl, 2 * sl, 3 * sl, 4 * sl, 5 * sl, 6 * sl, 7 * sl, 8 * sl, 9 * sl,
			      10 * sl, 11 * sl, 12 * sl, 13 * sl, 14 * sl, 15 * sl);
	return _mm512_i32gather_epi32(stride, (const void *)b, 1);
}

/* Drops the pieces s on the turned green boards *g and blue boards *u;
 * adds their points to *sg and *su. */
__attribute__((target("avx512f,avx512cd,avx512vpopcntdq"), always_inline)) static inline void
drop_avx512(const struct shapes_avx512 *s, __m512i *g, __m512i *u, __m512i *sg, __m512i *su)
{
	*g = boards_drop_avx512(*g, s->green[0], s->green[1], sg);
	*u = boards_drop_avx512(*u, s->blue[0], s->blue[1], su);
}

/*
 * The blocks of 16 steps of 16 lanes without a gather (on AMD's cores a
 * gather of 16 costs as much as the rest of a step): each lane's 16 blocks
 * (48 bytes, read as 64) become 16 words t | x << 8 | y << 16 with one
 * byte permutation, their keys with one sum of weighted bytes, and bytes
 * again; a 16 x 16 transposition of the keys, by four rounds of
 * unpacking, gives each step its 16 keys, a lane per byte.
 */
#define MD_KEY_STEPS 16
/* Steps a lane must have past the first of a transposed chunk: its last
 * lane reads 64 bytes from there, and may read a byte past its last step. */
#define MD_KEY_REACH 21

/* Where vpermb finds the bytes of word j (of 16): t, x and y of block j,
 * and a junk byte (weighed 0). */
#define MD_KEY_PICK(j) 3 * (j), 3 * (j) + 1, 3 * (j) + 2, 0
static const unsigned char md_key_pick[64] __attribute__((aligned(64))) = {
    MD_KEY_PICK(0),  MD_KEY_PICK(1),  MD_KEY_PICK(2),  MD_KEY_PICK(3),
    MD_KEY_PICK(4),  MD_KEY_PICK(5),  MD_KEY_PICK(6),  MD_KEY_PICK(7),
    MD_KEY_PICK(8),  MD_KEY_PICK(9),  MD_KEY_PICK(10), MD_KEY_PICK(11),
    MD_KEY_PICK(12), MD_KEY_PICK(13), MD_KEY_PICK(14), MD_KEY_PICK(15)};

/* The lane whose keys go in row j of a transposition: its rounds put row
 * j's keys at byte bit_reverse(j) of each step, so rows are fed reversed. */
static const unsigned char md_key_row_lane[16] = {0, 8, 4, 12, 2, 10, 6, 14,
						  1, 9, 5, 13, 3, 11, 7, 15};

/* The keys of the 16 blocks at p, a byte each (reads p's 64 bytes). */
__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vl,avx512vnni"),
	       always_inline)) static inline __m128i
md_keys16(const struct md_block *p, __m512i pick)
{
	__m512i words = _mm512_permutexvar_epi8(pick, _mm512_loadu_si512((const void *)p));
	return _mm512_cvtepi32_epi8(keys_of_words_avx512(words));
}

/* Transposes 16 rows of 16 bytes (row j's bytes to byte bit_reverse(j) of
 * each row). */
__attribute__((target("avx512f,avx512vl"), always_inline)) static inline void
md_transpose16(__m128i r[16])
{
	__m128i n[16];
#define MD_ROUND(lo, hi)                                                                           \
	do {                                                                                       \
		for (unsigned j = 0; j < 8; j++) {                                                 \
			n[2 * j] = lo(r[j], r[j + 8]);                                             \
			n[2 * j + 1] = hi(r[j], r[j + 8]);                                         \
		}                                                                                  \
		for (unsigned j = 0; j < 16; j++)                                                  \
			r[j] = n[j];                                                               \
	} while (0)
	MD_ROUND(_mm_unpacklo_epi8, _mm_unpackhi_epi8);
	MD_ROUND(_mm_unpacklo_epi16, _mm_unpackhi_epi16);
	MD_ROUND(_mm_unpacklo_epi32, _mm_unpackhi_epi32);
	MD_ROUND(_mm_unpacklo_epi64, _mm_unpackhi_epi64);
#undef MD_ROUND
}

/* Whether lanes_avx512() can address blocks[15 * len + i] of a group with
 * 32-bit offsets. */
static bool lanes_avx512_fits(size_t len)
{
	return len <= (size_t)INT32_MAX / (MD_LANES_AVX2 * sizeof(struct md_block));
}

/*
 * lanes_avx2() with AVX-512: 32 lanes in two groups of 16, each group's
 * green boards in one vector and its blue ones in another, turned. The
 * blocks of 16 steps at a time come from md_keys16() and md_transpose16();
 * the last steps, from a gather each. A step of a board waits on the one
 * before (some thirty cycles), so the four independent vectors keep the
 * units busy where two would leave them waiting (three or four groups
 * measured slower). Reads one byte past each block it plays, as
 * lanes_avx2() does: the caller keeps blocks[31 * len + steps - 1] off the
 * end of the array.
 */
__attribute__((
    target("avx512f,avx512cd,avx512bw,avx512vbmi,avx512vl,avx512vpopcntdq,avx512vnni"))) static void
lanes_avx512(struct md_lane *lane, struct md_lane *warm, const struct md_block *blocks, size_t len,
	     size_t steps)
{
	enum { GROUPS = MD_LANES_AVX512 / 16 };
	const __m512i pick = _mm512_load_si512((const void *)md_key_pick);
	uint32_t gs[MD_LANES_AVX512], us[MD_LANES_AVX512];
	for (unsigned k = 0; k < MD_LANES_AVX512; k++) {
		gs[k] = board_turn(lane[k].green);
		us[k] = board_turn(lane[k].blue);
	}
	__m512i g[GROUPS], u[GROUPS];
	for (unsigned q = 0; q < GROUPS; q++) {
		g[q] = _mm512_loadu_si512(gs + 16 * q);
		u[q] = _mm512_loadu_si512(us + 16 * q);
	}
	uint64_t total[MD_LANES_AVX512] = {0};

	for (size_t from = 0, to; from < steps; from = to) {
		to = md_lanes_stop(from, steps);
		__m512i sg[GROUPS], su[GROUPS];
		for (unsigned q = 0; q < GROUPS; q++)
			sg[q] = su[q] = _mm512_setzero_si512();
		size_t i = from;
		while (i + MD_KEY_STEPS <= to && i + MD_KEY_REACH <= steps) {
			uint8_t kb[MD_KEY_STEPS][MD_LANES_AVX512] __attribute__((aligned(64)));
			for (unsigned q = 0; q < GROUPS; q++) {
				__m128i r[16];
				for (unsigned j = 0; j < 16; j++)
					r[j] = md_keys16(
					    blocks + (16 * q + md_key_row_lane[j]) * len + i, pick);
				md_transpose16(r);
				for (unsigned k = 0; k < MD_KEY_STEPS; k++)
					_mm_store_si128((__m128i *)(void *)(kb[k] + 16 * q), r[k]);
			}
			for (unsigned k = 0; k < MD_KEY_STEPS; k++, i++) {
#pragma GCC unroll 4
				for (unsigned q = 0; q < GROUPS; q++) {
					struct shapes_avx512 p =
					    shapes_avx512(_mm512_cvtepu8_epi32(_mm_load_si128(
						(const __m128i *)(const void *)(kb[k] + 16 * q))));
					drop_avx512(&p, &g[q], &u[q], &sg[q], &su[q]);
				}
			}
		}
		for (; i < to; i++) {
#pragma GCC unroll 4
			for (unsigned q = 0; q < GROUPS; q++) {
				struct shapes_avx512 p = shapes_avx512(keys_of_words_avx512(
				    step_words_avx512(blocks + 16 * q * len + i, len)));
				drop_avx512(&p, &g[q], &u[q], &sg[q], &su[q]);
			}
		}
		uint32_t a[MD_LANES_AVX512];
		for (unsigned q = 0; q < GROUPS; q++)
			_mm512_storeu_si512(a + 16 * q, _mm512_add_epi32(sg[q], su[q]));
		for (unsigned k = 0; k < MD_LANES_AVX512; k++)
			total[k] += a[k];
		if (to == MD_WARM) {
			for (unsigned q = 0; q < GROUPS; q++) {
				_mm512_storeu_si512(gs + 16 * q, g[q]);
				_mm512_storeu_si512(us + 16 * q, u[q]);
			}
			for (unsigned k = 0; k < MD_LANES_AVX512; k++)
				warm[k] = (struct md_lane){board_unturn(gs[k]), board_unturn(us[k]),
							   total[k]};
		}
	}
	for (unsigned q = 0; q < GROUPS; q++) {
		_mm512_storeu_si512(gs + 16 * q, g[q]);
		_mm512_storeu_si512(us + 16 * q, u[q]);
	}
	for (unsigned k = 0; k < MD_LANES_AVX512; k++)
		lane[k] = (struct md_lane){board_unturn(gs[k]), board_unturn(us[k]),
					   lane[k].score + total[k]};
}
#endif

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

bool md_impl_supported(enum md_impl impl)
{
	if (impl != MD_IMPL_AVX2 && impl != MD_IMPL_AVX512)
		return impl == MD_IMPL_AUTO || impl == MD_IMPL_PORTABLE;
#if MD_HAVE_AVX2
	if (impl == MD_IMPL_AVX512)
		return CPU_HAS(AVX2, "avx2") && CPU_HAS(AVX512F, "avx512f") &&
		       CPU_HAS(AVX512CD, "avx512cd") && CPU_HAS(AVX512BW, "avx512bw") &&
		       CPU_HAS(AVX512_VBMI, "avx512vbmi") && CPU_HAS(AVX512VL, "avx512vl") &&
		       CPU_HAS(AVX512_VPOPCNTDQ, "avx512vpopcntdq") &&
		       CPU_HAS(AVX512_VNNI, "avx512vnni");
	return CPU_HAS(AVX2, "avx2");
#else
	return false;
#endif
}

enum md_impl md_impl_auto(void)
{
#if DROPJUDGE_SIMD
	if (md_impl_supported(MD_IMPL_AVX512))
		return MD_IMPL_AVX512;
	if (md_impl_supported(MD_IMPL_AVX2))
		return MD_IMPL_AVX2;
#endif
	return MD_IMPL_PORTABLE;
}

uint64_t md_play_impl(struct md_game *game, const struct md_block *blocks, size_t n,
		      enum md_impl impl)
{
	/* Too short for two stretches whatever the lanes (len below): one
	 * block after another, with no lanes to set up. */
	if (n < MD_WARM + MD_LANE_MIN) {
		uint32_t green = game->green, blue = game->blue;
		uint64_t score = 0;
		for (size_t i = 0; i < n; i++)
			score += boards_place(&green, &blue, blocks[i]);
		game->green = green;
		game->blue = blue;
		game->score += score;
		game->moves += n;
		return score;
	}
	struct md_lane lane[MD_LANES_MAX] = {{game->green, game->blue, 0}};
	if (impl == MD_IMPL_AUTO)
		impl = md_impl_auto();
	bool avx512 = impl == MD_IMPL_AVX512;
	bool avx2 = avx512 || impl == MD_IMPL_AVX2;
	unsigned lanes = avx2 ? MD_LANES_AVX2 : MD_LANES_PORTABLE;
#if MD_HAVE_AVX2
	if (avx512 && lanes_avx512_fits(n / MD_LANES_AVX512))
		lanes = MD_LANES_AVX512;
	else
		avx512 = false;
#endif
	/* lane k plays blocks[k * len + i], i < len + MD_WARM, and counts them
	 * from i = MD_WARM on (lane 0 from i = 0); the last lane then plays
	 * what is left */
	size_t len = n > MD_WARM ? (n - MD_WARM) / lanes : 0;
	size_t steps = len + MD_WARM;
	struct md_lane warm[MD_LANES_MAX];

	if (len < MD_LANE_MIN) {
		for (size_t i = 0; i < n; i++)
			lane[0].score += boards_place(&lane[0].green, &lane[0].blue, blocks[i]);
		goto out;
	}
#if MD_HAVE_AVX2
	if (avx2) {
		/* The last step reads a byte past its blocks: inside the array
		 * unless the lanes end with it; then that step is played here. */
		size_t vector_steps = lanes * len + MD_WARM < n ? steps : steps - 1;
		if (avx512)
			lanes_avx512(lane, warm, blocks, len, vector_steps);
		else
			lanes_avx2(lane, warm, blocks, len, vector_steps);
		for (size_t i = vector_steps; i < steps; i++)
			for (unsigned k = 0; k < lanes; k++)
				lane[k].score += boards_place(&lane[k].green, &lane[k].blue,
							      blocks[k * len + i]);
	} else {
		lanes_portable(lane, warm, blocks, len, steps);
	}
#else
	lanes_portable(lane, warm, blocks, len, steps);
#endif
	for (size_t i = lanes * len + MD_WARM; i < n; i++)
		lane[lanes - 1].score +=
		    boards_place(&lane[lanes - 1].green, &lane[lanes - 1].blue, blocks[i]);
	/* Each stretch from the boards the one before it really left. */
	for (unsigned k = 1; k < lanes; k++) {
		lane[k].score -= warm[k].score; /* not its stretch's */
		if (lane[k - 1].green != warm[k].green || lane[k - 1].blue != warm[k].blue) {
			size_t from = k * len + MD_WARM;
			size_t stretch = k == lanes - 1 ? n - from : len;
			lane_fix(&lane[k], lane[k - 1], warm[k], blocks + from, stretch);
		}
		lane[0].score += lane[k].score;
	}
	lane[0].green = lane[lanes - 1].green;
	lane[0].blue = lane[lanes - 1].blue;
out:
	game->green = lane[0].green;
	game->blue = lane[0].blue;
	game->score += lane[0].score;
	game->moves += n;
	return lane[0].score;
}

uint64_t md_play(struct md_game *game, const struct md_block *blocks, size_t n)
{
	return md_play_impl(game, blocks, n, MD_IMPL_AUTO);
}

/* Tiles on one falling board. */
static unsigned board_tiles(uint32_t board)
{
	unsigned n = 0;
	for (; board; board &= board - 1u)
		n++;
	return n;
}

unsigned md_tiles(const struct md_game *game)
{
	return board_tiles(game->green) + board_tiles(game->blue);
}

bool md_green_has(const struct md_game *game, unsigned row, unsigned col)
{
	if (row >= MD_GREEN_ROWS || col >= MD_GREEN_COLS)
		return false;
	return (game->green >> (LINE_BITS * row + col)) & 1u;
}

bool md_blue_has(const struct md_game *game, unsigned row, unsigned col)
{
	if (row >= MD_BLUE_ROWS || col >= MD_BLUE_COLS)
		return false;
	return (game->blue >> (LINE_BITS * col + row)) & 1u;
}

unsigned md_green_row(const struct md_game *game, unsigned row)
{
	if (row >= MD_GREEN_ROWS)
		return 0;
	return (game->green >> (LINE_BITS * row)) & LINE_MASK;
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
