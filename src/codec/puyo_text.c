/*
 * The Baekjoon text form of a Puyo field (the rows, top first) in, and the
 * Baekjoon output ("C\n") and the field as text out. Lenient mode also
 * takes CR LF, blanks at the end of a line, a missing final newline and
 * blank lines at the end. Every fault is CODEC_E_INVALID at its line and,
 * for a bad character, its column (counted in characters).
 */
#include "codec/puyo_codec.h"

#include <stdio.h>
#include <string.h>

#include "codec/decimal.h"
#include "codec/puyo_rows.h"

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

/*
 * Lenient mode: the rows are the lines up to the last non-blank one, of
 * which there are `nrows`; lines[] holds the first LINES_KEPT of them.
 */
static void read_lenient(struct puyo_rows *rd, const struct text_line *lines, unsigned nrows)
{
	bool size_ok = nrows == PUYO_ROWS || nrows == PUYO_ROWS_MAX;

	puyo_field_init(rd->field, size_ok ? nrows : PUYO_ROWS);
	for (unsigned i = 0; i < nrows && i < PUYO_ROWS_MAX; i++) {
		size_t len = trim_len(lines[i].s, lines[i].len);
		if (puyo_rows_check(rd, lines[i].s, len, i, size_ok ? i : PUYO_ROWS_MAX))
			return;
	}
	if (!size_ok)
		puyo_rows_fault(rd, NULL, nrows < PUYO_ROWS ? nrows + 1 : PUYO_ROWS_MAX + 1, 0,
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
		if (cr)
			tl.len--;
		if (puyo_rows_check(rd, tl.s, tl.len, i, i))
			return;
		if (cr &&
		    puyo_rows_fault(rd, NULL, i + 1, puyo_rows_chars(tl.s, tl.len) + 1,
				    "carriage return at the end of the line (lines must end with "
				    "\"\\n\" only)"))
			return;
		if (i + 1 == nlines && !final_newline &&
		    puyo_rows_fault(rd, NULL, i + 1, 0, "missing newline at the end of the line"))
			return;
	}
	if (nlines != PUYO_ROWS &&
	    puyo_rows_fault(rd, NULL, nlines < PUYO_ROWS ? nlines + 1 : PUYO_ROWS + 1, 0,
			    "expected %u rows, found %u", PUYO_ROWS, nlines))
		return;
	if (nlines >= PUYO_ROWS)
		puyo_rows_check_floating(rd);
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
	char text[PUYO_ROWS_MAX * (PUYO_COLS + 1) + 1];
	unsigned rows = field->rows == PUYO_ROWS_MAX ? PUYO_ROWS_MAX : PUYO_ROWS;
	size_t n = 0;

	for (unsigned r = 0; r < rows; r++) {
		for (unsigned c = 0; c < PUYO_COLS; c++)
			text[n++] = puyo_cell_to_char(field->cell[r][c]);
		text[n++] = '\n';
	}
	text[n] = '\0';
	return snprintf(buf, size, "%s", text);
}
