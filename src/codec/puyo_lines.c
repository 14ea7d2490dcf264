/*
 * One field per line, the input of `dropjudge solve puyo --lines`: the rows
 * of a field on one line, top first, separated by single spaces. See
 * puyo_lines_read() in puyo_codec.h.
 *
 * The fast path takes a line of exactly 12 or 13 rows of 6 characters of
 * `.RGBPYO` and single spaces, byte by byte through a table, straight into
 * the bit planes of the core (dropjudge/puyo.h). Any other line
 * is split at its spaces and its rows go through the row checks the other
 * Puyo readers use, so a fault reads the same here as in a text or JSON
 * case ("unknown cell ...", "expected 6 characters ..."), with the row it
 * is in.
 */
#include "codec/puyo_codec.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "codec/puyo_rows.h"

#define ROW_BYTES (PUYO_COLS + 1) /* a row and the separator after it */

/*
 * Reads a line of the exact layout, its rows separated by `sep` (a space;
 * a line feed for a text body, puyo_text_fast.c), straight into planes;
 * false (planes unspecified) for any other line. Each column gathers its
 * cells' bits in one accumulator, the three planes 16 bits apart, a row at
 * a time.
 */
static bool lines_fast(const unsigned char *u, size_t len, unsigned char sep,
		       struct puyo_planes *planes)
{
	unsigned rows;
	if (len == PUYO_ROWS * ROW_BYTES - 1)
		rows = PUYO_ROWS;
	else if (len == PUYO_ROWS_MAX * ROW_BYTES - 1)
		rows = PUYO_ROWS_MAX;
	else
		return false;
	/* bottom row first: each row shifts what is above it one row up */
	uint64_t acc[PUYO_COLS] = {0};
	unsigned spaces = 0;
	for (unsigned r = rows; r-- > 0;) {
		const unsigned char *row = u + r * ROW_BYTES;
#pragma GCC unroll 6
		for (unsigned c = 0; c < PUYO_COLS; c++)
			acc[c] = acc[c] << 1 | puyo_rows_cell_acc(row[c]);
		if (r + 1 < rows)
			spaces |= row[PUYO_COLS] ^ (unsigned)sep;
	}
	return puyo_rows_acc_planes(acc, rows, planes) && !spaces;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define LINES_HAVE_BMI2 1

/* Byte positions of the cells and of the spaces of a line, bit i for byte i. */
static const uint64_t cells_at[2][2] = {{0xbf7efdfbf7efdfbfull, 0x7efdfull},
					{0xbf7efdfbf7efdfbfull, 0x3f7efdfull}};
static const uint64_t spaces_at[2][2] = {{0x4081020408102040ull, 0x1020ull},
					 {0x4081020408102040ull, 0x81020ull}};
#define ROWS_0_TO_8  0x0102040810204081ull /* bytes 7r, r = 0..8 */
#define ROWS_9_TO_12 0x204081ull	   /* bytes 7(r - 9) of the line from byte 63 */

/*
 * lines_fast() with SSE2 and BMI2: sixteen bytes at a time, a compare per
 * character gives the three bit planes and the good bytes as row-major
 * masks (bit 7r + c); pext gathers each column out of them.
 */
__attribute__((target("bmi2"))) static bool
lines_fast_bmi2(const unsigned char *u, size_t len, unsigned char sep, struct puyo_planes *planes)
{
	unsigned rows;
	if (len == PUYO_ROWS * ROW_BYTES - 1)
		rows = PUYO_ROWS;
	else if (len == PUYO_ROWS_MAX * ROW_BYTES - 1)
		rows = PUYO_ROWS_MAX;
	else
		return false;
	unsigned char buf[6 * 16] = {0};
	memcpy(buf, u, len);
	uint64_t bit[3][2] = {{0}}, good[2] = {0}, space[2] = {0};
#pragma GCC unroll 6
	for (unsigned i = 0; i < 6; i++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(buf + 16 * i));
		uint64_t is[PUYO_GARBAGE + 1], m[3], ok;
#pragma GCC unroll 7
		for (unsigned c = 0; c <= PUYO_GARBAGE; c++)
			is[c] = (unsigned)_mm_movemask_epi8(
			    _mm_cmpeq_epi8(v, _mm_set1_epi8(PUYO_ROWS_ALPHABET[c])));
		puyo_rows_planes_of(is, m, &ok);
		unsigned w = i / 4, at = 16 * (i % 4);
		for (unsigned k = 0; k < 3; k++)
			bit[k][w] |= m[k] << at;
		good[w] |= ok << at;
		space[w] |= (uint64_t)(unsigned)_mm_movemask_epi8(
				_mm_cmpeq_epi8(v, _mm_set1_epi8((char)sep)))
			    << at;
	}
	unsigned t = rows == PUYO_ROWS_MAX;
	if ((good[0] & cells_at[t][0]) != cells_at[t][0] ||
	    (good[1] & cells_at[t][1]) != cells_at[t][1] ||
	    (space[0] & spaces_at[t][0]) != spaces_at[t][0] ||
	    (space[1] & spaces_at[t][1]) != spaces_at[t][1])
		return false;
	unsigned h0 = PUYO_ROWS_MAX - rows;
	memset(planes, 0, sizeof *planes);
#pragma GCC unroll 3
	for (unsigned k = 0; k < 3; k++) {
		uint64_t top = bit[k][0] & cells_at[t][0];
		uint64_t low =
		    (top >> 63 | bit[k][1] << 1) & (cells_at[t][0] >> 63 | cells_at[t][1] << 1);
#pragma GCC unroll 6
		for (unsigned c = 0; c < PUYO_COLS; c++) {
			uint64_t lane = _pext_u64(top, ROWS_0_TO_8 << c) |
					_pext_u64(low, ROWS_9_TO_12 << c) << 9;
			planes->word[k][c / 4] |= lane << (16 * (c % 4) + h0);
		}
	}
	return true;
}

