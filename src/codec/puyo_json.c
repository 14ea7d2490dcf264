/*
 * The JSON form of a Puyo case, {"field": [rows, top first], "trace": bool},
 * in, and a field's rows as a JSON array out.
 *
 * Lenient mode (solving) takes 12 rows, or 13 with the hidden row on top, of
 * `.RGBPYO`. Strict mode (validation) takes exactly 12 rows of `.RGBPY` with
 * no puyo above an empty cell. Every fault is CODEC_E_INVALID at a JSON
 * pointer under the case's own pointer; reading goes on after a fault as long
 * as the error collects (codec/error.h), so validation lists them all.
 */
#include "codec/puyo_codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec/decimal.h"

#include "codec/puyo_rows.h"

struct json_reader {
	struct codec_error *err;  /* not owned; NULL allowed */
	const char *pointer;	  /* of the case object */
	bool strict;		  /* validation mode */
	bool failed;		  /* some fault was found */
	struct puyo_field *field; /* not owned; receives the good cells */
	struct puyo_rows rows;	  /* checks the rows into field */
};

/*
 * Records a fault at the case's pointer followed by `where` (already an RFC
 * 6901 suffix such as "/field/3"); returns whether reading must stop now.
 */
static bool json_fault(struct json_reader *rd, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool __attribute__((format(printf, 3, 0)))
json_vfault(struct json_reader *rd, const char *suffix, const char *fmt, va_list ap)
{
	char pointer[CODEC_POINTER_MAX];
	snprintf(pointer, sizeof pointer, "%s%s", rd->pointer, suffix);
	const struct codec_where where = {.pointer = pointer};
	rd->failed = true;
	codec_error_vadd(rd->err, CODEC_E_INVALID, &where, fmt, ap);
	return !rd->err || codec_error_is_full(rd->err);
}

static bool json_fault(struct json_reader *rd, const char *suffix, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool stop = json_vfault(rd, suffix, fmt, ap);
	va_end(ap);
	return stop;
}

/* puyo_rows_fault_fn: element `index` of "field". */
static bool __attribute__((format(printf, 4, 0)))
json_row_fault(void *ctx, unsigned index, unsigned column, const char *fmt, va_list ap)
{
	char suffix[32];

	(void)column; /* a pointer names the whole string */
	snprintf(suffix, sizeof suffix, "/field/%u", index);
	return json_vfault(ctx, suffix, fmt, ap);
}

/*
 * Checks element `index` of "field" as row `row` of the field (row >=
 * PUYO_ROWS_MAX: check only) and stores its good cells. Returns whether
 * reading must stop.
 */
static bool read_row(struct json_reader *rd, const json_t *value, size_t index, unsigned row)
{
	if (!json_is_string(value)) {
		char where[32];
		snprintf(where, sizeof where, "/field/%zu", index);
		return json_fault(rd, where, "expected a string");
	}
	return puyo_rows_check(&rd->rows, json_string_value(value), json_string_length(value),
			       (unsigned)index, row);
}

/* Reads the "field" member, which is present. */
static void read_field(struct json_reader *rd, const json_t *rows)
{
	if (!json_is_array(rows)) {
		json_fault(rd, "/field", "must be an array");
		return;
	}

	size_t n = json_array_size(rows);
	bool size_ok = n == PUYO_ROWS || (!rd->strict && n == PUYO_ROWS_MAX);
	if (!size_ok) {
		bool stop;
		if (rd->strict)
			stop =
			    json_fault(rd, "/field", "expected %u rows, found %zu", PUYO_ROWS, n);
		else
			stop = json_fault(rd, "/field",
					  "expected %u rows (%u with the hidden row), found %zu",
					  PUYO_ROWS, PUYO_ROWS_MAX, n);
		if (stop)
			return;
	}

	/* Rows past the largest field are only counted, not read. */
	size_t checked = rd->strict ? PUYO_ROWS : PUYO_ROWS_MAX;
	puyo_field_init(rd->field, size_ok ? (unsigned)n : PUYO_ROWS);
	for (size_t i = 0; i < n && i < checked; i++) {
		/* Strict mode keeps the first 12 rows for the floating check. */
		unsigned row = size_ok || rd->strict ? (unsigned)i : PUYO_ROWS_MAX;
		if (read_row(rd, json_array_get(rows, i), i, row))
			return;
	}
	if (rd->strict && n >= PUYO_ROWS)
		puyo_rows_check_floating(&rd->rows);
}

enum codec_status puyo_json_read(const json_t *case_obj, const char *pointer, bool strict,
				 struct puyo_field *field, struct codec_error *err)
{
	struct json_reader rd = {
	    .err = err, .pointer = pointer ? pointer : "", .strict = strict, .field = field};
	const char *key;
	json_t *value;

	puyo_field_init(field, PUYO_ROWS);
	puyo_rows_init(&rd.rows, field, strict, json_row_fault, &rd);
	if (!json_is_object(case_obj)) {
		json_fault(&rd, "", "expected an object");
		return CODEC_E_INVALID;
	}

	/* json_object_foreach wants a non-const object; it does not modify it. */
	json_object_foreach((json_t *)case_obj, key, value)
	{
		if (strcmp(key, "field") == 0 || strcmp(key, "trace") == 0 ||
		    (strcmp(key, "id") == 0 && (json_is_string(value) || json_is_integer(value))))
			continue;
		/* Only as much as fits after the case pointer, which json_fault()
		 * puts first: cutting there could split an escape ("~1"). */
		char where[CODEC_POINTER_MAX] = "";
		codec_pointer_append(where, sizeof where - strnlen(rd.pointer, sizeof where - 1),
				     key);
		if (json_fault(
			&rd, where,
			strcmp(key, "id") == 0
			    ? "id must be a string or an integer"
			    : "unknown member; a case holds \"field\", \"trace\" and \"id\""))
			return CODEC_E_INVALID;
	}

	value = json_object_get(case_obj, "trace");
	if (value && !json_is_boolean(value) && json_fault(&rd, "/trace", "expected a boolean"))
		return CODEC_E_INVALID;

	value = json_object_get(case_obj, "field");
	if (!value)
		json_fault(&rd, "/field", "required");
	else
		read_field(&rd, value);
	return rd.failed ? CODEC_E_INVALID : CODEC_OK;
}

json_t *puyo_json_rows(const struct puyo_field *field)
{
	unsigned rows = field->rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
	json_t *array = json_array();

	if (!array)
		return NULL;
	for (unsigned r = 0; r < rows; r++) {
		char text[PUYO_COLS];
		for (unsigned c = 0; c < PUYO_COLS; c++)
			text[c] = puyo_cell_to_char(field->cell[r][c]);
		/* append_new takes the string, and fails on NULL. */
		if (json_array_append_new(array, json_stringn(text, PUYO_COLS)) != 0)
			goto out_free_array;
	}
	return array;

out_free_array:
	json_decref(array);
	return NULL;
}

/* Longest result: a 20-digit score, the keys and 13 quoted rows. */
#define PUYO_RESULT_MAX 256

/* puyo_cell_to_char() of each value of a byte, for writing a row without a
 * call a cell (test_puyo_codec.c compares the two). */
static const char cell_chars[256] = {
    [PUYO_EMPTY] = '.',	 [PUYO_RED] = 'R',    [PUYO_GREEN] = 'G',   [PUYO_BLUE] = 'B',
    [PUYO_PURPLE] = 'P', [PUYO_YELLOW] = 'Y', [PUYO_GARBAGE] = 'O',
};

char puyo_json_cell_char(uint8_t cell)
{
	return cell <= PUYO_GARBAGE ? cell_chars[cell] : '?';
}

/* The result's members up to the "[" of its field. */
static size_t write_head(char *text, const struct puyo_result *result)
{
	/* The same integers as the route's result object, printed as jansson
	 * does: as json_int_t. */
	size_t n = 0;
	n = codec_text_put(text, n, "{\"chains\":");
	n += codec_decimal_write(result->chains, text + n);
	n = codec_text_put(text, n, ",\"score\":");
	n += codec_json_int_write(result->score, text + n);
	return codec_text_put(text, n,
			      result->all_clear ? ",\"all_clear\":true,\"field\":["
						: ",\"all_clear\":false,\"field\":[");
}

int puyo_json_write_result(const struct puyo_field *field, const struct puyo_result *result,
			   char *buf, size_t size)
{
	char text[PUYO_RESULT_MAX];
	unsigned rows = field->rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
	size_t n = write_head(text, result);
	for (unsigned r = 0; r < rows; r++) {
		if (r > 0)
			text[n++] = ',';
		text[n] = '"';
		for (unsigned c = 0; c < PUYO_COLS; c++)
			text[n + 1 + c] = puyo_json_cell_char(field->cell[r][c]);
		text[n + 1 + PUYO_COLS] = '"';
		n += PUYO_COLS + 2;
	}
	n = codec_text_put(text, n, "]}\n");
	return codec_text_copy(buf, size, text, n);
}

/*
 * Writing rows from planes: each plane's bits of a column at rows h = 0..7
 * (and 8..12) spread one to a byte (spread_bytes[]: byte b holds bit b),
 * and the three planes of two neighbouring columns ORed in at bits 0..5 of
 * each byte; byte h is then the pair's two cell values, and pair_chars[]
 * their two characters.
 */
#define SPREAD(i)                                                                                  \
	((uint64_t)((i)&1) | (uint64_t)(((i) >> 1) & 1) << 8 | (uint64_t)(((i) >> 2) & 1) << 16 |  \
	 (uint64_t)(((i) >> 3) & 1) << 24 | (uint64_t)(((i) >> 4) & 1) << 32 |                     \
	 (uint64_t)(((i) >> 5) & 1) << 40 | (uint64_t)(((i) >> 6) & 1) << 48 |                     \
	 (uint64_t)(((i) >> 7) & 1) << 56)
#define SPREAD4(i)  SPREAD(i), SPREAD((i) + 1), SPREAD((i) + 2), SPREAD((i) + 3)
#define SPREAD16(i) SPREAD4(i), SPREAD4((i) + 4), SPREAD4((i) + 8), SPREAD4((i) + 12)
#define SPREAD64(i) SPREAD16(i), SPREAD16((i) + 16), SPREAD16((i) + 32), SPREAD16((i) + 48)
static const uint64_t spread_bytes[256] = {SPREAD64(0), SPREAD64(64), SPREAD64(128), SPREAD64(192)};

/* puyo_json_cell_char() of a value 0..7, as a constant. */
#define CELL_CHAR(v)                                                                               \
	((v) == PUYO_EMPTY     ? '.'                                                               \
	 : (v) == PUYO_RED     ? 'R'                                                               \
	 : (v) == PUYO_GREEN   ? 'G'                                                               \
	 : (v) == PUYO_BLUE    ? 'B'                                                               \
	 : (v) == PUYO_PURPLE  ? 'P'                                                               \
	 : (v) == PUYO_YELLOW  ? 'Y'                                                               \
	 : (v) == PUYO_GARBAGE ? 'O'                                                               \
			       : '?')
#define PAIR(v)                                                                                    \
	{                                                                                          \
		CELL_CHAR((v)&7), CELL_CHAR((v) >> 3)                                              \
	}
#define PAIR8(v)                                                                                   \
	PAIR(v), PAIR((v) + 1), PAIR((v) + 2), PAIR((v) + 3), PAIR((v) + 4), PAIR((v) + 5),        \
	    PAIR((v) + 6), PAIR((v) + 7)
static const char pair_chars[64][2] = {PAIR8(0),  PAIR8(8),  PAIR8(16), PAIR8(24),
				       PAIR8(32), PAIR8(40), PAIR8(48), PAIR8(56)};

static int write_planes_portable(const struct puyo_planes *planes, unsigned rows,
				 const struct puyo_result *result, char *buf, size_t size)
{
	char text[PUYO_RESULT_MAX];
	uint64_t pairs[PUYO_COLS / 2][2] = {{0}};

#pragma GCC unroll 6
	for (unsigned c = 0; c < PUYO_COLS; c++) {
#pragma GCC unroll 3
		for (unsigned k = 0; k < 3; k++) {
			unsigned lane = (unsigned)(planes->word[k][c / 4] >> (16 * (c % 4)));
			unsigned at = k + 3 * (c % 2);
			pairs[c / 2][0] |= spread_bytes[lane & 0xFFu] << at;
			pairs[c / 2][1] |= spread_bytes[(lane >> 8) & 0x1Fu] << at;
		}
	}
	rows = rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
	size_t n = write_head(text, result);
	for (unsigned h = PUYO_ROWS_MAX - rows; h < PUYO_ROWS_MAX; h++) {
		text[n] = '"';
		for (unsigned p = 0; p < PUYO_COLS / 2; p++)
			memcpy(text + n + 1 + 2 * p,
			       pair_chars[(pairs[p][h / 8] >> (8 * (h % 8))) & 63u], 2);
		text[n + 1 + PUYO_COLS] = '"';
		text[n + 2 + PUYO_COLS] = ',';
		n += PUYO_COLS + 3;
	}
	n = codec_text_put(text, n - 1, "]}\n");
	return codec_text_copy(buf, size, text, n);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define WRITE_HAVE_AVX512 1

/*
 * Writing rows with AVX-512 (BW, VBMI): the three planes of columns 0-3
 * are the byte masks of 64 cells (byte 16 * c + h, h from the top), those
 * of columns 4-5 of 32 more; a masked set per plane gives every cell's
 * value, a byte permute its character, and one two-register permute lays
 * the characters of all rows out as the text "......","......",... with
 * the quotes and commas taken from the permute's own index where its mask
 * is clear. Index bytes with bit 7 set are cells (bits 0-6: the byte of
 * the two registers), the others the character written as it is.
 */
#define WRITE_SRC(c, h)	  ((c) < 4 ? 16 * (c) + (h) : 64 + 16 * ((c)-4) + (h))
#define WRITE_ROW_BYTES	  (PUYO_COLS + 3) /* "......", */
#define WRITE_AT(j, rows) ((j) / WRITE_ROW_BYTES)
#define WRITE_IN(j)	  ((j) % WRITE_ROW_BYTES)
#define WRITE_IDX(j, rows)                                                                         \
	((unsigned)WRITE_AT(j, rows) >= (rows)		    ? ' '                                  \
	 : WRITE_IN(j) == 0 || WRITE_IN(j) == PUYO_COLS + 1 ? '"'                                  \
	 : WRITE_IN(j) == PUYO_COLS + 2                                                            \
	     ? ','                                                                                 \
	     : 0x80 | WRITE_SRC(WRITE_IN(j) - 1, PUYO_ROWS_MAX - (rows) + WRITE_AT(j, rows)))
#define WRITE_BYTE(j, r) ((unsigned char)(WRITE_IDX(j, r)))
#define WRITE_X4(j, r)                                                                             \
	WRITE_BYTE(j, r), WRITE_BYTE((j) + 1, r), WRITE_BYTE((j) + 2, r), WRITE_BYTE((j) + 3, r)
#define WRITE_X16(j, r)                                                                            \
	WRITE_X4(j, r), WRITE_X4((j) + 4, r), WRITE_X4((j) + 8, r), WRITE_X4((j) + 12, r)
#define WRITE_X64(j, r)                                                                            \
	WRITE_X16(j, r), WRITE_X16((j) + 16, r), WRITE_X16((j) + 32, r), WRITE_X16((j) + 48, r)
/* [12 rows, 13 rows][text bytes 0-63, 64-127] */
static const unsigned char write_layout[2][2][64] = {
    {{WRITE_X64(0, PUYO_ROWS)}, {WRITE_X64(64, PUYO_ROWS)}},
    {{WRITE_X64(0, PUYO_ROWS_MAX)}, {WRITE_X64(64, PUYO_ROWS_MAX)}},
};
#define WRITE_CHAR8(v)                                                                             \
	CELL_CHAR(v), CELL_CHAR((v) + 1), CELL_CHAR((v) + 2), CELL_CHAR((v) + 3),                  \
	    CELL_CHAR((v) + 4), CELL_CHAR((v) + 5), CELL_CHAR((v) + 6), CELL_CHAR((v) + 7)
/* The character of a cell value, at its byte (values 0-7; the rest unused). */
static const char write_chars[64] = {WRITE_CHAR8(0), WRITE_CHAR8(0), WRITE_CHAR8(0),
				     WRITE_CHAR8(0), WRITE_CHAR8(0), WRITE_CHAR8(0),
				     WRITE_CHAR8(0), WRITE_CHAR8(0)};

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static inline __m512i
write_cells(const uint64_t word[3][2], unsigned half, __m512i chars)
{
	__m512i v = _mm512_maskz_mov_epi8(word[0][half], _mm512_set1_epi8(1));
	v = _mm512_or_si512(v, _mm512_maskz_mov_epi8(word[1][half], _mm512_set1_epi8(2)));
	v = _mm512_or_si512(v, _mm512_maskz_mov_epi8(word[2][half], _mm512_set1_epi8(4)));
	return _mm512_permutexvar_epi8(v, chars);
}

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) static int
write_planes_avx512(const struct puyo_planes *planes, unsigned rows,
		    const struct puyo_result *result, char *buf, size_t size)
{
	char text[PUYO_RESULT_MAX];
	unsigned t = rows == PUYO_ROWS_MAX;
	rows = t ? PUYO_ROWS_MAX : PUYO_ROWS;
	__m512i chars = _mm512_loadu_si512(write_chars);
	__m512i lo = write_cells(planes->word, 0, chars);
	__m512i hi = write_cells(planes->word, 1, chars);
	__m512i idx0 = _mm512_loadu_si512(write_layout[t][0]);
	__m512i idx1 = _mm512_loadu_si512(write_layout[t][1]);
	__m512i out0 = _mm512_mask2_permutex2var_epi8(lo, idx0, _mm512_movepi8_mask(idx0), hi);
	__m512i out1 = _mm512_mask2_permutex2var_epi8(lo, idx1, _mm512_movepi8_mask(idx1), hi);
	size_t n = write_head(text, result);
	size_t len = WRITE_ROW_BYTES * rows - 1; /* the last comma left out */
	_mm512_storeu_si512(text + n, out0);
	_mm512_mask_storeu_epi8(text + n + 64, (1ull << (len - 64)) - 1, out1);
	n = codec_text_put(text, n + len, "]}\n");
	return codec_text_copy(buf, size, text, n);
}
#else
#define WRITE_HAVE_AVX512 0
#endif

int puyo_json_write_planes_impl(const struct puyo_planes *planes, unsigned rows,
				const struct puyo_result *result, char *buf, size_t size,
				enum puyo_impl impl)
{
	if (impl == PUYO_IMPL_AUTO)
		impl = puyo_impl_auto();
#if WRITE_HAVE_AVX512
	if (impl == PUYO_IMPL_AVX512)
		return write_planes_avx512(planes, rows, result, buf, size);
#endif
	return write_planes_portable(planes, rows, result, buf, size);
}

int puyo_json_write_planes(const struct puyo_planes *planes, unsigned rows,
			   const struct puyo_result *result, char *buf, size_t size)
{
	return puyo_json_write_planes_impl(planes, rows, result, buf, size, PUYO_IMPL_AUTO);
}
