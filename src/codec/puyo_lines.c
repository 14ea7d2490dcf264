/*
 * One field per line, the input of `dropjudge solve puyo --lines`. A line
 * of the exact layout goes through a table straight into the core's bit
 * planes (or puyo_lines_avx512.c where the processor has it); any other is
 * split at its spaces and its rows checked as the other Puyo readers check
 * theirs, so its faults read the same, with the row they are in.
 */
#include "codec/puyo_codec.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "codec/puyo_lines_avx512.h"
#include "codec/puyo_rows.h"

#define ROW_BYTES (PUYO_COLS + 1) /* a row and the separator after it */

/* Reads a line of the exact layout straight into planes, a column's cells
 * in one accumulator; false for any other line. */
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
			acc[c] = acc[c] << 1 | puyo_rows_cell_acc(row[c]);
		if (r + 1 < rows)
			spaces |= row[PUYO_COLS] ^ (unsigned)' ';
	}
	return puyo_rows_acc_planes(acc, rows, planes) && !spaces;
}

enum codec_status puyo_lines_read(const char *s, size_t len, unsigned line,
				  struct puyo_planes *planes, struct codec_error *err)
{
	if (puyo_lines_avx512_on() ? puyo_lines_avx512_read(s, len, planes)
				   : lines_fast((const unsigned char *)s, len, planes))
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
		if (puyo_rows_check(&rows, s + from, to - from, r, r))
			break;
		chars += puyo_rows_chars(s + from, to - from) + 1;
		from = to + 1;
	}
	if (rows.failed)
		return CODEC_E_INVALID;
	puyo_planes_from_field(planes, &field);
	return CODEC_OK;
}