/*
 * lines_fast() with AVX-512 (BW and VBMI): the line in two registers, one
 * permutation of its bytes into column-major order (column c's row h at
 * byte 16 * (c % 4) + h of the first result for columns 0-3, of the second
 * for columns 4 and 5: the layout of the planes, a bit for a byte), and a
 * compare per character whose masks are the planes themselves.
 */
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

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static bool
lines_fast_avx512(const unsigned char *u, size_t len, unsigned char sep, struct puyo_planes *planes)
{
	unsigned t;
	if (len == PUYO_ROWS * ROW_BYTES - 1)
		t = 0;
	else if (len == PUYO_ROWS_MAX * ROW_BYTES - 1)
		t = 1;
	else
		return false;
	__m512i lo = _mm512_loadu_si512(u);
	__m512i hi = _mm512_maskz_loadu_epi8((1ull << (len - 64)) - 1, u + 64);
	uint64_t spaces_lo = _mm512_cmpeq_epi8_mask(lo, _mm512_set1_epi8((char)sep));
	uint64_t spaces_hi = _mm512_cmpeq_epi8_mask(hi, _mm512_set1_epi8((char)sep));
	if ((spaces_lo & spaces_at[t][0]) != spaces_at[t][0] ||
	    (spaces_hi & spaces_at[t][1]) != spaces_at[t][1])
		return false;
	uint64_t a[3], b[3], good_a, good_b;
	puyo_rows_classify64(
	    _mm512_permutex2var_epi8(lo, _mm512_loadu_si512(lines_columns[t][0]), hi), a, &good_a);
	puyo_rows_classify64(
	    _mm512_permutex2var_epi8(lo, _mm512_loadu_si512(lines_columns[t][1]), hi), b, &good_b);
	uint64_t cells_b = lines_cells[t] & 0xFFFFFFFFu;
	if ((good_a & lines_cells[t]) != lines_cells[t] || (good_b & cells_b) != cells_b)
		return false;
	for (unsigned k = 0; k < 3; k++) {
		planes->word[k][0] = a[k];
		planes->word[k][1] = b[k];
	}
	return true;
}
#else
#define LINES_HAVE_BMI2 0
#endif

