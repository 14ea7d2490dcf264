/*
 * The fast path of the Puyo JSON decoder: a body that is exactly the
 * canonical case {"field": ["......", ...]} (12 or 13 rows of `.RGBPYO`),
 * read once straight into the core's bit planes. It reports nothing:
 * whatever it does not recognise goes through jansson and puyo_json_read(),
 * which decide every other answer and every error.
 */
#include "codec/json_scan.h"
#include "codec/puyo_codec.h"
#include "codec/puyo_rows.h"

/* A row string "......" as row r into its columns' accumulators
 * (puyo_rows.h); false when it is not a quoted string of 6 bytes (a bad
 * byte is seen by puyo_rows_acc_planes()). */
static inline bool take_row(struct codec_scan *s, unsigned r, uint64_t acc[PUYO_COLS])
{
	codec_scan_ws(s);
	const unsigned char *p = s->p;
	if (s->end - p < PUYO_COLS + 2 || p[0] != '"' || p[PUYO_COLS + 1] != '"')
		return false;
#pragma GCC unroll 6
	for (unsigned c = 0; c < PUYO_COLS; c++)
		acc[c] |= puyo_rows_cell_acc(p[1 + c]) << r;
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
