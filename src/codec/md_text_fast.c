/*
 * The fast path of the Monomino-Domino text reader: see md_text_fast.h.
 *
 * A canonical line is six bytes, "t x y\n". XORed with "0 0 0\n" it leaves
 * the three digits in the low two bits of bytes 0, 2 and 4 and zeros
 * everywhere else, so one load, one XOR and one mask test recognise a line
 * of digits 0..3; t must then be nonzero and the domino stay inside red.
 * Any other line (a fault, CRLF, tabs, more digits) is left to the slow
 * path, so errors and their wording come from one place. md_text_take()
 * and md_text_canonical() (md_codec.h) also take 32 lines at a step with
 * AVX2, where the digits, packed, are the blocks themselves; they and
 * md_text_skip() live here because they share the reader's state.
 */
#include "codec/md_text_fast.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

/* "0 0 0\n" little-endian, and the bits that must then be zero. */
#define LINE_PATTERN 0x0A3020302030ull
#define LINE_ZEROS   0xFFFCFFFCFFFCull
#define LINE_BYTES   6
#define LOAD_BYTES   8 /* one load covers a line; the last bytes of a chunk go slowly */

/* Loads bytes p[0..6) little-endian into the low 48 bits (reads p[0..8)). */
static uint64_t load_line(const char *p)
{
	uint64_t w;
	memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w & 0xFFFFFFFFFFFFull;
}

/* Bit t | x << 2 | y << 4 is set when the block is legal: t nonzero, a
 * vertical domino not in row 3, a horizontal one not in column 3. */
#define LEGAL_KEYS 0x2AAA6EEE6EEE6EEEULL

/*
 * Reads the canonical line at p (p[0..8) readable) into *block; false when
 * the line is not one, or its block is not legal.
 */
static inline __attribute__((always_inline)) bool line_take(const char *p, struct md_block *block)
{
	uint64_t v = load_line(p) ^ LINE_PATTERN;
	if (v & LINE_ZEROS)
		return false;
	unsigned key = (unsigned)(v | v >> 14 | v >> 28) & 63u;
	if (!((LEGAL_KEYS >> key) & 1u))
		return false;
	block->t = (uint8_t)(key & 3u);
	block->x = (uint8_t)((key >> 2) & 3u);
	block->y = (uint8_t)(key >> 4);
	return true;
}

/* Whether the reader is where the fast path may take whole lines. */
static bool fast_ready(const struct md_text_reader *r)
{
	return r->column == 1 && r->line >= 2 && r->have_n && !r->failed && !r->stopped &&
	       !r->done && !r->blanks;
}

