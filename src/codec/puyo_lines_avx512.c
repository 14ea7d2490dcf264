/*
 * The AVX-512 (BW and VBMI) reader of a --lines line: the line in two
 * registers, one permutation of its bytes into the planes' column-major
 * layout, and a compare per character whose masks are the planes
 * themselves. Chosen at run time; left out of a SIMD=0 build.
 */
#include "codec/puyo_codec.h"

#include <stdint.h>

#include "core/cpu.h"

#define ROW_BYTES (PUYO_COLS + 1) /* a row and the space after it */

#if DROPJUDGE_SIMD && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* Byte positions of the spaces of a line of 12 and of 13 rows, bit i for byte i. */
static const uint64_t spaces_at[2][2] = {{0x4081020408102040ull, 0x1020ull},
					 {0x4081020408102040ull, 0x81020ull}};

#define LINES_PAD 104 /* a byte of the second register past every line: zero */
/* The byte of a line of `rows` rows that is row h of column c, or LINES_PAD. */
#define LINES_SRC(c, h, rows)                                                                      \
	((h) < PUYO_ROWS_MAX - (rows) || (h) >= PUYO_ROWS_MAX                                      \
	     ? (unsigned char)LINES_PAD                                                            \
	     : (unsigned char)(ROW_BYTES * ((h) - (PUYO_ROWS_MAX - (rows))) + (c)))
#define LINES_A(j, rows) LINES_SRC((j) / 16, (j) % 16, rows)
#define LINES_B(j, rows)                                                                           \
	((j) < 32 ? LINES_SRC(4 + (j) / 16, (j) % 16, rows) : (unsigned char)LINES_PAD)
#define LINES_X4(M, j, r) M(j, r), M((j) + 1, r), M((j) + 2, r), M((j) + 3, r)
#define LINES_X16(M, j, r)                                                                         \
	LINES_X4(M, j, r), LINES_X4(M, (j) + 4, r), LINES_X4(M, (j) + 8, r),                       \
	    LINES_X4(M, (j) + 12, r)
#define LINES_X64(M, r)                                                                            \
	LINES_X16(M, 0, r), LINES_X16(M, 16, r), LINES_X16(M, 32, r), LINES_X16(M, 48, r)
/* [13 rows][columns 0-3, columns 4-5][byte] */
static const unsigned char lines_columns[2][2][64] = {
    {{LINES_X64(LINES_A, PUYO_ROWS)}, {LINES_X64(LINES_B, PUYO_ROWS)}},
    {{LINES_X64(LINES_A, PUYO_ROWS_MAX)}, {LINES_X64(LINES_B, PUYO_ROWS_MAX)}},
};
/* The cells in that layout: rows 1..12 of a 12-row field, 0..12 of a 13-row one. */
static const uint64_t lines_cells[2] = {0x1FFE1FFE1FFE1FFEull, 0x1FFF1FFF1FFF1FFFull};

/* The characters of the cell values 0..6 (enum puyo_cell), in order. */
static const char alphabet[] = ".RGBPYO";

/* The three bit planes and the good bytes of 64 bytes: one compare a
 * character; plane k holds the bytes whose value has bit k. */
__attribute__((target("avx512f,avx512bw"))) static inline void
classify64(__m512i v, uint64_t bit[3], uint64_t *good)
{
	bit[0] = bit[1] = bit[2] = *good = 0;
#pragma GCC unroll 7
	for (unsigned c = 0; c <= PUYO_GARBAGE; c++) {
		uint64_t is = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(alphabet[c]));
		*good |= is;
#pragma GCC unroll 3
		for (unsigned k = 0; k < 3; k++)
			if ((c >> k) & 1u)
				bit[k] |= is;
	}
}

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) bool
puyo_lines_avx512_read(const char *s, size_t len, struct puyo_planes *planes)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned t;
	if (len == PUYO_ROWS * ROW_BYTES - 1)
		t = 0;
	else if (len == PUYO_ROWS_MAX * ROW_BYTES - 1)
		t = 1;
	else
		return false;
	__m512i lo = _mm512_loadu_si512(u);
	__m512i hi = _mm512_maskz_loadu_epi8((1ull << (len - 64)) - 1, u + 64);
	uint64_t spaces_lo = _mm512_cmpeq_epi8_mask(lo, _mm512_set1_epi8(' '));
	uint64_t spaces_hi = _mm512_cmpeq_epi8_mask(hi, _mm512_set1_epi8(' '));
	if ((spaces_lo & spaces_at[t][0]) != spaces_at[t][0] ||
	    (spaces_hi & spaces_at[t][1]) != spaces_at[t][1])
		return false;
	uint64_t a[3], b[3], good_a, good_b;
	classify64(_mm512_permutex2var_epi8(lo, _mm512_loadu_si512(lines_columns[t][0]), hi), a,
		   &good_a);
	classify64(_mm512_permutex2var_epi8(lo, _mm512_loadu_si512(lines_columns[t][1]), hi), b,
		   &good_b);
	uint64_t cells_b = lines_cells[t] & 0xFFFFFFFFu;
	if ((good_a & lines_cells[t]) != lines_cells[t] || (good_b & cells_b) != cells_b)
		return false;
	for (unsigned k = 0; k < 3; k++) {
		planes->word[k][0] = a[k];
		planes->word[k][1] = b[k];
	}
	return true;
}

static bool processor_has_it(void)
{
	return CPU_HAS(AVX512F, "avx512f") && CPU_HAS(AVX512BW, "avx512bw") &&
	       CPU_HAS(AVX512_VBMI, "avx512vbmi");
}

struct cpu_switch puyo_lines_avx512 = {-1, processor_has_it};
#else
bool puyo_lines_avx512_read(const char *s, size_t len, struct puyo_planes *planes)
{
	(void)s;
	(void)len;
	(void)planes;
	return false;
}

struct cpu_switch puyo_lines_avx512 = {0, NULL}; /* off, whatever the processor has */
#endif
