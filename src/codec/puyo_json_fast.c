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

bool puyo_json_fast_planes(const char *body, size_t len, struct puyo_planes *planes, unsigned *rows)
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