size_t md_text_fast_lines(struct md_text_reader *r, const char *data, size_t len, md_block_fn fn,
			  void *ctx)
{
	size_t used = 0;

	if (!fast_ready(r))
		return 0;
	/* Kept in locals: the callback could, as far as the compiler knows, write *r. */
	unsigned long blocks = r->blocks, declared = r->declared;
	unsigned line = r->line;
	struct md_block block;
	while (len - used >= LOAD_BYTES && blocks < declared && line < UINT_MAX &&
	       line_take(data + used, &block)) {
		unsigned long index = blocks++;
		line++;
		used += LINE_BYTES;
		if (fn) {
			r->blocks = blocks;
			r->line = line;
			if (fn(ctx, block, index) != 0) {
				r->stopped = true;
				break;
			}
		}
	}
	r->blocks = blocks;
	r->line = line;
	return used;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define MD_TEXT_AVX2 1

/* Lines read in each 128-bit lane of a step of take_32(): 96 bytes, six
 * lanes' worth of the six vectors. */
#define TAKE_LINES 16
#define TAKE_BYTES (TAKE_LINES * LINE_BYTES)

/*
 * The line pattern "0 0 0\n" over 16 bytes that start at byte 0, 4 and 2
 * of a line (the phases of the six vectors of a step, in turn), and the
 * bits that must then be zero: all but the two low bits of each digit (the
 * same in every phase, the digits being the even bytes).
 */
static const unsigned char take_pattern[3][16] = {
    {0x30, 0x20, 0x30, 0x20, 0x30, 0x0A, 0x30, 0x20, 0x30, 0x20, 0x30, 0x0A, 0x30, 0x20, 0x30,
     0x20},
    {0x30, 0x0A, 0x30, 0x20, 0x30, 0x20, 0x30, 0x0A, 0x30, 0x20, 0x30, 0x20, 0x30, 0x0A, 0x30,
     0x20},
    {0x30, 0x20, 0x30, 0x0A, 0x30, 0x20, 0x30, 0x20, 0x30, 0x0A, 0x30, 0x20, 0x30, 0x20, 0x30,
     0x0A},
};
static const unsigned char take_zeros[16] = {0xFC, 0xFF, 0xFC, 0xFF, 0xFC, 0xFF, 0xFC, 0xFF,
					     0xFC, 0xFF, 0xFC, 0xFF, 0xFC, 0xFF, 0xFC, 0xFF};

/* Bytes at positions 0 mod 3 (the t of each block) of the 16 digits from
 * 16 * k on. */
static const unsigned char take_t_mask[3][16] = {
    {0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00,
     0xFF},
    {0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF,
     0x00},
    {0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00,
     0x00},
};

/* Two 16-byte loads, p[0..16) in the low lane and q[0..16) in the high. */
__attribute__((target("avx2"), always_inline)) static inline __m256i load_lanes(const char *p,
										const char *q)
{
	return _mm256_inserti128_si256(
	    _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p)),
	    _mm_loadu_si128((const __m128i *)(const void *)q), 1);
}

__attribute__((target("avx2"), always_inline)) static inline __m256i
both_lanes(const unsigned char *t)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)t);
	return _mm256_inserti128_si256(_mm256_castsi128_si256(v), v, 1);
}

/*
 * Takes 32 canonical lines at p[0..192) into blocks[0..32) and returns
 * true, or returns false when one of them is not canonical or not legal
 * (blocks[] may then hold anything). Lines 0..15 are in the low 128-bit
 * lane of each vector and lines 16..31 (from byte 96) in the high one,
 * every step within its lane. The digits are the even bytes of the text,
 * in the order of struct md_block: XORed with the line pattern and packed,
 * they are the blocks. Legal: t nonzero, not t = 3 with x = 3, not t = 2
 * with y = 3, tested at every t with the digits shifted onto it.
 */
__attribute__((target("avx2"), always_inline)) static inline bool take_32(const char *p,
									  struct md_block *blocks)
{
	__m256i d[6], bad = _mm256_setzero_si256();
	const __m256i zeros = both_lanes(take_zeros);
	for (unsigned i = 0; i < 6; i++) {
		d[i] = _mm256_xor_si256(load_lanes(p + 16 * i, p + TAKE_BYTES + 16 * i),
					both_lanes(take_pattern[i % 3]));
		bad = _mm256_or_si256(bad, _mm256_and_si256(d[i], zeros));
	}
	const __m256i low = _mm256_set1_epi16(0xFF);
	__m256i digits[4];
	for (unsigned k = 0; k < 3; k++)
		digits[k] = _mm256_packus_epi16(_mm256_and_si256(d[2 * k], low),
						_mm256_and_si256(d[2 * k + 1], low));
	digits[3] = _mm256_setzero_si256();
	const __m256i zero = _mm256_setzero_si256(), two = _mm256_set1_epi8(2),
		      three = _mm256_set1_epi8(3);
	for (unsigned k = 0; k < 3; k++) {
		__m256i t = digits[k];
		__m256i x =
		    _mm256_or_si256(_mm256_srli_si256(t, 1), _mm256_slli_si256(digits[k + 1], 15));
		__m256i y =
		    _mm256_or_si256(_mm256_srli_si256(t, 2), _mm256_slli_si256(digits[k + 1], 14));
		__m256i t3 = _mm256_cmpeq_epi8(t, three);
		__m256i no = _mm256_or_si256(
		    _mm256_cmpeq_epi8(t, zero),
		    _mm256_or_si256(
			_mm256_and_si256(t3, _mm256_cmpeq_epi8(x, three)),
			_mm256_and_si256(_mm256_cmpeq_epi8(t, two), _mm256_cmpeq_epi8(y, three))));
		bad = _mm256_or_si256(bad, _mm256_and_si256(no, both_lanes(take_t_mask[k])));
	}
	if (!_mm256_testz_si256(bad, bad))
		return false;
	for (unsigned k = 0; k < 3; k++) {
		_mm_storeu_si128((__m128i *)(void *)((char *)blocks + 16 * k),
				 _mm256_castsi256_si128(digits[k]));
		_mm_storeu_si128((__m128i *)(void *)((char *)blocks + TAKE_BYTES / 2 + 16 * k),
				 _mm256_extracti128_si256(digits[k], 1));
	}
	return true;
}

