/*
 * Puyo codecs (puyo_codec.h): the JSON case, the Baekjoon text and the lines
 * of `solve puyo --lines` in, fields and results out. The readers share one
 * state and one row check, so their faults read the same; canonical input
 * goes through a table straight into the core's bit planes.
 */
#include "codec/puyo_codec.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "codec/decimal.h"
#include "codec/json_scan.h"
#include "codec/utf8.h"
#include "core/cpu.h"

/* ---- the rows: the state, checks and faults the readers share ---- */

/* One Puyo reader's state: the cells read so far and where faults go. Caller-owned, zeroed. */
struct puyo_rows {
	struct codec_error *err;	      /* not owned; NULL allowed */
	const char *pointer;		      /* JSON: the case's pointer; NULL for text */
	bool lines;			      /* --lines: every row on line `line` */
	unsigned line;			      /* --lines: the line read */
	unsigned start[PUYO_ROWS_MAX + 1];    /* --lines: character column before each row */
	bool strict;			      /* validation mode: no garbage 'O' */
	bool failed;			      /* some fault was found */
	struct puyo_field *field;	      /* not owned; receives the good cells */
	bool known[PUYO_ROWS_MAX][PUYO_COLS]; /* cell read from a good character */
};

#define ALPHABET_LENIENT ".RGBPYO"
#define ALPHABET_STRICT	 ".RGBPY"
#define UNKNOWN_CELL	 "unknown cell %s at column %u (expected one of %s)"
#define FLOATING	 "puyo at column %u floats above an empty cell"

/* Records a fault, CODEC_E_INVALID: for JSON at the case's pointer followed
 * by `suffix` ("/field"), for text at `line` and `column` (0: none).
 * Returns whether reading must stop. */
static bool __attribute__((format(printf, 5, 6)))
rows_fault(struct puyo_rows *rows, const char *suffix, unsigned line, unsigned column,
	   const char *fmt, ...)
{
	char pointer[CODEC_POINTER_MAX];
	struct codec_where where = {.line = line, .column = column};
	if (rows->pointer) {
		snprintf(pointer, sizeof pointer, "%s%s", rows->pointer, suffix ? suffix : "");
		where = (struct codec_where){.pointer = pointer};
	}
	rows->failed = true;
	va_list ap;
	va_start(ap, fmt);
	codec_error_vadd(rows->err, CODEC_E_INVALID, &where, fmt, ap);
	va_end(ap);
	return !rows->err || rows->err->max_faults <= 1;
}

/* A fault of input row `index` (0-based) at character `column` (1-based;
 * 0: the whole row): element `index` of "field", line index + 1, or the
 * row's place in a --lines line, which stops at its first fault. */
