/*
 * The fast path of a Puyo text request body: the canonical Baekjoon input,
 * 12 rows (or 13 with the hidden row on top) of six bytes of `.RGBPYO`,
 * each ended by "\n" or "\r\n" (the last one may end the body instead),
 * read straight into bit planes as puyo_json_fast.c reads its rows. A body
 * whose lines end in "\n" alone goes through the vector readers of
 * puyo_lines.c (the rows of a --lines line, a line feed between two);
 * others byte by byte. See puyo_text_fast_planes() in puyo_codec.h.
 *
 * It never reports anything: whatever it does not recognise (a blank line,
 * a space, a row of another width, a bad byte), the caller reads again
 * through puyo_text_read(), so every answer to an unusual body and every
 * error comes from that one reader.
 */
#include "codec/puyo_codec.h"
#include "codec/puyo_rows.h"

bool puyo_text_fast_planes(const char *text, size_t len, struct puyo_planes *planes, unsigned *rows)
{
	return puyo_text_fast_planes_impl(text, len, planes, rows, PUYO_IMPL_AUTO);
}

bool puyo_text_fast_planes_impl(const char *text, size_t len, struct puyo_planes *planes,
				unsigned *rows, enum puyo_impl impl)
{
	/* Most bodies end their lines with "\n" alone: the rows are then a
	 * line of the --lines reader whose separator is a line feed, read by
	 * its vector paths. */
	size_t line = len > 0 && text[len - 1] == '\n' ? len - 1 : len;
	if ((line == PUYO_ROWS * (PUYO_COLS + 1) - 1 ||
	     line == PUYO_ROWS_MAX * (PUYO_COLS + 1) - 1) &&
	    puyo_rows_line_fast(text, line, '\n', planes, impl)) {
		*rows = (unsigned)((line + 1) / (PUYO_COLS + 1));
		return true;
	}
	const unsigned char *p = (const unsigned char *)text;
	const unsigned char *end = p + len;
	uint64_t acc[PUYO_COLS] = {0};
	unsigned n = 0;

	while (p < end) {
		if (n == PUYO_ROWS_MAX || end - p < PUYO_COLS)
			return false;
#pragma GCC unroll 6
		for (unsigned c = 0; c < PUYO_COLS; c++)
			acc[c] |= puyo_rows_cell_acc(p[c]) << n;
		n++;
		p += PUYO_COLS;
		if (p < end && *p == '\r')
			p++;
		if (p < end) {
			if (*p != '\n')
				return false;
			p++;
		} else if (p[-1] == '\r') {
			return false; /* a lone CR at the very end: the reader's call */
		}
	}
	if (n != PUYO_ROWS && n != PUYO_ROWS_MAX)
		return false;
	*rows = n;
	return puyo_rows_acc_planes(acc, n, planes);
}
