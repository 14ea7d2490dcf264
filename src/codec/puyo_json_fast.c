/*
 * The fast path of the Puyo JSON decoder: a request body that is exactly
 * the canonical case {"field": ["......", ...]} (12 or 13 strings of 6
 * characters of `.RGBPYO`, JSON whitespace where JSON allows it, nothing
 * else), read once straight into the field. See puyo_json_fast_read() in
 * puyo_codec.h.
 *
 * It never reports anything: whatever it does not recognise (an escape, a
 * "trace" member, a bad row, a batch), the caller reads again through
 * jansson and puyo_json_read(), so every answer to an unusual body and
 * every error comes from that one path.
 */
#include <string.h>

#include "codec/puyo_codec.h"

static bool is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Cell value + 1 of each byte of `.RGBPYO`, 0 for any other byte. */
static const unsigned char cell_plus_one[256] = {
    ['.'] = 1 + PUYO_EMPTY,   ['R'] = 1 + PUYO_RED,    ['G'] = 1 + PUYO_GREEN,
    ['B'] = 1 + PUYO_BLUE,    ['P'] = 1 + PUYO_PURPLE, ['Y'] = 1 + PUYO_YELLOW,
    ['O'] = 1 + PUYO_GARBAGE,
};

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

/* A row string "......" into cells[0..6); false for anything else. */
static inline bool take_row(struct scan *s, uint8_t cells[PUYO_COLS])
{
	skip_ws(s);
	const unsigned char *p = s->p;
	if (s->end - p < PUYO_COLS + 2 || p[0] != '"' || p[PUYO_COLS + 1] != '"')
		return false;
	unsigned v0 = cell_plus_one[p[1]], v1 = cell_plus_one[p[2]], v2 = cell_plus_one[p[3]];
	unsigned v3 = cell_plus_one[p[4]], v4 = cell_plus_one[p[5]], v5 = cell_plus_one[p[6]];
	cells[0] = (uint8_t)(v0 - 1u);
	cells[1] = (uint8_t)(v1 - 1u);
	cells[2] = (uint8_t)(v2 - 1u);
	cells[3] = (uint8_t)(v3 - 1u);
	cells[4] = (uint8_t)(v4 - 1u);
	cells[5] = (uint8_t)(v5 - 1u);
	s->p = p + PUYO_COLS + 2;
	return v0 && v1 && v2 && v3 && v4 && v5;
}

bool puyo_json_fast_read(const char *body, size_t len, struct puyo_field *field)
{
	static const char key[] = "\"field\"";
	struct scan s = {(const unsigned char *)body, (const unsigned char *)body + len};
	uint8_t rows[PUYO_ROWS_MAX][PUYO_COLS];
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
		if (n == PUYO_ROWS_MAX || !take_row(&s, rows[n]))
			return false;
		n++;
		if (s.p < s.end && *s.p == ',') { /* compact: no white space to skip */
			s.p++;
			continue;
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
	puyo_field_init(field, n);
	memcpy(field->cell, rows, n * sizeof rows[0]);
	return true;
}