static bool __attribute__((format(printf, 4, 5)))
row_fault(struct puyo_rows *rows, unsigned index, unsigned column, const char *fmt, ...)
{
	char suffix[32], detail[CODEC_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	if (rows->lines) {
		rows_fault(rows, NULL, rows->line, rows->start[index] + (column ? column : 1),
			   "row %u: %s", index + 1, detail);
		return true;
	}
	snprintf(suffix, sizeof suffix, "/field/%u", index);
	return rows_fault(rows, suffix, index + 1, column, "%s", detail);
}

/* Measures the character at s[0..n) (n >= 1): returns its length in bytes (1 for a byte that
 * does not start valid UTF-8) and, when `shown` is not NULL, writes how a fault names it: 'X'
 * for printable ASCII, U+XXXX for any other character, "byte 0xNN" for a byte not UTF-8. */
static size_t char_measure(const unsigned char *s, size_t n, char *shown, size_t size)
{
	unsigned long cp = 0;
	size_t len = codec_utf8_decode((const char *)s, n, &cp);
	if (shown) {
		if (len == 0)
			snprintf(shown, size, "byte 0x%02X", s[0]);
		else if (cp >= 0x20 && cp < 0x7f)
			snprintf(shown, size, "'%c'", (char)cp);
		else
			snprintf(shown, size, "U+%04lX", cp);
	}
	return len ? len : 1;
}

/* Characters in s[0..len): UTF-8 characters, a byte that is not UTF-8 counting as one. */
static unsigned rows_chars(const char *s, size_t len)
{
	unsigned chars = 0;
	for (size_t pos = 0; pos < len; chars++) /* an ASCII byte is one character */
		pos += (unsigned char)s[pos] < 0x80
			   ? 1
			   : char_measure((const unsigned char *)s + pos, len - pos, NULL, 0);
	return chars;
}

/* Checks s[0..len), input row `index`, as row `row` of the field (row >=
 * PUYO_ROWS_MAX: check only), storing its good cells. Returns whether
 * reading must stop. */
static bool rows_check(struct puyo_rows *rows, const char *s, size_t len, unsigned index,
		       unsigned row)
{
	const unsigned char *u = (const unsigned char *)s;
	const char *alphabet = rows->strict ? ALPHABET_STRICT : ALPHABET_LENIENT;
	unsigned chars = rows_chars(s, len);
	if (chars != PUYO_COLS &&
	    row_fault(rows, index, 0, "expected %u characters, found %u", PUYO_COLS, chars))
		return true;

	size_t pos = 0;
	for (unsigned col = 0; col < PUYO_COLS && pos < len; col++) {
		/* Good cells are ASCII: the character is named only for a fault. */
		int cell = u[pos] < 0x80 ? puyo_cell_from_char(s[pos]) : -1;
		if (cell == PUYO_GARBAGE && rows->strict)
			cell = -1;
		if (cell < 0) {
			char shown[24];
			pos += char_measure(u + pos, len - pos, shown, sizeof shown);
			if (row_fault(rows, index, col + 1, UNKNOWN_CELL, shown, col + 1, alphabet))
				return true;
			continue;
		}
		pos++;
		if (row < PUYO_ROWS_MAX) {
			rows->field->cell[row][col] = (uint8_t)cell;
			rows->known[row][col] = true;
		}
	}
	return false;
}

/* Strict mode: reports in each column the lowest puyo above a known empty
 * cell. */
static void rows_check_floating(struct puyo_rows *rows)
{
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		bool gap = false;
		for (unsigned r = PUYO_ROWS; r-- > 0;) {
			if (!rows->known[r][c])
				continue;
			if (rows->field->cell[r][c] == PUYO_EMPTY) {
				gap = true;
			} else if (gap) {
				if (row_fault(rows, r, 0, FLOATING, c + 1))
					return;
				break;
			}
		}
	}
}

/* Rows straight into bit planes, for the fast readers: what a byte adds to its column's
 * accumulator, bit k of its cell at bit 16 * k and bit 48 for a byte not of `.RGBPYO` (stored
 * flipped). A reader ORs row r in at bit r. */
#define CELL_BAD ((uint64_t)1 << 48)

#define CELL(v)                                                                                    \
	(CELL_BAD ^                                                                                \
	 ((uint64_t)((v)&1) | (uint64_t)(((v) >> 1) & 1) << 16 | (uint64_t)((v) >> 2) << 32))

static const uint64_t cell_bits[256] = {
    ['.'] = CELL(PUYO_EMPTY),	['R'] = CELL(PUYO_RED),	   ['G'] = CELL(PUYO_GREEN),
    ['B'] = CELL(PUYO_BLUE),	['P'] = CELL(PUYO_PURPLE), ['Y'] = CELL(PUYO_YELLOW),
    ['O'] = CELL(PUYO_GARBAGE),
};

static inline uint64_t cell_acc(unsigned char byte)
{
	return cell_bits[byte] ^ CELL_BAD;
}

/* The planes of a `rows`-row field from its columns' accumulators: false when a byte was bad. */
static bool acc_planes(const uint64_t acc[PUYO_COLS], unsigned rows, struct puyo_planes *planes)
{
	/* row 0 is at h = 0: a 12-row field starts at h = 1 */
	unsigned h0 = PUYO_ROWS_MAX - rows;
	uint64_t any = 0;
	memset(planes, 0, sizeof *planes);
#pragma GCC unroll 6
	for (unsigned c = 0; c < PUYO_COLS; c++) {
		any |= acc[c];
#pragma GCC unroll 3
		for (unsigned k = 0; k < 3; k++)
			planes->word[k][c / 4] |= ((acc[c] >> (16 * k)) & 0xFFFFu)
						  << (16 * (c % 4) + h0);
	}
	return !(any >> 48);
}

/* ---- JSON: {"field": [rows, top first], "trace": bool} in, rows out ---- */

