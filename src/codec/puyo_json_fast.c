/*
 * The fast path of the Puyo JSON decoder: a request body that is exactly
 * the canonical case {"field": ["......", ...]} (12 or 13 strings of 6
 * characters of `.RGBPYO`, JSON whitespace where JSON allows it, nothing
 * else), read once straight into the bit planes of the core, as the
 * --lines reader does. See puyo_json_fast_planes() in puyo_codec.h.
 *
 * It never reports anything: whatever it does not recognise (an escape, a
 * "trace" member, a bad row, a batch), the caller reads again through
 * jansson and puyo_json_read(), so every answer to an unusual body and
 * every error comes from that one path.
 */
#include <string.h>

#include "codec/puyo_codec.h"
#include "codec/puyo_rows.h"

static bool is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

struct scan {
	const unsigned char *p;
	const unsigned char *end;
};

static inline void skip_ws(struct scan *s)
{
	/* one space, as most writers put after a comma, costs one test */
	if (s->p < s->end && *s->p == ' ')
		s->p++;
	while (s->p < s->end && is_ws(*s->p))
		s->p++;
}

static bool take(struct scan *s, unsigned char c)
{
	skip_ws(s);
	if (s->p == s->end || *s->p != c)
		return false;
	s->p++;
	return true;
}

/* A row string "......" as row r into the accumulators of its columns
 * (puyo_rows.h); false when it is not a quoted string of 6 bytes (a bad
 * byte is seen by puyo_rows_acc_planes()). */
static inline void add_row(const unsigned char *cells, unsigned r, uint64_t acc[PUYO_COLS])
{
#pragma GCC unroll 6
	for (unsigned c = 0; c < PUYO_COLS; c++)
		acc[c] |= puyo_rows_cell_acc(cells[c]) << r;
}