/* take_32() while 192 bytes and 32 blocks are left (n and used advanced):
 * one function, so that its constants are loaded once. */
__attribute__((target("avx2"))) static void take_32_run(const char *data, size_t len,
							struct md_block *blocks, size_t cap,
							size_t *n, size_t *used)
{
	while (cap - *n >= 2 * TAKE_LINES && len - *used >= 2 * TAKE_BYTES &&
	       take_32(data + *used, blocks + *n)) {
		*n += 2 * TAKE_LINES;
		*used += 2 * TAKE_BYTES;
	}
}
/* Sixteen bytes at p, p + 96, p + 192 and p + 288 in the four 128-bit
 * lanes: each lane a run of 16 lines, as load_lanes() puts two. */
__attribute__((target("avx512f,avx512bw"), always_inline)) static inline __m512i
load_quarters(const char *p)
{
	__m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(const void *)p));
	v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(const void *)(p + TAKE_BYTES)),
			       1);
	v = _mm512_inserti32x4(
	    v, _mm_loadu_si128((const __m128i *)(const void *)(p + 2 * TAKE_BYTES)), 2);
	return _mm512_inserti32x4(
	    v, _mm_loadu_si128((const __m128i *)(const void *)(p + 3 * TAKE_BYTES)), 3);
}

__attribute__((target("avx512f,avx512bw"), always_inline)) static inline __m512i
all_quarters(const unsigned char *t)
{
	return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)t));
}

/*
 * take_32() with AVX-512 (F and BW): 64 canonical lines at p[0..384) into
 * blocks[0..64), lines 16j..16j+15 in lane j of each vector, the tests of
 * legality on mask registers.
 */
__attribute__((target("avx512f,avx512bw"), always_inline)) static inline bool
take_64(const char *p, struct md_block *blocks)
{
	__m512i d[6], bad = _mm512_setzero_si512();
	const __m512i zeros = all_quarters(take_zeros);
	for (unsigned i = 0; i < 6; i++) {
		d[i] =
		    _mm512_xor_si512(load_quarters(p + 16 * i), all_quarters(take_pattern[i % 3]));
		bad = _mm512_ternarylogic_epi64(bad, d[i], zeros, 0xF8); /* bad | (d & zeros) */
	}
	const __m512i low = _mm512_set1_epi16(0xFF);
	__m512i digits[4];
	for (unsigned k = 0; k < 3; k++)
		digits[k] = _mm512_packus_epi16(_mm512_and_si512(d[2 * k], low),
						_mm512_and_si512(d[2 * k + 1], low));
	digits[3] = _mm512_setzero_si512();
	const __m512i two = _mm512_set1_epi8(2), three = _mm512_set1_epi8(3);
	__mmask64 no = 0;
	for (unsigned k = 0; k < 3; k++) {
		__m512i t = digits[k];
		__m512i x = _mm512_or_si512(_mm512_bsrli_epi128(t, 1),
					    _mm512_bslli_epi128(digits[k + 1], 15));
		__m512i y = _mm512_or_si512(_mm512_bsrli_epi128(t, 2),
					    _mm512_bslli_epi128(digits[k + 1], 14));
		__mmask64 t3 = _mm512_cmpeq_epi8_mask(t, three);
		__mmask64 n = _mm512_testn_epi8_mask(t, t) |
			      (t3 & _mm512_cmpeq_epi8_mask(x, three)) |
			      (_mm512_cmpeq_epi8_mask(t, two) & _mm512_cmpeq_epi8_mask(y, three));
		no |= n & _mm512_movepi8_mask(all_quarters(take_t_mask[k])); /* the t bytes */
	}
	if (no || _mm512_test_epi64_mask(bad, bad))
		return false;
	for (unsigned k = 0; k < 3; k++) {
		char *b = (char *)blocks + 16 * k;
		_mm_storeu_si128((__m128i *)(void *)b, _mm512_castsi512_si128(digits[k]));
		_mm_storeu_si128((__m128i *)(void *)(b + TAKE_BYTES / 2),
				 _mm512_extracti32x4_epi32(digits[k], 1));
		_mm_storeu_si128((__m128i *)(void *)(b + TAKE_BYTES),
				 _mm512_extracti32x4_epi32(digits[k], 2));
		_mm_storeu_si128((__m128i *)(void *)(b + 3 * TAKE_BYTES / 2),
				 _mm512_extracti32x4_epi32(digits[k], 3));
	}
	return true;
}