/* Reads the "field" member, which is present. */
static void read_field(struct puyo_rows *rd, const json_t *rows)
{
	if (!json_is_array(rows)) {
		rows_fault(rd, "/field", 0, 0, "must be an array");
		return;
	}

	size_t n = json_array_size(rows);
	bool size_ok = n == PUYO_ROWS || (!rd->strict && n == PUYO_ROWS_MAX);
	if (!size_ok &&
	    (rd->strict
		 ? rows_fault(rd, "/field", 0, 0, "expected %u rows, found %zu", PUYO_ROWS, n)
		 : rows_fault(rd, "/field", 0, 0,
			      "expected %u rows (%u with the hidden row), found %zu", PUYO_ROWS,
			      PUYO_ROWS_MAX, n)))
		return;

	/* Rows past the largest field are only counted, not read. */
	size_t checked = rd->strict ? PUYO_ROWS : PUYO_ROWS_MAX;
	puyo_field_init(rd->field, size_ok ? (unsigned)n : PUYO_ROWS);
	for (size_t i = 0; i < n && i < checked; i++) {
		/* Strict mode keeps the first 12 rows for the floating check. */
		unsigned row = size_ok || rd->strict ? (unsigned)i : PUYO_ROWS_MAX;
		const json_t *v = json_array_get(rows, i);
		if (json_is_string(v) ? rows_check(rd, json_string_value(v), json_string_length(v),
						   (unsigned)i, row)
				      : row_fault(rd, (unsigned)i, 0, "expected a string"))
			return;
	}
	if (rd->strict && n >= PUYO_ROWS)
		rows_check_floating(rd);
}

enum codec_status puyo_json_read(const json_t *case_obj, const char *pointer, bool strict,
				 struct puyo_field *field, struct codec_error *err)
{
	struct puyo_rows rd = {
	    .err = err, .pointer = pointer ? pointer : "", .strict = strict, .field = field};
	const char *key;
	json_t *value;
	puyo_field_init(field, PUYO_ROWS);
	if (!json_is_object(case_obj)) {
		rows_fault(&rd, "", 0, 0, "expected an object");
		return CODEC_E_INVALID;
	}

	/* json_object_foreach wants a non-const object; it does not modify it. */
	json_object_foreach((json_t *)case_obj, key, value)
	{
		if (strcmp(key, "field") == 0 || strcmp(key, "trace") == 0 ||
		    (strcmp(key, "id") == 0 && (json_is_string(value) || json_is_integer(value))))
			continue;
		/* Only as much as fits after the case pointer, which rows_fault()
		 * puts first: cutting there could split an escape ("~1"). */
		char where[CODEC_POINTER_MAX] = "";
		codec_pointer_append(where, sizeof where - strnlen(rd.pointer, sizeof where - 1),
				     key);
		if (rows_fault(
			&rd, where, 0, 0,
			strcmp(key, "id") == 0
			    ? "id must be a string or an integer"
			    : "unknown member; a case holds \"field\", \"trace\" and \"id\""))
			return CODEC_E_INVALID;
	}

	value = json_object_get(case_obj, "trace");
	if (value && !json_is_boolean(value) &&
	    rows_fault(&rd, "/trace", 0, 0, "expected a boolean"))
		return CODEC_E_INVALID;

	value = json_object_get(case_obj, "field");
	if (!value)
		rows_fault(&rd, "/field", 0, 0, "required");
	else
		read_field(&rd, value);
	return rd.failed ? CODEC_E_INVALID : CODEC_OK;
}

json_t *puyo_json_rows(const struct puyo_field *field)
{
	char text[PUYO_ROWS_MAX * (PUYO_COLS + 1) + 1];
	int len = puyo_text_field(field, text, sizeof text);
	json_t *array = json_array();
	for (int at = 0; array && at < len; at += PUYO_COLS + 1) {
		/* append_new takes the string, and fails on NULL. */
		if (json_array_append_new(array, json_stringn(text + at, PUYO_COLS)) != 0) {
			json_decref(array);
			array = NULL;
		}
	}
	return array;
}

/* Longest result: a 20-digit score, the keys and 13 quoted rows. */
#define PUYO_RESULT_MAX 256