static inline bool take_row(struct scan *s, unsigned r, uint64_t acc[PUYO_COLS])
{
	skip_ws(s);
	const unsigned char *p = s->p;
	if (s->end - p < PUYO_COLS + 2 || p[0] != '"' || p[PUYO_COLS + 1] != '"')
		return false;
	add_row(p + 1, r, acc);
	s->p = p + PUYO_COLS + 2;
	return true;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define JSON_HAVE_AVX512 1

/*
 * The rows of the array at once with AVX-512 (BW, VBMI), when they are
 * laid out as most writers lay them out: "......" strings, one after the
 * other, separated by "," or ", " (a stride of 9 or 10 bytes), then "]".
 * The punctuation of the 12 or 13 rows is held against a template in one
 * compare per register, the cells are permuted into column-major order
 * (column c's row h at byte 16 * (c % 4) + h: the layout of the planes,
 * a bit for a byte) and classified by one compare a character, as the
 * --lines reader does. Any other layout, or a byte that is not a cell,
 * is left to the byte-at-a-time reader, which takes the same arrays.
 */
#define JSON_LAYOUT(t) ((t) >> 1 ? 10 : 9) /* stride of layout t */
#define JSON_ROWS(t)   ((t)&1 ? PUYO_ROWS_MAX : PUYO_ROWS)
#define JSON_H0(t)     (PUYO_ROWS_MAX - JSON_ROWS(t))
/* Byte j of the rows is what template t expects there (0: a cell, or past them). */
#define JSON_IN(j, t)	((j) % JSON_LAYOUT(t))
#define JSON_LAST(j, t) ((j) / JSON_LAYOUT(t) + 1 == JSON_ROWS(t))
#define JSON_PUNCT(j, t)                                                                           \
	((j) / JSON_LAYOUT(t) >= JSON_ROWS(t)			? 0                                \
	 : JSON_IN(j, t) == 0 || JSON_IN(j, t) == PUYO_COLS + 1 ? '"'                              \
	 : JSON_IN(j, t) == PUYO_COLS + 2			? (JSON_LAST(j, t) ? ']' : ',')    \
	 : JSON_IN(j, t) == PUYO_COLS + 3 && !JSON_LAST(j, t)	? ' '                              \
								: 0)
/* The byte of the rows that is row h of column c, or 0 (a quote) for no cell. */
#define JSON_SRC(c, h, t)                                                                          \
	((h) < JSON_H0(t) || (h) >= PUYO_ROWS_MAX ? 0 : JSON_LAYOUT(t) * ((h)-JSON_H0(t)) + 1 + (c))
#define JSON_A(j, t)	   JSON_SRC((j) / 16, (j) % 16, t)
#define JSON_B(j, t)	   ((j) < 32 ? JSON_SRC(4 + (j) / 16, (j) % 16, t) : 0)
#define JSON_P(j, t)	   JSON_PUNCT(j, t)
#define JSON_BYTE(M, j, t) ((unsigned char)(M(j, t)))
#define JSON_X4(M, j, t)                                                                           \
	JSON_BYTE(M, j, t), JSON_BYTE(M, (j) + 1, t), JSON_BYTE(M, (j) + 2, t),                    \
	    JSON_BYTE(M, (j) + 3, t)
#define JSON_X16(M, j, t)                                                                          \
	JSON_X4(M, j, t), JSON_X4(M, (j) + 4, t), JSON_X4(M, (j) + 8, t), JSON_X4(M, (j) + 12, t)
#define JSON_X64(M, j, t)                                                                          \
	JSON_X16(M, j, t), JSON_X16(M, (j) + 16, t), JSON_X16(M, (j) + 32, t),                     \
	    JSON_X16(M, (j) + 48, t)
/* Two registers' worth of bytes: M0's from byte j0, then M1's from byte j1. */
#define JSON_PAIR(M0, j0, M1, j1, t)                                                               \
	{                                                                                          \
		{JSON_X64(M0, j0, t)},                                                             \
		{                                                                                  \
			JSON_X64(M1, j1, t)                                                        \
		}                                                                                  \
	}
#define JSON_TEMPLATE(t) JSON_PAIR(JSON_P, 0, JSON_P, 64, t)
#define JSON_COLUMNS(t)	 JSON_PAIR(JSON_A, 0, JSON_B, 0, t)
/* [layout][bytes 0-63, 64-127] */
static const unsigned char json_template[4][2][64] = {JSON_TEMPLATE(0), JSON_TEMPLATE(1),
						      JSON_TEMPLATE(2), JSON_TEMPLATE(3)};
/* [layout][columns 0-3, columns 4-5] */
static const unsigned char json_columns[4][2][64] = {JSON_COLUMNS(0), JSON_COLUMNS(1),
						     JSON_COLUMNS(2), JSON_COLUMNS(3)};
/* The cells in the column-major layout: rows 1..12 of a 12-row field, 0..12 of a 13-row one. */
static const uint64_t json_cells[2] = {0x1FFE1FFE1FFE1FFEull, 0x1FFF1FFF1FFF1FFFull};

/* Reads the rows at p (after the "["); returns the bytes up to and with the
 * "]", 0 when the layout is not one of the templates. */
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static size_t
rows_avx512(const unsigned char *p, size_t len, struct puyo_planes *planes, unsigned *rows)
{
	if (len < 2 * JSON_LAYOUT(1) || p[PUYO_COLS + 2] != ',')
		return 0;
	unsigned t = p[PUYO_COLS + 3] == ' ' ? 2 : 0;
	size_t end12 = JSON_LAYOUT(t) * (PUYO_ROWS - 1) + PUYO_COLS + 2; /* the "]" of 12 rows */
	size_t end13 = end12 + JSON_LAYOUT(t);
	if (len > end12 && p[end12] == ']')
		;
	else if (len > end13 && p[end13] == ']')
		t |= 1;
	else
		return 0;
	uint64_t first = len >= 64 ? ~0ull : (1ull << len) - 1;
	uint64_t second = len >= 128 ? ~0ull : len > 64 ? (1ull << (len - 64)) - 1 : 0;
	__m512i lo = _mm512_maskz_loadu_epi8(first, p);
	__m512i hi = _mm512_maskz_loadu_epi8(second, p + 64);
	__m512i want_lo = _mm512_loadu_si512(json_template[t][0]);
	__m512i want_hi = _mm512_loadu_si512(json_template[t][1]);
	/* every byte the template names is that byte (one past 128 is checked above) */
	if (_mm512_mask_cmpneq_epi8_mask(_mm512_test_epi8_mask(want_lo, want_lo), lo, want_lo) ||
	    _mm512_mask_cmpneq_epi8_mask(_mm512_test_epi8_mask(want_hi, want_hi), hi, want_hi))
		return 0;
	uint64_t a[3], b[3], good_a, good_b;
	puyo_rows_classify64(
	    _mm512_permutex2var_epi8(lo, _mm512_loadu_si512(json_columns[t][0]), hi), a, &good_a);
	puyo_rows_classify64(
	    _mm512_permutex2var_epi8(lo, _mm512_loadu_si512(json_columns[t][1]), hi), b, &good_b);
	uint64_t cells_a = json_cells[t & 1], cells_b = cells_a & 0xFFFFFFFFu;
	if ((good_a & cells_a) != cells_a || (good_b & cells_b) != cells_b)
		return 0;
	for (unsigned k = 0; k < 3; k++) {
		planes->word[k][0] = a[k] & cells_a;
		planes->word[k][1] = b[k] & cells_b;
	}
	*rows = JSON_ROWS(t);
	return (t & 1 ? end13 : end12) + 1;
}
#else
#define JSON_HAVE_AVX512 0
#endif

bool puyo_json_fast_planes(const char *body, size_t len, struct puyo_planes *planes, unsigned *rows)
{
	return puyo_json_fast_planes_impl(body, len, planes, rows, PUYO_IMPL_AUTO);
}

bool puyo_json_fast_planes_impl(const char *body, size_t len, struct puyo_planes *planes,
				unsigned *rows, enum puyo_impl impl)
{
	static const char key[] = "\"field\"";
	struct scan s = {(const unsigned char *)body, (const unsigned char *)body + len};
	uint64_t acc[PUYO_COLS] = {0};
	unsigned n = 0;

	if (!take(&s, '{'))
		return false;
	skip_ws(&s);
	if ((size_t)(s.end - s.p) < sizeof key - 1 || memcmp(s.p, key, sizeof key - 1) != 0)
		return false;
	s.p += sizeof key - 1;
	if (!take(&s, ':') || !take(&s, '['))
		return false;
#if JSON_HAVE_AVX512
	if (impl == PUYO_IMPL_AUTO)
		impl = puyo_impl_auto();
	if (impl == PUYO_IMPL_AVX512) {
		size_t used = rows_avx512(s.p, (size_t)(s.end - s.p), planes, &n);
		if (used) {
			s.p += used;
			if (!take(&s, '}'))
				return false;
			skip_ws(&s);
			*rows = n;
			return s.p == s.end;
		}
	}
#else
	(void)impl;
#endif
	for (;;) {
		if (n == PUYO_ROWS_MAX)
			return false;
		const unsigned char *p = s.p;
		if (s.end - p >= PUYO_COLS + 4 && p[0] == '"' && p[PUYO_COLS + 1] == '"') {
			/* the row right here, then "," or ", ": no white space to look for */
			add_row(p + 1, n++, acc);
			s.p = p + PUYO_COLS + 2;
			if (s.p[0] == ',') {
				s.p += 1 + (s.p[1] == ' ');
				continue;
			}
		} else {
			if (!take_row(&s, n++, acc))
				return false;
			if (s.p < s.end && *s.p == ',') {
				s.p++;
				continue;
			}
		}
		if (take(&s, ','))
			continue;
		if (!take(&s, ']'))
			return false;
		break;
	}
	if (n != PUYO_ROWS && n != PUYO_ROWS_MAX)
		return false;
	if (!take(&s, '}'))
		return false;
	skip_ws(&s);
	if (s.p != s.end)
		return false;
	*rows = n;
	return puyo_rows_acc_planes(acc, n, planes);
}

bool puyo_json_fast_read(const char *body, size_t len, struct puyo_field *field)
{
	struct puyo_planes planes;
	unsigned rows;
	if (!puyo_json_fast_planes(body, len, &planes, &rows))
		return false;
	puyo_planes_to_field(&planes, rows, field);
	return true;
}
