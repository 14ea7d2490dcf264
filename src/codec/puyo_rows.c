/*
 * The row checks and the fault path the Puyo readers share: the width of a
 * row and its characters (UTF-8 aware, so that a bad character is named and
 * counted as one), and the floating check of strict mode.
 */
#include "codec/puyo_rows.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec/error.h"
#include "codec/utf8.h"

#define ALPHABET_LENIENT ".RGBPYO"
#define ALPHABET_STRICT	 ".RGBPY"
#define UNKNOWN_CELL	 "unknown cell %s at column %u (expected one of %s)"
#define FLOATING	 "puyo at column %u floats above an empty cell"

static bool __attribute__((format(printf, 5, 0)))
rows_vfault(struct puyo_rows *rows, const char *suffix, unsigned line, unsigned column,
	    const char *fmt, va_list ap)
{
	char pointer[CODEC_POINTER_MAX];
	struct codec_where where = {.line = line, .column = column};
	if (rows->pointer) {
		snprintf(pointer, sizeof pointer, "%s%s", rows->pointer, suffix);
		where = (struct codec_where){.pointer = pointer};
	}
	rows->failed = true;
	codec_error_vadd(rows->err, CODEC_E_INVALID, &where, fmt, ap);
	return !rows->err || rows->err->max_faults <= 1;
}

bool puyo_rows_fault(struct puyo_rows *rows, const char *suffix, unsigned line, unsigned column,
		     const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool stop = rows_vfault(rows, suffix, line, column, fmt, ap);
	va_end(ap);
	return stop;
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
	if (rows->lines) {
		vsnprintf(detail, sizeof detail, fmt, ap);
		va_end(ap);
		puyo_rows_fault(rows, NULL, rows->line, rows->start[index] + (column ? column : 1),
				"row %u: %s", index + 1, detail);
		return true;
	}
	snprintf(suffix, sizeof suffix, "/field/%u", index);
	bool stop = rows_vfault(rows, suffix, index + 1, column, fmt, ap);
	va_end(ap);
	return stop;
}

/*
 * Measures the character at s[0..n) (n >= 1): returns its length in bytes
 * (1 for a byte that does not start valid UTF-8) and, when `shown` is not
 * NULL, writes how a fault names it: 'X' for printable ASCII, U+XXXX for any
 * other character, "byte 0xNN" for a byte that is not UTF-8.
 */
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

unsigned puyo_rows_chars(const char *s, size_t len)
{
	unsigned chars = 0;
	for (size_t pos = 0; pos < len; chars++)
		pos += char_measure((const unsigned char *)s + pos, len - pos, NULL, 0);
	return chars;
}

bool puyo_rows_check(struct puyo_rows *rows, const char *s, size_t len, unsigned index,
		     unsigned row)
{
	const unsigned char *u = (const unsigned char *)s;
	const char *alphabet = rows->strict ? ALPHABET_STRICT : ALPHABET_LENIENT;
	unsigned chars = puyo_rows_chars(s, len);

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

void puyo_rows_check_floating(struct puyo_rows *rows)
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

#define CELL(v)                                                                                    \
	(PUYO_ROWS_CELL_BAD ^                                                                      \
	 ((uint64_t)((v)&1) | (uint64_t)(((v) >> 1) & 1) << 16 | (uint64_t)((v) >> 2) << 32))

const uint64_t puyo_rows_cell_bits[256] = {
    ['.'] = CELL(PUYO_EMPTY),	['R'] = CELL(PUYO_RED),	   ['G'] = CELL(PUYO_GREEN),
    ['B'] = CELL(PUYO_BLUE),	['P'] = CELL(PUYO_PURPLE), ['Y'] = CELL(PUYO_YELLOW),
    ['O'] = CELL(PUYO_GARBAGE),
};

bool puyo_rows_acc_planes(const uint64_t acc[PUYO_COLS], unsigned rows, struct puyo_planes *planes)
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