int puyo_json_write_result(const struct puyo_field *field, const struct puyo_result *result,
			   char *buf, size_t size)
{
	char text[PUYO_RESULT_MAX];
	unsigned rows = field->rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
	/* The route's result integers, printed as jansson does (json_int_t). */
	size_t n = codec_text_put(text, 0, "{\"chains\":");
	n += codec_decimal_write(result->chains, text + n);
	n = codec_text_put(text, n, ",\"score\":");
	n += codec_json_int_write(result->score, text + n);
	n = codec_text_put(text, n,
			   result->all_clear ? ",\"all_clear\":true,\"field\":["
					     : ",\"all_clear\":false,\"field\":[");
	for (unsigned r = 0; r < rows; r++) {
		if (r > 0)
			text[n++] = ',';
		text[n] = '"';
		for (unsigned c = 0; c < PUYO_COLS; c++)
			text[n + 1 + c] = puyo_cell_to_char(field->cell[r][c]);
		text[n + 1 + PUYO_COLS] = '"';
		n += PUYO_COLS + 2;
	}
	n = codec_text_put(text, n, "]}\n");
	return codec_text_copy(buf, size, text, n);
}

/* ---- the fast JSON reader (puyo_codec.h), straight into the bit planes ---- */

/* A row string "......" as row r into its columns' accumulators; false when it is not a quoted
 * string of 6 bytes (a bad byte is seen by acc_planes()). */
static inline bool take_row(struct codec_scan *s, unsigned r, uint64_t acc[PUYO_COLS])
{
	codec_scan_ws(s);
	const unsigned char *p = s->p;
	if (s->end - p < PUYO_COLS + 2 || p[0] != '"' || p[PUYO_COLS + 1] != '"')
		return false;
#pragma GCC unroll 6
	for (unsigned c = 0; c < PUYO_COLS; c++)
		acc[c] |= cell_acc(p[1 + c]) << r;
	s->p = p + PUYO_COLS + 2;
	return true;
}

bool puyo_json_fast_planes(const char *body, size_t len, struct puyo_planes *planes, unsigned *rows)
{
	struct codec_scan s = {(const unsigned char *)body, (const unsigned char *)body + len};
	uint64_t acc[PUYO_COLS] = {0};
	unsigned n = 0;
	bool end = false;
	if (!codec_scan_head(&s, "\"field\""))
		return false;
	do {
		if (n == PUYO_ROWS_MAX || !take_row(&s, n++, acc))
			return false;
	} while (codec_scan_next(&s, &end));
	if (!end || (n != PUYO_ROWS && n != PUYO_ROWS_MAX) || !codec_scan_tail(&s))
		return false;
	*rows = n;
	return acc_planes(acc, n, planes);
}

/* ---- the Baekjoon text in (lenient: also CR LF, trailing blanks, no final newline, blank
 * lines at the end; faults at a line and a column in characters), "C\n" and rows out ---- */

/* Lines looked at one by one: 13 rows and the first line too many. */
#define LINES_KEPT (PUYO_ROWS_MAX + 1)

/* One line of the text, without its '\n'. */
struct text_line {
	const char *s;
	size_t len;
};

/* The length of s[0..len) without its trailing blanks, tabs and CRs. */
static size_t trim_len(const char *s, size_t len)
{
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	return len;
}

/* Lenient mode: the rows are the lines up to the last non-blank one, of which there are
 * `nrows`; lines[] holds the first LINES_KEPT of them. */
static void read_lenient(struct puyo_rows *rd, const struct text_line *lines, unsigned nrows)
{
	bool size_ok = nrows == PUYO_ROWS || nrows == PUYO_ROWS_MAX;
	puyo_field_init(rd->field, size_ok ? nrows : PUYO_ROWS);
	for (unsigned i = 0; i < nrows && i < PUYO_ROWS_MAX; i++) {
		size_t len = trim_len(lines[i].s, lines[i].len);
		if (rows_check(rd, lines[i].s, len, i, size_ok ? i : PUYO_ROWS_MAX))
			return;
	}
	if (!size_ok)
		rows_fault(rd, NULL, nrows < PUYO_ROWS ? nrows + 1 : PUYO_ROWS_MAX + 1, 0,
			   "expected %u rows (%u with the hidden row), found %u", PUYO_ROWS,
			   PUYO_ROWS_MAX, nrows);
}

/* Strict mode: exactly 12 lines, each ended by a lone '\n'. */
static void read_strict(struct puyo_rows *rd, const struct text_line *lines, unsigned nlines,
			bool final_newline)
{
	puyo_field_init(rd->field, PUYO_ROWS);
	for (unsigned i = 0; i < nlines && i < PUYO_ROWS; i++) {
		struct text_line tl = lines[i];
		bool cr = tl.len && tl.s[tl.len - 1] == '\r';
		tl.len -= cr;
		if (rows_check(rd, tl.s, tl.len, i, i))
			return;
		if (cr && rows_fault(rd, NULL, i + 1, rows_chars(tl.s, tl.len) + 1,
				     "carriage return at the end of the line (lines must end with "
				     "\"\\n\" only)"))
			return;
		if (i + 1 == nlines && !final_newline &&
		    rows_fault(rd, NULL, i + 1, 0, "missing newline at the end of the line"))
			return;
	}
	if (nlines != PUYO_ROWS &&
	    rows_fault(rd, NULL, nlines < PUYO_ROWS ? nlines + 1 : PUYO_ROWS + 1, 0,
		       "expected %u rows, found %u", PUYO_ROWS, nlines))
		return;
	if (nlines >= PUYO_ROWS)
		rows_check_floating(rd);
}

