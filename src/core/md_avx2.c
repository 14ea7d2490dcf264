/* md_play()'s lanes with AVX2 (see md_lanes.h): 16 stretches side by side, with md.c's mask
 * arithmetic lane by lane. Left out of a SIMD=0 build. */
#include "md_lanes.h"

#include <string.h>

#if DROPJUDGE_SIMD && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/*
 * board_drop() on 8 boards at once, each with its own piece; adds the
 * points to *score. The index of the lowest set bit is read from the
 * exponent of its conversion to float (AVX2 has no count of trailing
 * zeros); with no full line, the "full line" is the one past the floor.
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

/* Steps between two flushes of the 32-bit scores (at most 2 points a step). */
#define MD_AVX2_FLUSH ((size_t)1 << 24)

/* Where the run of steps from `from` ends: at MD_WARM, then every
 * MD_AVX2_FLUSH steps. */
static inline size_t md_lanes_stop(size_t from, size_t steps)
{
	size_t to = from < MD_WARM ? MD_WARM : from + MD_AVX2_FLUSH;
	return to < steps ? to : steps;
}

/* Loads *block and the byte after it as t | x << 8 | y << 16 | junk << 24. */
static inline uint32_t block_word(const struct md_block *block)
{
	uint32_t w;
	memcpy(&w, block, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap32(w);
#endif
	return w;
}

/* The blocks b, b + len, ..., b + 7 * len of one step of 8 lanes, as words. */
__attribute__((target("avx2"), always_inline)) static inline __m256i
step_words_avx2(const struct md_block *b, size_t len)
{
	return _mm256_setr_epi32((int)block_word(b), (int)block_word(b + len),
				 (int)block_word(b + 2 * len), (int)block_word(b + 3 * len),
				 (int)block_word(b + 4 * len), (int)block_word(b + 5 * len),
				 (int)block_word(b + 6 * len), (int)block_word(b + 7 * len));
}

/* The pieces of one step on the green and the blue boards: spread, piece, lift. */
struct shapes_avx2 {
	__m256i green[3], blue[3];
};

/* The pieces of the blocks of words w, moved to cell y (green) or x (blue). */
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

/* Two groups of 8 lanes, each group's green and blue boards in a vector:
 * four independent vectors keep the vector units busy. */
__attribute__((target("avx2"))) void md_avx2_lanes(struct md_lane *lane, struct md_lane *warm,
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
				g[h] = boards_drop_avx2(g[h], p.green[0], p.green[1], p.green[2],
							&sg[h]);
				u[h] =
				    boards_drop_avx2(u[h], p.blue[0], p.blue[1], p.blue[2], &su[h]);
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

static bool processor_has_it(void)
{
	return CPU_HAS(AVX2, "avx2");
}

struct cpu_switch md_avx2 = {-1, processor_has_it};
#else
void md_avx2_lanes(struct md_lane *lane, struct md_lane *warm, const struct md_block *blocks,
		   size_t len, size_t steps)
{
	(void)lane;
	(void)warm;
	(void)blocks;
	(void)len;
	(void)steps;
}

struct cpu_switch md_avx2 = {0, NULL}; /* off, whatever the processor has */
#endif