static bool lines_fast_impl(const unsigned char *u, size_t len, unsigned char sep,
			    struct puyo_planes *planes, enum puyo_impl impl)
{
	if (impl == PUYO_IMPL_AUTO)
		impl = puyo_impl_auto();
#if LINES_HAVE_BMI2
	if (impl == PUYO_IMPL_AVX512)
		return lines_fast_avx512(u, len, sep, planes);
	if (impl == PUYO_IMPL_BMI2)
		return lines_fast_bmi2(u, len, sep, planes);
#endif
	return lines_fast(u, len, sep, planes);
}

bool puyo_rows_line_fast(const char *s, size_t len, char sep, struct puyo_planes *planes,
			 enum puyo_impl impl)
{
	return lines_fast_impl((const unsigned char *)s, len, (unsigned char)sep, planes, impl);
}

/* Where the slow path's row faults go. */
struct lines_ctx {
	struct codec_error *err;
	unsigned line;
	unsigned start[PUYO_ROWS_MAX + 1]; /* character column before each row */
	bool failed;
};

static bool __attribute__((format(printf, 4, 0)))
lines_row_fault(void *ctx, unsigned index, unsigned column, const char *fmt, va_list ap)
{
	struct lines_ctx *lc = ctx;
	char detail[CODEC_DETAIL_MAX];
	vsnprintf(detail, sizeof detail, fmt, ap);
	lc->failed = true;
	codec_error_at_line(lc->err, CODEC_E_INVALID, lc->line,
			    column ? lc->start[index] + column : lc->start[index] + 1, "row %u: %s",
			    index + 1, detail);
	return true;
}

enum codec_status puyo_lines_read(const char *s, size_t len, unsigned line,
				  struct puyo_planes *planes, struct codec_error *err)
{
	return puyo_lines_read_impl(s, len, line, planes, err, PUYO_IMPL_AUTO);
}

enum codec_status puyo_lines_read_impl(const char *s, size_t len, unsigned line,
				       struct puyo_planes *planes, struct codec_error *err,
				       enum puyo_impl impl)
{
	if (lines_fast_impl((const unsigned char *)s, len, ' ', planes, impl))
		return CODEC_OK;

	/* Count the rows first: their number decides the field. */
	unsigned nrows = 1;
	for (size_t i = 0; i < len; i++)
		nrows += s[i] == ' ';
	if (len == 0 || (nrows != PUYO_ROWS && nrows != PUYO_ROWS_MAX)) {
		codec_error_at_line(err, CODEC_E_INVALID, line, 0,
				    "expected %u or %u rows separated by single spaces, found %u",
				    PUYO_ROWS, PUYO_ROWS_MAX, len == 0 ? 0 : nrows);
		return CODEC_E_INVALID;
	}

	struct lines_ctx lc = {.err = err, .line = line};
	struct puyo_rows rows;
	struct puyo_field field;
	puyo_field_init(&field, nrows);
	puyo_rows_init(&rows, &field, false, lines_row_fault, &lc);
	size_t from = 0;
	unsigned chars = 0;
	for (unsigned r = 0; r < nrows; r++) {
		size_t to = from;
		while (to < len && s[to] != ' ')
			to++;
		lc.start[r] = chars;
		if (puyo_rows_check(&rows, s + from, to - from, r, r))
			break;
		chars += puyo_rows_chars(s + from, to - from) + 1;
		from = to + 1;
	}
	if (lc.failed)
		return CODEC_E_INVALID;
	puyo_planes_from_field(planes, &field);
	return CODEC_OK;
}