enum codec_status puyo_text_read(const char *text, size_t len, bool strict,
				 struct puyo_field *field, struct codec_error *err)
{
	struct puyo_rows rd = {.err = err, .strict = strict, .field = field};
	struct text_line lines[LINES_KEPT];
	unsigned nlines = 0; /* lines, counting a last one without '\n' */
	unsigned nrows = 0;  /* lines up to the last non-blank one */
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		struct text_line tl = {text + pos, end - pos};
		if (nlines < LINES_KEPT)
			lines[nlines] = tl;
		nlines++;
		if (trim_len(tl.s, tl.len))
			nrows = nlines;
		pos = nl ? end + 1 : len;
	}

	if (strict)
		read_strict(&rd, lines, nlines, len > 0 && text[len - 1] == '\n');
	else
		read_lenient(&rd, lines, nrows);
	return rd.failed ? CODEC_E_INVALID : CODEC_OK;
}

int puyo_text_result(const struct puyo_result *result, char *buf, size_t size)
{
	return snprintf(buf, size, "%u\n", result->chains);
}

int puyo_text_field(const struct puyo_field *field, char *buf, size_t size)
{
	char text[PUYO_ROWS_MAX * (PUYO_COLS + 1)];
	unsigned rows = field->rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
	size_t n = 0;
	for (unsigned r = 0; r < rows; r++) {
		for (unsigned c = 0; c < PUYO_COLS; c++)
			text[n++] = puyo_cell_to_char(field->cell[r][c]);
		text[n++] = '\n';
	}
	return codec_text_copy(buf, size, text, n);
}

/* ---- --lines (puyo_codec.h): a line of the exact layout straight into the
 * bit planes, any other split at its spaces and its rows checked ---- */

#define ROW_BYTES (PUYO_COLS + 1) /* a row and the separator after it */

/* Reads an exact-layout line straight into planes, a column per accumulator; false for others. */
static bool lines_fast(const unsigned char *u, size_t len, struct puyo_planes *planes)
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
			acc[c] = acc[c] << 1 | cell_acc(row[c]);
		if (r + 1 < rows)
			spaces |= row[PUYO_COLS] ^ (unsigned)' ';
	}
	return acc_planes(acc, rows, planes) && !spaces;
}

enum codec_status puyo_lines_read(const char *s, size_t len, unsigned line,
				  struct puyo_planes *planes, struct codec_error *err)
{
	if (cpu_switch_on(&puyo_lines_avx512) ? puyo_lines_avx512_read(s, len, planes)
					      : lines_fast((const unsigned char *)s, len, planes))
		return CODEC_OK;

	/* Count the rows first: their number decides the field. */
	unsigned nrows = 1;
	for (size_t i = 0; i < len; i++)
		nrows += s[i] == ' ';
	if (len == 0 || (nrows != PUYO_ROWS && nrows != PUYO_ROWS_MAX))
		return codec_error_at_line(
		    err, CODEC_E_INVALID, line, 0,
		    "expected %u or %u rows separated by single spaces, found %u", PUYO_ROWS,
		    PUYO_ROWS_MAX, len == 0 ? 0 : nrows);

	struct puyo_field field;
	struct puyo_rows rows = {.err = err, .lines = true, .line = line, .field = &field};
	puyo_field_init(&field, nrows);
	size_t from = 0;
	unsigned chars = 0;
	for (unsigned r = 0; r < nrows; r++) {
		size_t to = from;
		while (to < len && s[to] != ' ')
			to++;
		rows.start[r] = chars;
		if (rows_check(&rows, s + from, to - from, r, r))
			break;
		chars += rows_chars(s + from, to - from) + 1;
		from = to + 1;
	}
	if (rows.failed)
		return CODEC_E_INVALID;
	puyo_planes_from_field(planes, &field);
	return CODEC_OK;
}