/* take_64() while 384 bytes and 64 blocks are left (n and used advanced). */
__attribute__((target("avx512f,avx512bw"))) static void take_64_run(const char *data, size_t len,
								    struct md_block *blocks,
								    size_t cap, size_t *n,
								    size_t *used)
{
	while (cap - *n >= 4 * TAKE_LINES && len - *used >= 4 * TAKE_BYTES &&
	       take_64(data + *used, blocks + *n)) {
		*n += 4 * TAKE_LINES;
		*used += 4 * TAKE_BYTES;
	}
}
#else
#define MD_TEXT_AVX2 0
#endif

size_t md_text_canonical(const char *data, size_t len, struct md_block *blocks, size_t cap,
			 size_t *taken)
{
	return md_text_canonical_impl(data, len, blocks, cap, taken, MD_IMPL_AUTO);
}

size_t md_text_canonical_impl(const char *data, size_t len, struct md_block *blocks, size_t cap,
			      size_t *taken, enum md_impl impl)
{
	size_t n = 0, used = 0;
	if (len < LOAD_BYTES)
		cap = 0;
	else if (cap > (len - LOAD_BYTES) / LINE_BYTES + 1)
		cap = (len - LOAD_BYTES) / LINE_BYTES + 1;
#if MD_TEXT_AVX2
	/* 64 lines a step with AVX-512, then 32 while 192 bytes and 32 blocks
	 * are left */
	if (impl == MD_IMPL_AUTO)
		impl = md_impl_auto();
	if (impl == MD_IMPL_AVX512)
		take_64_run(data, len, blocks, cap, &n, &used);
	if (impl == MD_IMPL_AVX2 || impl == MD_IMPL_AVX512)
		take_32_run(data, len, blocks, cap, &n, &used);
#else
	(void)impl;
#endif
	while (n < cap && line_take(data + used, &blocks[n])) {
		n++;
		used += LINE_BYTES;
	}
	*taken = n;
	return used;
}

/* How many more placement lines the reader takes on its fast path: 0
 * unless it is ready for one, then what N and the line count leave. */
static size_t fast_room(const struct md_text_reader *r)
{
	if (!fast_ready(r))
		return 0;
	size_t left = r->declared - r->blocks;
	size_t lines = UINT_MAX - r->line;
	return left < lines ? left : lines;
}

size_t md_text_take(struct md_text_reader *r, const char *data, size_t len, struct md_block *blocks,
		    size_t cap, size_t *taken)
{
	size_t room = fast_room(r);
	size_t used = md_text_canonical(data, len, blocks, cap < room ? cap : room, taken);
	r->blocks += *taken;
	r->line += (unsigned)*taken;
	return used;
}
